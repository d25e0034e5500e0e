// Who may read or change what (STYLE.md "Doors"): the only place care-site scoping is written.
//
// Every rule starts from an Actor: the signed-in user's id, role and email, the care sites where
// they hold an accepted membership *at an active care site* (with their role there), and the care
// site they are working in now. Models take an Actor and ask this module for a Prisma
// where-fragment (or, where a yes/no is needed, a "may" predicate); they never write a membership
// filter of their own and never take a Request. Routes get the Actor once per request
// (domain/actor.server.ts requireActor).
//
// Roles (DESIGN.md §5 "Care-site scoping"): superadmin and abmadmin reach every care site;
// clinicadmin and clinician reach the care sites of their accepted memberships at active care
// sites only; anything else reaches nothing. A fragment that matches nothing is how "denied"
// reads, so a model's answer for another care site's row is the same as for a missing row (the
// route answers 404).
//
// A membership counts only while it is accepted and its care site is active: a member removed
// from a care site (membership blocked, careSiteManagement withdrawMembership), one who
// deactivated it, or a member of a deactivated care site holds nothing there, whatever they did
// there before (invitations they sent, conversations, photos).
//
// Raw SQL that lists "the patients of care site X" (dashboard, adherence, daily summary) runs
// only for an X the caller got from a fragment of this module, or in a job (no actor).
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { OPEN_INVITATION_STATUSES, roleOptionsForNewEmail } from "~/domain/invitations/rules";
import { isProviderRole, isSiteRole, PROVIDER_ROLES, SITE_ROLES } from "~/domain/roles";

/** A care site where the actor holds an accepted membership, and their role there. */
export type ActorSite = { careSiteId: string; role: string };

/** The signed-in user as the access rules see them. */
export type Actor = {
  id: string;
  role: string;
  /** Lower-cased: the invitations addressed to the actor are the ones to this address. */
  email: string;
  /** Accepted memberships at active care sites only: a removed member or a deactivated care site is absent. */
  sites: readonly ActorSite[];
  /** The care site chosen in the session, when it is one of `sites` (else the first, by name). */
  currentCareSiteId: string | null;
};

/** Matches no row. */
export const NOTHING = { id: { in: [] as string[] } };

/** Provider admins (superadmin, abmadmin) reach every care site. */
export function isGlobal(actor: Pick<Actor, "role">) {
  return isProviderRole(actor.role);
}

/** The actor's care site ids, optionally only those where their role is one of `roles`. */
export function siteIds(actor: Actor, roles?: readonly string[]) {
  if (!isSiteRole(actor.role)) return [];
  return actor.sites.filter((s) => !roles || roles.includes(s.role)).map((s) => s.careSiteId);
}

/** The actor's role at a care site (their accepted membership's), or null. */
export function siteRoleAt(actor: Actor, careSiteId: string | null | undefined) {
  if (!careSiteId || !isSiteRole(actor.role)) return null;
  return actor.sites.find((s) => s.careSiteId === careSiteId)?.role ?? null;
}

// ---------------------------------------------------------------------------------------------
// Memberships: which ones count
// ---------------------------------------------------------------------------------------------

/** A membership that gives its holder a place at a care site now: accepted, at an active care site. */
export function currentMembership(
  where: Omit<Prisma.MembershipWhereInput, "status" | "careSite"> = {},
): Prisma.MembershipWhereInput {
  return { ...where, status: "accepted", careSite: { status: "active" } };
}

/**
 * A user's current places as care site staff, as a `memberships` selection of a user (the shell's
 * care site pickers and loadActor read the same thing): accepted clinicadmin or clinician
 * memberships at active care sites, by care site name.
 */
export const currentStaffSites = {
  where: currentMembership({ role: { in: [...SITE_ROLES] } }),
  select: { careSiteId: true, role: true, careSite: { select: { id: true, name: true } } },
  orderBy: { careSite: { name: "asc" } },
} satisfies Prisma.User$membershipsArgs;

/** Users who hold a current membership in `role` somewhere (the administrators' count cards). */
export function enrolledAs(role: string): Prisma.UserWhereInput {
  return { role, memberships: { some: currentMembership({ role }) } };
}

/**
 * Builds the Actor of a signed-in user: their email, their current staff memberships, and the
 * current care site when `chosenCareSiteId` is one of them (otherwise the first, by name).
 */
