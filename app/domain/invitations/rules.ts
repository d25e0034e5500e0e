// The invitation rules of spec 2 (§4 state table, §5 "Invitation", §8, §9), pure so that the
// screens, the models and the unit tests share one copy. The data access (who may act on which
// invitation, what a transition does to memberships) is in domain/invitations/invitation.server.ts.
import { ROLES, type Role } from "~/domain/roles";

export const INVITATION_STATUSES = [
  "pending",
  "accepted",
  "rejected",
  "blocked",
  "resend",
] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An invitation is open (its link can still be used, it counts on the badge) in these statuses. */
export const OPEN_INVITATION_STATUSES = ["pending", "resend"] as const;

export function isOpenStatus(status: string) {
  return (OPEN_INVITATION_STATUSES as readonly string[]).includes(status);
}

/** Which list an invitation is seen in: the sender's Sent list or the invitee's Received list. */
export type InvitationSide = "sent" | "received";

export const INVITATION_ACTIONS = [
  "resend",
  "remove",
  "revoke",
  "accept",
  "reject",
  "deactivate",
  "reactivate",
] as const;
export type InvitationAction = (typeof INVITATION_ACTIONS)[number];

export function isInvitationAction(value: unknown): value is InvitationAction {
  return typeof value === "string" && (INVITATION_ACTIONS as readonly string[]).includes(value);
}

/** The sender acts on resend, remove and revoke; the invitee on the rest. */
export function sideOfAction(action: InvitationAction): InvitationSide {
  return action === "resend" || action === "remove" || action === "revoke" ? "sent" : "received";
}

// Spec 2 §4. A "resend" invitation is a pending one that was sent again: it offers what pending
// offers on both sides. Received rejected shows a menu in the old client but offers no action.
const ACTIONS: Record<InvitationSide, Record<string, readonly InvitationAction[]>> = {
  sent: {
    pending: ["resend", "remove"],
    resend: ["resend", "remove"],
    accepted: ["revoke"],
    rejected: ["resend"],
  },
  received: {
    pending: ["accept", "reject"],
    resend: ["accept", "reject"],
    accepted: ["deactivate"],
    blocked: ["reactivate"],
  },
};

const RESULT: Record<InvitationAction, InvitationStatus> = {
  resend: "resend",
  remove: "blocked",
  revoke: "blocked",
  accept: "accepted",
  reject: "rejected",
  deactivate: "blocked",
  reactivate: "accepted",
};

/** The actions a side may take on an invitation in `status` (spec 2 §4). */
export function actionsFor(side: InvitationSide, status: string): InvitationAction[] {
  const table = ACTIONS[side];
  if (!table || !Object.hasOwn(table, status)) return [];
  return [...table[status]];
}

/** The status `action` leads to, or null when the table does not allow it. */
export function transition(
  side: InvitationSide,
  status: string,
  action: InvitationAction,
): InvitationStatus | null {
  return actionsFor(side, status).includes(action) ? RESULT[action] : null;
}

/**
 * The actions a row offers: the §4 table, narrowed by the invitation's history. "blocked" has
 * three causes (the sender withdrew it, the sender revoked access, the invitee deactivated it);
 * Reactivate undoes only the last, otherwise the invitee could undo a revoke and regain access.
 */
export function availableActions(
  side: InvitationSide,
  status: string,
  history: { pausedByInvitee: boolean },
): InvitationAction[] {
  return actionsFor(side, status).filter(
    (action) => action !== "reactivate" || history.pausedByInvitee,
  );
}

// ---------------------------------------------------------------------------------------------
// The invitation dialog (spec 2 §5 "Invitation")
// ---------------------------------------------------------------------------------------------

export const invitationMessages = {
  onlyClinicAdmins:
    "You shall invite only clinic admins to the care site, the selected user is holding the above role.",
  onlyPatients:
    "You shall invite patients to the care site, the selected user is holding the above role!",
  superAdminRoles:
    "User email already registered with the above role! As a Super-admin, you can invite only ABM Admin or Care site Admin roles.",
  alreadyHoldsRole: "User is already holding this role.",
  noCareSitesToInvite:
    "User is already part of all care sites which you are part of and no other care sites found to invite!",
  notAccepted: (email: string) => `${email} has not accepted the invitation`,
  rejected: (email: string) => `${email} has rejected the invitation`,
  resent: "Successfully resend invitation",
  userNotFound: "User not found",
  linkExpired: "Link Expired !!!",
  noDataFound: "No data found",
  noCareSiteFound: "No care site found",
  // Ours: the spec has no text for these refusals (a screen that follows the rules never meets them).
  actionNotAvailable: "This action is not available for this invitation.",
  invalidEmail: "Invalid Email",
  roleNotAllowed: "You cannot invite this role.",
  careSiteRequired: "Please select at least one care site.",
  careSiteNotAvailable: "A selected care site is not available for this invitation.",
  alreadyInvited: "This email already has an open invitation.",
  roleMismatch: "This invitation is for a role other than the one your account holds.",
} as const;