export async function loadActor(
  user: { id: string; role: string },
  chosenCareSiteId?: string | null,
): Promise<Actor> {
  const row = await prisma.user.findUnique({
    where: { id: user.id },
    select: { email: true, memberships: currentStaffSites },
  });
  const sites: ActorSite[] = isSiteRole(user.role)
    ? (row?.memberships ?? []).map((m) => ({ careSiteId: m.careSiteId, role: m.role }))
    : [];
  return {
    id: user.id,
    role: user.role,
    email: (row?.email ?? "").toLowerCase(),
    sites,
    currentCareSiteId: currentOf(sites, chosenCareSiteId),
  };
}

/** The chosen care site when the actor still holds it, else the first (by name), else none. */
function currentOf(sites: readonly ActorSite[], chosen: string | null | undefined) {
  return sites.find((s) => s.careSiteId === chosen)?.careSiteId ?? sites[0]?.careSiteId ?? null;
}

// ---------------------------------------------------------------------------------------------
// Care sites
// ---------------------------------------------------------------------------------------------

/** Care sites the actor may read: all for provider admins, their active member sites otherwise. */
export function careSitesReadableBy(actor: Actor): Prisma.CareSiteWhereInput {
  if (isGlobal(actor)) return {};
  return memberCareSites(actor);
}

/**
 * The care sites of the care site staff screens (dashboard, care site management, notification
 * settings and summary): the actor's member sites, optionally where their role is one of
 * `roles`. Provider admins have no member sites (they have their own screens).
 */
export function memberCareSites(
  actor: Actor,
  roles?: readonly string[],
): Prisma.CareSiteWhereInput {
  const ids = siteIds(actor, roles);
  return ids.length ? { id: { in: ids }, status: "active" } : NOTHING;
}

/** Care sites whose details and picture the actor may change: a clinicadmin's own, or any for provider admins. */
export function careSitesEditableBy(actor: Actor): Prisma.CareSiteWhereInput {
  if (isGlobal(actor)) return {};
  if (actor.role !== "clinicadmin") return NOTHING;
  return memberCareSites(actor, ["clinicadmin"]);
}

/** The Care Site Profile page (and its admins card): the provider's admins, every care site. */
export function careSiteProfilesReadableBy(actor: Actor): Prisma.CareSiteWhereInput {
  return isGlobal(actor) ? {} : NOTHING;
}

/** Adding a care site, and the administrators' lists of every care site and person. */
export function mayAdministerAllCareSites(actor: Actor) {
  return isGlobal(actor);
}

// ---------------------------------------------------------------------------------------------
// Patients (and, through them, their devices, pairings and therapy data)
// ---------------------------------------------------------------------------------------------

/**
 * The patient memberships through which the actor reaches patients: accepted patient memberships
 * of patient accounts, at any care site for provider admins, at the actor's member sites otherwise.
 * One row per patient and care site (the Patients search, the care site a profile is seen through).
 */
export function patientPlacesReadableBy(actor: Actor): Prisma.MembershipWhereInput {
  const patient = { role: "patient", status: "accepted", user: { role: "patient" } };
  if (isGlobal(actor)) return patient;
  const ids = siteIds(actor);
  return ids.length
    ? { ...patient, careSiteId: { in: ids }, careSite: { status: "active" } }
    : NOTHING;
}

/** Patients the actor may read: their profile, therapy data, goals, notes, device and pairings. */
export function patientsReadableBy(actor: Actor): Prisma.UserWhereInput {
  if (isGlobal(actor)) return { role: "patient" };
  if (siteIds(actor).length === 0) return NOTHING;
  return { role: "patient", memberships: { some: patientPlacesReadableBy(actor) } };
}

/**
 * Patients the actor may change (Patient Id, account status, notes, therapy goals): the ones they
 * may read. Pairing devices has its own rule (section "Devices and pairings").
 */
export function patientsEditableBy(actor: Actor): Prisma.UserWhereInput {
  return patientsReadableBy(actor);
}

/**
 * The accepted patients of one care site (the daily summary's people, the dashboard's). No actor:
 * the caller got `careSiteId` from a fragment above, or is a job.
 */
export function patientsOf(careSiteId: string): Prisma.UserWhereInput {
  return {
    role: "patient",
    memberships: { some: { careSiteId, role: "patient", status: "accepted" } },
  };
}

/** Patients' current places, for a list of patients the caller already reached. */
export function currentPatientPlaces(patientIds: string[]): Prisma.MembershipWhereInput {
  return currentMembership({ userId: { in: patientIds }, role: "patient" });
}

// ---------------------------------------------------------------------------------------------
// Staff and other users
// ---------------------------------------------------------------------------------------------

/**
 * Users whose read-only profile (/app/userinfo) the actor may open: anyone for provider admins;
 * otherwise themselves and users with an accepted membership at one of the actor's member sites.
 */
export function usersVisibleTo(actor: Actor): Prisma.UserWhereInput {
  if (isGlobal(actor)) return {};
  const ids = siteIds(actor);
  if (ids.length === 0) return { id: actor.id };
  return {
    OR: [
      { id: actor.id },
      { memberships: { some: { status: "accepted", careSiteId: { in: ids } } } },
    ],
  };
}

/**
 * The accepted memberships (patients, clinicians, care site admins) listed on the care site
 * screens: at one of the actor's member sites (`careSiteId`, or any of them).
 */
export function enrolmentsReadableBy(
  actor: Actor,
  careSiteId?: string,
): Prisma.MembershipWhereInput {
  const ids = siteIds(actor);
  if (careSiteId !== undefined && !ids.includes(careSiteId)) return NOTHING;
  if (ids.length === 0) return NOTHING;
  return currentMembership({ careSiteId: careSiteId ?? { in: ids } });
}

/**
 * Who may remove (withdraw) whom at a care site, by the actor's role there: a care site admin
 * removes anyone; a clinician removes patients only (the roles each may invite, spec 2 §5);
 * nobody removes themselves; nobody outside the care site removes anyone.
 */
export function mayWithdraw(
  actor: Actor,
  careSiteId: string,
  target: { userId: string; role: string },
) {
  const siteRole = siteRoleAt(actor, careSiteId);
  if (!siteRole || target.userId === actor.id) return false;
  if (actor.role === "clinicadmin" && siteRole === "clinicadmin") return true;
  return actor.role === "clinician" && siteRole === "clinician" && target.role === "patient";
}

/** The administrators' active care site admins of a care site (Care Site Profile). */
export function careSiteAdminsReadableBy(
  actor: Actor,
  careSiteId: string,
): Prisma.MembershipWhereInput {
  if (!isGlobal(actor)) return NOTHING;
  return { careSiteId, role: "clinicadmin", status: "accepted", user: { status: "active" } };
}

// ---------------------------------------------------------------------------------------------
// Invitations (spec 2 §4, §5; issue 18 item 3)
// ---------------------------------------------------------------------------------------------

/**
 * The roles the actor may invite at a care site: by their role there for care site staff (a
 * clinicadmin: clinicadmin, clinician, patient; a clinician: patient), by their own role for
 * provider admins (any care site, and an ABM admin without one for the super admin).
 */
export function rolesInvitableAt(actor: Actor, careSiteId: string | null): string[] {
  if (isGlobal(actor)) {
    const roles = roleOptionsForNewEmail(actor.role);
    return careSiteId === null
      ? roles.filter((r) => r === "abmadmin")
      : roles.filter((r) => r !== "abmadmin");
  }
  const siteRole = siteRoleAt(actor, careSiteId);
  return siteRole ? roleOptionsForNewEmail(siteRole) : [];
}

/**
 * Care sites the actor may invite to (optionally: for `role`): every active one for provider
 * admins; for care site staff, their member sites where their role there may invite it.
 */
export function careSitesInvitableBy(actor: Actor, role?: string): Prisma.CareSiteWhereInput {
  if (isGlobal(actor)) return { status: "active" };
  const ids = actor.sites
    .filter((s) => {
      const roles = rolesInvitableAt(actor, s.careSiteId);
      return role === undefined ? roles.length > 0 : roles.includes(role);
    })
    .map((s) => s.careSiteId);
  return isSiteRole(actor.role) && ids.length ? { id: { in: ids }, status: "active" } : NOTHING;
}

/**
 * The invitations the actor sent and still holds the power over (the Sent list, its count, and
 * Resend, Remove and Revoke): provider admins, all they sent; care site staff, those for a care
 * site where they are still a member whose role there may invite the invitation's role. A member
 * removed from a care site (or whose care site was deactivated) no longer sees or acts on what
 * they sent for it.
 */