/** The confirmation dialogs (spec 2 §2 "Confirmation dialogs"; title Confirmation, Yes/No). */
export const invitationConfirmations = {
  title: "Confirmation",
  accept: (careSite: string) => `Accept the invitation from ${careSite}?`,
  resend: (user: string, careSite: string) => `Resend the invitation to ${user} from ${careSite}?`,
  revoke: "Revoke access?",
  remove: (user: string, careSite: string) =>
    `Withdraw the invitation sent to ${user} from ${careSite}.`,
  reactivate: "Are you Sure You want to Activate ?",
  cancel: "Are you sure you want to cancel?",
} as const;

const NEW_EMAIL_ROLES: Partial<Record<string, readonly Role[]>> = {
  superadmin: ["abmadmin", "clinicadmin"],
  abmadmin: ["clinicadmin"],
  clinicadmin: ["clinicadmin", "clinician", "patient"],
  clinician: ["patient"],
};

function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The roles an inviter may offer for an email without an account (patients invite no one). */
export function roleOptionsForNewEmail(inviterRole: string): Role[] {
  return Object.hasOwn(NEW_EMAIL_ROLES, inviterRole) ? [...NEW_EMAIL_ROLES[inviterRole]!] : [];
}

/**
 * The dialog's role options for an email that already has an account: the account's own role
 * when the inviter may invite that role, otherwise none and the spec's message.
 *
 * The spec lists four messages; the one for "inviting a role other than clinicadmin or patient"
 * names no inviter. Mapping used here:
 * - superadmin: an existing clinicadmin is offered; an existing abmadmin gets "User is already
 *   holding this role." (an ABM admin has no care site to be invited to); patient, clinician
 *   and superadmin get the Super-admin message (it names the only roles a super admin invites).
 * - abmadmin: an existing clinicadmin is offered; every other role gets "You shall invite only
 *   clinic admins…".
 * - clinicadmin and clinician: the existing role is offered when it is one they may invite for a
 *   new email (clinicadmin: clinicadmin, clinician, patient; clinician: patient); any other role
 *   gets "You shall invite patients…". So a clinicadmin may invite an existing clinician (as for
 *   a new email), and a clinician inviting an existing clinicadmin, clinician, abmadmin or
 *   superadmin gets the patients message, as does a clinicadmin inviting an abmadmin or superadmin.
 * - a role that invites no one (patient, unknown): no options and no message.
 */
export function roleOptionsForExistingUser(
  inviterRole: string,
  existingRole: string,
): { options: Role[]; message?: string } {
  const invitable = roleOptionsForNewEmail(inviterRole);
  if (invitable.length === 0) return { options: [] };
  const offered = isRole(existingRole) && invitable.includes(existingRole);
  switch (inviterRole) {
    case "superadmin":
      if (existingRole === "clinicadmin") return { options: ["clinicadmin"] };
      if (existingRole === "abmadmin")
        return { options: [], message: invitationMessages.alreadyHoldsRole };
      return { options: [], message: invitationMessages.superAdminRoles };
    case "abmadmin":
      return offered
        ? { options: [existingRole as Role] }
        : { options: [], message: invitationMessages.onlyClinicAdmins };
    default:
      return offered
        ? { options: [existingRole as Role] }
        : { options: [], message: invitationMessages.onlyPatients };
  }
}

/** Every invited role but ABM admin is invited to at least one care site. */
export function needsCareSite(role: string) {
  return role !== "abmadmin";
}

// ---------------------------------------------------------------------------------------------
// Lists (spec 2 §2, §9)
// ---------------------------------------------------------------------------------------------

export const INVITATION_PAGE_SIZE = 10;
export const SENT_SORT_KEYS = ["email", "role", "careSiteName", "status"] as const;
export type SentSortKey = (typeof SENT_SORT_KEYS)[number];
export const RECEIVED_SORT_KEYS = ["careSiteName", "status"] as const;
export type ReceivedSortKey = (typeof RECEIVED_SORT_KEYS)[number];
export type SortOrder = "asc" | "desc";

/** Where clicking a Sent row leads (spec 2 §2 "Clicking a sent row"). */
export type SentRowTarget =
  | { kind: "userinfo"; userId: string }
  | { kind: "patientProfile"; userId: string }
  | { kind: "warning"; message: string }
  | null;

export function sentRowTarget(row: {
  email: string;
  role: string;
  status: string;
  inviteeUserId: string | null;
}): SentRowTarget {
  if (row.status === "accepted" && row.inviteeUserId) {
    return row.role === "patient"
      ? { kind: "patientProfile", userId: row.inviteeUserId }
      : { kind: "userinfo", userId: row.inviteeUserId };
  }
  if (isOpenStatus(row.status))
    return { kind: "warning", message: invitationMessages.notAccepted(row.email) };
  if (row.status === "rejected")
    return { kind: "warning", message: invitationMessages.rejected(row.email) };
  return null;
}