export function invitationsSentBy(actor: Actor): Prisma.InvitationWhereInput {
  if (isGlobal(actor)) return { invitedById: actor.id };
  if (!isSiteRole(actor.role) || actor.sites.length === 0) return NOTHING;
  return {
    invitedById: actor.id,
    careSite: { status: "active" },
    OR: actor.sites.map((s) => ({
      careSiteId: s.careSiteId,
      role: { in: rolesInvitableAt(actor, s.careSiteId) },
    })),
  };
}

/**
 * Care sites an invitation to `email` may still be sent for: the invitee holds no accepted or
 * pending membership there, and has no open invitation (pending or resend, not yet expired: an
 * expired one can no longer be accepted, so a new invitation may replace it).
 */
export function careSitesOpenToInvitee(email: string, now: Date): Prisma.CareSiteWhereInput {
  return {
    memberships: { none: { user: { email }, status: { in: ["accepted", "pending"] } } },
    invitations: {
      none: { email, status: { in: [...OPEN_INVITATION_STATUSES] }, expiresAt: { gt: now } },
    },
  };
}

/** The invitations addressed to the actor (the Received list, Accept, Reject, Deactivate, Reactivate). */
export function invitationsReceivedBy(actor: Actor): Prisma.InvitationWhereInput {
  const email = actor.email.trim().toLowerCase();
  return email ? { email } : NOTHING;
}

// ---------------------------------------------------------------------------------------------
// Conversations (staff messaging, docs/decisions.md "Contacts")
// ---------------------------------------------------------------------------------------------

/** Care site staff memberships that count for messaging: clinicadmin or clinician, current. */
const staffPlace = (where: Omit<Prisma.MembershipWhereInput, "status" | "careSite"> = {}) =>
  currentMembership({ role: { in: [...SITE_ROLES] }, ...where });

/**
 * The users the actor may talk with ("accepted sharing", both ways): care site staff who share a
 * member site with the actor; the provider's staff with every current care site admin and with
 * each other; a care site admin also with the provider's staff. Active accounts, never oneself.
 */
export function contactsOf(actor: Actor): Prisma.UserWhereInput {
  const others = { id: { not: actor.id }, status: "active" };
  if (isGlobal(actor)) {
    const careSiteAdmin: Prisma.UserWhereInput = {
      role: { in: [...SITE_ROLES] },
      memberships: { some: staffPlace({ role: "clinicadmin" }) },
    };
    return { ...others, OR: [{ role: { in: [...PROVIDER_ROLES] } }, careSiteAdmin] };
  }
  const ids = siteIds(actor);
  if (ids.length === 0) return NOTHING;
  const sharesASite: Prisma.UserWhereInput = {
    role: { in: [...SITE_ROLES] },
    memberships: { some: staffPlace({ careSiteId: { in: ids } }) },
  };
  const adminSomewhere = siteIds(actor, ["clinicadmin"]).length > 0;
  return {
    ...others,
    OR: adminSomewhere ? [sharesASite, { role: { in: [...PROVIDER_ROLES] } }] : [sharesASite],
  };
}

/** Conversations the actor takes part in (reading them; posting needs a contact among the others). */
export function dialogsOf(actor: Actor): Prisma.ChatDialogWhereInput {
  return { participants: { some: { userId: actor.id } } };
}

// ---------------------------------------------------------------------------------------------
// Photos and care site pictures
// ---------------------------------------------------------------------------------------------

/**
 * The stored photos the actor may see: their own always; for staff, every staff member's photo,
 * and patients' photos and care site pictures of the actor's member sites (all of them for
 * provider admins). Anyone else sees only their own.
 */
export function photosViewableBy(actor: Actor): Prisma.UploadWhereInput {
  const own: Prisma.UploadWhereInput[] = [
    { kind: "photo", ownerId: actor.id },
    { userPhotos: { some: { id: actor.id } } },
  ];
  if (!isGlobal(actor) && !isSiteRole(actor.role)) return { OR: own };
  const staff = { role: { in: [...PROVIDER_ROLES, ...SITE_ROLES] } };
  return {
    kind: { in: ["photo", "caresite"] },
    OR: [
      ...own,
      { userPhotos: { some: staff } },
      { userPhotos: { some: patientsReadableBy(actor) } },
      { careSitePhotos: { some: careSitesReadableBy(actor) } },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Notifications: settings and the daily summary screens
// ---------------------------------------------------------------------------------------------

/** Care sites whose notification settings and summaries the actor may read: their member sites. */
export function notificationsReadableBy(actor: Actor): Prisma.CareSiteWhereInput {
  return memberCareSites(actor);
}

/**
 * Care sites whose notification settings (days, thresholds, and the daily summary's recipients)
 * the actor may change: those where they are a clinicadmin (a clinician's page is read-only).
 */
export function notificationsEditableBy(actor: Actor): Prisma.CareSiteWhereInput {
  if (actor.role !== "clinicadmin") return NOTHING;
  return memberCareSites(actor, ["clinicadmin"]);
}

// ---------------------------------------------------------------------------------------------
// Help Center
// ---------------------------------------------------------------------------------------------

/** Care site staff write to Customer Service (spec 3 §2.11), members of a care site or not. */
export function mayAskForHelp(actor: Actor) {
  return isSiteRole(actor.role);
}

// ---------------------------------------------------------------------------------------------
// Devices and pairings
// ---------------------------------------------------------------------------------------------
//
// A pairing belongs to the care site it was made in (Pairing.careSiteId); when that is unknown
// (null: its care site was deleted, or the row predates the column) it belongs to the care sites
// where its patient is an accepted patient. Care site staff (clinicadmin, clinician) pair and
// unpair devices at their own care sites only; provider admins see pairings but never change them.
//
// Pairing a device into care site S (the care site the patient's profile is seen through) is
// allowed when the device has no open pairing, or when its open pairing is inside S (a move
// between two patients of S, which the page confirms first). An open pairing anywhere else keeps
// the device out of S's reach entirely: to S's staff such a serial looks exactly like an unknown
// one (devicesPairableBy matches neither), so no serial of another care site can be found out.
//
// "Outside S" is spelled out branch by branch rather than as NOT(inside S): `careSiteId` is
// nullable, and a negated comparison with NULL is neither true nor false in SQL, so a NOT around
// the "inside" fragment would silently let through a null-site pairing of a patient elsewhere.

const PAIRING_ROLES = ["clinicadmin", "clinician"] as const;

/** Care sites where the actor pairs and unpairs devices: their own, as care site staff. */
function pairingSiteIds(actor: Actor) {
  return siteIds(actor, PAIRING_ROLES);
}

/** Whether the actor may pair devices with patients of care site `careSiteId`. */
export function mayPairAt(actor: Actor, careSiteId: string | null | undefined) {
  return !!careSiteId && pairingSiteIds(actor).includes(careSiteId);
}

/** Pairings inside one of `careSiteIds`: made there, or with no care site and a patient there. */
export function pairingsInside(careSiteIds: readonly string[]): Prisma.PairingWhereInput {
  if (careSiteIds.length === 0) return NOTHING;
  const ids = [...careSiteIds];
  return {
    OR: [
      { careSiteId: { in: ids } },
      {
        careSiteId: null,
        patient: {
          memberships: {
            some: { careSiteId: { in: ids }, role: "patient", status: "accepted" },
          },
        },
      },
    ],
  };
}

/** Pairings outside care site S: made elsewhere, or with no care site and a patient not at S. */
function pairingsOutside(careSiteId: string): Prisma.PairingWhereInput {
  return {
    OR: [
      // SQL's `careSiteId <> S` is not true for NULL: the null rows are the second branch's.
      { careSiteId: { not: careSiteId } },
      {
        careSiteId: null,
        patient: { memberships: { none: { careSiteId, role: "patient", status: "accepted" } } },
      },
    ],
  };
}

/**
 * Devices the actor may pair with a patient of care site `careSiteId`: none unless they are staff
 * there; then a device with no open pairing, or whose open pairing is inside that care site.
 */
export function devicesPairableBy(actor: Actor, careSiteId: string): Prisma.DeviceWhereInput {
  if (!mayPairAt(actor, careSiteId)) return NOTHING;
  return { pairings: { none: { unpairedAt: null, ...pairingsOutside(careSiteId) } } };
}

/**
 * Open pairings the actor may end by pairing their device into care site `careSiteId` (a move
 * between two patients of that care site, confirmed first): the open pairings inside it.
 */
export function pairingsMovableBy(actor: Actor, careSiteId: string): Prisma.PairingWhereInput {
  if (!mayPairAt(actor, careSiteId)) return NOTHING;
  return { unpairedAt: null, ...pairingsInside([careSiteId]) };
}

/**
 * Pairings the actor may end (unpair, or replace by pairing the patient with another device):
 * those inside a care site where they are staff.
 */
export function pairingsEndableBy(actor: Actor): Prisma.PairingWhereInput {
  return pairingsInside(pairingSiteIds(actor));
}
