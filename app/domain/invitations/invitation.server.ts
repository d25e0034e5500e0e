// Invitations (spec 2 §2-§5, §7; DESIGN.md §5): sending, the Sent and Received lists, and the
// status changes of the §4 table. Every function takes the Actor and scopes inside the Prisma
// `where` with the access module's fragments (domain/access.server.ts: careSitesInvitableBy,
// invitationsSentBy, invitationsReceivedBy), so a route cannot forget it. The sender's powers
// follow their membership: a sender removed from a care site no longer sees or acts on what they
// sent for it. The state machine is pure, in domain/invitations/rules.ts; the link's token is in
// invitationToken.server.ts.
//
// Invitation and Membership both have a status (docs/decisions.md): Membership decides access,
// the invitation carries the state machine; a transition changes both in one transaction, with
// its audit event.
import crypto from "node:crypto";
import {
  careSitesInvitableBy,
  careSitesOpenToInvitee,
  currentMembership,
  invitationsReceivedBy,
  invitationsSentBy,
  type Actor,
} from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { audit } from "~/domain/audit.server";
import {
  availableActions,
  INVITATION_PAGE_SIZE,
  invitationMessages,
  isInvitationAction,
  needsCareSite,
  OPEN_INVITATION_STATUSES,
  RECEIVED_SORT_KEYS,
  roleOptionsForExistingUser,
  roleOptionsForNewEmail,
  SENT_SORT_KEYS,
  sideOfAction,
  transition,
  type InvitationAction,
  type InvitationSide,
  type InvitationStatus,
  type SortOrder,
} from "~/domain/invitations/rules";
import { enqueue } from "~/lib/outbox.server";
import { ROLE_NAMES, ROLES, type Role } from "~/domain/roles";
import { INVITATION_TTL_MS, newInvitationToken } from "~/domain/invitations/token.server";
import { EMAIL_REGEX } from "~/lib/validation";

type Db = Prisma.TransactionClient;

/** The signed-in user acting on invitations: their Actor (the email is whose invitations they receive). */
export type InvitationActor = Actor;

const OPEN = [...OPEN_INVITATION_STATUSES];

function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

/** Pending invitations the user has received and can still accept (the Invitations badge). */
export function countPendingInvitations(email: string, now = new Date()) {
  return prisma.invitation.count({
    where: {
      email: email.toLowerCase(),
      status: { in: OPEN },
      expiresAt: { gt: now },
    },
  });
}

/** The role of the account with this email, or null ("User not found" in the dialog). */
export async function findRoleByEmail(email: string): Promise<string | null> {
  const user = await prisma.user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { role: true },
  });
  return user?.role ?? null;
}

/**
 * The dialog's role step for an email (after Next): the existing account's role, if any, and the
 * roles the actor may choose, or the spec's message when there is none.
 */
export async function invitationRoleOptions(
  actor: InvitationActor,
  email: string,
): Promise<{ existingRole: string | null; options: Role[]; message?: string }> {
  const existingRole = await findRoleByEmail(email);
  if (existingRole === null) return { existingRole, options: roleOptionsForNewEmail(actor.role) };
  return { existingRole, ...roleOptionsForExistingUser(actor.role, existingRole) };
}

// ---------------------------------------------------------------------------------------------
// Care sites one may invite to
// ---------------------------------------------------------------------------------------------

const careSiteOptionSelect = { id: true, name: true, city: true, state: true, zip: true } as const;

export type InvitableCareSite = {
  id: string;
  name: string;
  city: string;
  state: string;
  zip: string;
};

/**
 * Care sites where the actor may invite this email (for `role`, when chosen): theirs to invite to
 * (access.server.ts careSitesInvitableBy) and not already the invitee's (careSitesOpenToInvitee).
 */
async function careSitesOpenTo(
  db: Db,
  actor: InvitationActor,
  email: string,
  now: Date,
  role?: string,
): Promise<InvitableCareSite[]> {
  return db.careSite.findMany({
    where: { AND: [careSitesInvitableBy(actor, role), careSitesOpenToInvitee(email, now)] },
    select: careSiteOptionSelect,
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
}

/**
 * The care-site table of the dialog: where the actor may invite this email (as `role`, once
 * chosen), sorted by name.
 */
export function invitableCareSites(actor: InvitationActor, inviteeEmail: string, role?: string) {
  return careSitesOpenTo(prisma, actor, normalizeEmail(inviteeEmail), new Date(), role);
}

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

export type SendInvitationsInput = { email: string; role: string; careSiteIds: string[] };
export type SendInvitationsResult = { ok: true; count: number } | { ok: false; message: string };

type Created = { id: string; token: string; careSiteName: string | null };

/**
 * Sends one invitation per chosen care site (one without a care site for an ABM admin), each with
 * its own link, in one transaction: either every invitation is created or none. Refusals are the
 * dialog's rules (domain/invitations/rules.ts) checked again here, so a forged form gets the same answer.
 * The emails are queued after the commit.
 */
export async function sendInvitations(
  actor: InvitationActor,
  input: SendInvitationsInput,
  options: { ip?: string | null } = {},
): Promise<SendInvitationsResult> {
  const email = normalizeEmail(input.email);
  if (email.length > 254 || !EMAIL_REGEX.test(email)) {
    return { ok: false, message: invitationMessages.invalidEmail };
  }
  const role = input.role.trim().toLowerCase();
  const careSiteIds = [...new Set(input.careSiteIds)];

  type Outcome =
    | { ok: false; message: string }
    | { ok: true; created: Created[]; inviterName: string; existingAccount: boolean };
  const outcome = await readWriteTransaction(async (tx): Promise<Outcome> => {
    const now = new Date();
    const existing = await tx.user.findUnique({ where: { email }, select: { role: true } });
    const allowed = existing
      ? roleOptionsForExistingUser(actor.role, existing.role)
      : { options: roleOptionsForNewEmail(actor.role), message: undefined };
    if (!(allowed.options as string[]).includes(role)) {
      return { ok: false, message: allowed.message ?? invitationMessages.roleNotAllowed };
    }

    let sites: ({ id: string; name: string } | null)[];
    if (needsCareSite(role)) {
      const open = await careSitesOpenTo(tx, actor, email, now, role);
      if (open.length === 0) return { ok: false, message: invitationMessages.noCareSitesToInvite };
      if (careSiteIds.length === 0)
        return { ok: false, message: invitationMessages.careSiteRequired };
      const byId = new Map(open.map((site) => [site.id, site]));
      if (!careSiteIds.every((id) => byId.has(id))) {
        return { ok: false, message: invitationMessages.careSiteNotAvailable };
      }
      sites = careSiteIds.map((id) => byId.get(id)!);
    } else {
      // An ABM admin invitation has no care site; the chosen care sites (if any) do not apply.
      const waiting = await tx.invitation.count({
        where: { email, careSiteId: null, status: { in: OPEN }, expiresAt: { gt: now } },
      });
      if (waiting > 0) return { ok: false, message: invitationMessages.alreadyInvited };
      sites = [null];
    }

    const inviter = await tx.user.findUniqueOrThrow({
      where: { id: actor.id },
      select: { firstName: true, lastName: true },
    });
    const created: Created[] = [];
    for (const site of sites) {
      // The token names the invitation's id, so the row exists before its token does.
      const row = await tx.invitation.create({
        data: {
          email,
          role,
          careSiteId: site?.id ?? null,
          invitedById: actor.id,
          status: "pending",
          tokenHash: `unset:${crypto.randomBytes(16).toString("hex")}`,
          expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        },
        select: { id: true },
      });
      const { token, tokenHash, expiresAt } = newInvitationToken(row.id);
      await tx.invitation.update({ where: { id: row.id }, data: { tokenHash, expiresAt } });
      await recordEvent(tx, {
        actorId: actor.id,
        action: "invitation.sent",
        invitationId: row.id,
        careSiteId: site?.id ?? null,
        ip: options.ip,
        detail: { email, role },
      });
      created.push({ id: row.id, token, careSiteName: site?.name ?? null });
    }
    return {
      ok: true,
      created,
      inviterName: `${inviter.firstName} ${inviter.lastName}`,
      existingAccount: existing !== null,
    };
  });
  if (!outcome.ok) return outcome;

  for (const invitation of outcome.created) {
    await enqueue(
      invitationEmail({
        to: email,
        role,
        inviterName: outcome.inviterName,
        careSiteName: invitation.careSiteName,
        token: invitation.token,
        existingAccount: outcome.existingAccount,
      }),
    );
  }
  return { ok: true, count: outcome.created.length };
}

/** The link a new user registers from; an existing account is told there to sign in. */
export function invitationLink(token: string) {
  return `${env.publicUrl}/acceptinvite?param1=${encodeURIComponent(token)}`;
}

function invitationEmail(i: {
  to: string;
  role: string;
  inviterName: string;
  careSiteName: string | null;
  token: string;
  existingAccount: boolean;
}) {
  const link = invitationLink(i.token);
  const place = i.careSiteName ? ` at the care site ${i.careSiteName}` : "";
  const lines = [
    "Hello,",
    "",
    `${i.inviterName} invited you to ARC Connect as ${ROLE_NAMES[i.role] ?? i.role}${place}.`,
    "",
    i.existingAccount
      ? `You already have an ARC Connect account. Sign in and accept it under Invitations: ${link}`
      : `Accept the invitation and create your account here: ${link}`,
    "",
    "The invitation is valid for 7 days. If you did not expect it, ignore this email.",
  ];
  return {
    channel: "email" as const,
    to: i.to,
    subject: "You are invited to ARC Connect",
    body: lines.join("\n"),
  };
}

// ---------------------------------------------------------------------------------------------
// Lists (page size 10; sorting, searching and scoping in the database)
// ---------------------------------------------------------------------------------------------

export type InvitationListInput = {
  /** 1-based */
  page?: number;
  sort?: string;
  order?: string;
  q?: string;
};

export type SentInvitationRow = {
  id: string;
  email: string;
  role: string;
  status: string;
  careSiteId: string | null;
  careSiteName: string | null;
  /** the invitee's account, when one exists with this email (profile_id of the spec) */
  inviteeUserId: string | null;
  /** clinic_user_id of the spec, once the invitation stands for a membership */
  membershipId: string | null;
  expiresAt: Date;
  expired: boolean;
  createdAt: Date;
  actions: InvitationAction[];
};

export type ReceivedInvitationRow = {
  id: string;
  role: string;
  status: string;
  careSiteId: string | null;
  /** null for an ABM admin invitation (the screen shows SuperAdmin for abmadmin) */
  careSiteName: string | null;
  senderName: string;
  senderRole: string;
  expiresAt: Date;
  expired: boolean;
  createdAt: Date;
  actions: InvitationAction[];
};

function pageOf(page: number | undefined) {
  const n = Math.floor(Number(page));
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

function orderOf(order: string | undefined): SortOrder {
  return order === "desc" ? "desc" : "asc";
}

function searchText(q: string | undefined) {
  return (q ?? "").trim().slice(0, 100);
}

/** Roles whose code or display name contains the search text ("care site" finds clinicadmin). */
function rolesMatching(q: string): Role[] {
  const needle = q.toLowerCase();
  return ROLES.filter(
    (role) => role.includes(needle) || (ROLE_NAMES[role] ?? "").toLowerCase().includes(needle),
  );
}

// Ties sort newest first, then by id, so paging is stable.
const TIEBREAK: Prisma.InvitationOrderByWithRelationInput[] = [
  { createdAt: "desc" },
  { id: "asc" },
];

function sortBy(key: string, order: SortOrder): Prisma.InvitationOrderByWithRelationInput {
  switch (key) {
    case "careSiteName":
      return { careSite: { name: order } };
    case "role":
      return { role: order };
    case "status":
      return { status: order };
    default:
      return { email: order };
  }
}

/** One page of a list of invitations (sorted by a known key, else `defaultSort`) and its total. */
function invitationPage<S extends Prisma.InvitationSelect>(
  where: Prisma.InvitationWhereInput,
  input: InvitationListInput,
  sortKeys: readonly string[],
  defaultSort: string,
  select: S,
) {
  const key = sortKeys.includes(input.sort ?? "") ? input.sort! : defaultSort;
  const page = pageOf(input.page);
  return Promise.all([
    prisma.invitation.findMany({
      where,
      orderBy: [sortBy(key, orderOf(input.order)), ...TIEBREAK],
      skip: (page - 1) * INVITATION_PAGE_SIZE,
      take: INVITATION_PAGE_SIZE,
      select,
    }),
    prisma.invitation.count({ where }),
  ]);
}

/**
 * The actor's Sent invitations (access.server.ts invitationsSentBy: only those for care sites where
 * they still may invite). Search: email, role, care site name, status. Default sort email asc.
 */
export async function listSentInvitations(
  actor: InvitationActor,
  input: InvitationListInput = {},
): Promise<{ rows: SentInvitationRow[]; total: number }> {
  const q = searchText(input.q);
  const where: Prisma.InvitationWhereInput = {
    AND: [invitationsSentBy(actor)],
    ...(q
      ? {
          OR: [
            { email: { contains: q } },
            { role: { in: rolesMatching(q) } },
            { careSite: { name: { contains: q } } },
            { status: { contains: q } },
          ],
        }
      : {}),
  };
  const [found, total] = await invitationPage(where, input, SENT_SORT_KEYS, "email", {
    id: true,
    email: true,
    role: true,
    status: true,
    careSiteId: true,
    membershipId: true,
    expiresAt: true,
    createdAt: true,
    careSite: { select: { name: true } },
  });
  const accounts = await prisma.user.findMany({
    where: { email: { in: [...new Set(found.map((row) => row.email))] } },
    select: { id: true, email: true },
  });
  const userIdByEmail = new Map(accounts.map((user) => [user.email, user.id]));
  const now = Date.now();
  return {
    total,
    rows: found.map(({ careSite, ...row }) => ({
      ...row,
      careSiteName: careSite?.name ?? null,
      inviteeUserId: userIdByEmail.get(row.email) ?? null,
      expired: row.expiresAt.getTime() <= now,
      actions: availableActions("sent", row.status, { pausedByInvitee: false }),
    })),
  };
}

/** Invitations to the actor's email. Search: care site name, sender name, status. Default sort care site name asc. */
export async function listReceivedInvitations(
  actor: InvitationActor,
  input: InvitationListInput = {},
): Promise<{ rows: ReceivedInvitationRow[]; total: number }> {
  const q = searchText(input.q);
  const where: Prisma.InvitationWhereInput = {
    AND: [invitationsReceivedBy(actor)],
    ...(q
      ? {
          OR: [
            { careSite: { name: { contains: q } } },
            { invitedBy: { firstName: { contains: q } } },
            { invitedBy: { lastName: { contains: q } } },
            { status: { contains: q } },
          ],
        }
      : {}),
  };
  const [found, total] = await invitationPage(where, input, RECEIVED_SORT_KEYS, "careSiteName", {
    id: true,
    role: true,
    status: true,
    careSiteId: true,
    expiresAt: true,
    createdAt: true,
    careSite: { select: { name: true } },
    invitedBy: { select: { firstName: true, lastName: true, role: true } },
  });
  const paused = await pausedByInvitee(
    prisma,
    found.filter((row) => row.status === "blocked").map((row) => row.id),
  );
  const now = Date.now();
  return {
    total,
    rows: found.map(({ careSite, invitedBy, ...row }) => ({
      ...row,
      careSiteName: careSite?.name ?? null,
      senderName: `${invitedBy.firstName} ${invitedBy.lastName}`,
      senderRole: invitedBy.role,
      expired: row.expiresAt.getTime() <= now,
      actions: availableActions("received", row.status, { pausedByInvitee: paused.has(row.id) }),
    })),
  };
}

/** The numbers on the Sent and Received cards. */
export async function countInvitations(actor: InvitationActor) {
  const [sent, received] = await Promise.all([
    prisma.invitation.count({ where: invitationsSentBy(actor) }),
    prisma.invitation.count({ where: invitationsReceivedBy(actor) }),
  ]);
  return { sent, received };
}

export type InvitationDetail = {
  id: string;
  /** the actor's side: "sent" when the actor sent it, "received" when it is to the actor's email */
  side: InvitationSide;
  email: string;
  role: string;
  status: string;
  careSiteId: string | null;
  careSiteName: string | null;
  senderName: string;
  expiresAt: Date;
  expired: boolean;
  actions: InvitationAction[];
};

/**
 * One invitation the actor sent or received (for a confirmation dialog addressed by URL), or null
 * when it is neither (the route answers 404).
 */
export async function getInvitation(
  actor: InvitationActor,
  invitationId: string,
): Promise<InvitationDetail | null> {
  const select = {
    id: true,
    email: true,
    role: true,
    status: true,
    careSiteId: true,
    expiresAt: true,
    careSite: { select: { name: true } },
    invitedBy: { select: { firstName: true, lastName: true } },
  } as const;
  const sent = await prisma.invitation.findFirst({
    where: { AND: [{ id: invitationId }, invitationsSentBy(actor)] },
    select,
  });
  const row =
    sent ??
    (await prisma.invitation.findFirst({
      where: { AND: [{ id: invitationId }, invitationsReceivedBy(actor)] },
      select,
    }));
  if (!row) return null;
  const side: InvitationSide = sent ? "sent" : "received";
  const paused =
    side === "received" && row.status === "blocked"
      ? (await pausedByInvitee(prisma, [row.id])).has(row.id)
      : false;
  return {
    id: row.id,
    side,
    email: row.email,
    role: row.role,
    status: row.status,
    careSiteId: row.careSiteId,
    careSiteName: row.careSite?.name ?? null,
    senderName: `${row.invitedBy.firstName} ${row.invitedBy.lastName}`,
    expiresAt: row.expiresAt,
    expired: row.expiresAt.getTime() <= Date.now(),
    actions: availableActions(side, row.status, { pausedByInvitee: paused }),
  };
}

// ---------------------------------------------------------------------------------------------
// Status changes (spec 2 §4)
// ---------------------------------------------------------------------------------------------

export type InvitationActionResult =
  | { ok: true; status: InvitationStatus; command?: "UPDATE" }
  | { ok: false; notFound: true }
  | { ok: false; notFound?: false; message: string };

/**
 * How the invitee's membership at the care site follows a transition, when it exists and is in
 * one of the `from` statuses. Accept and reactivate make it (upsert); the others never create one.
 * Remove and reject end a pending membership so that the care site can be offered again; resend
 * reopens a rejected one.
 */
const MEMBERSHIP_FOLLOWS: Partial<Record<InvitationAction, { from: string[]; to: string }>> = {
  resend: { from: ["rejected"], to: "pending" },
  remove: { from: ["pending"], to: "blocked" },
  reject: { from: ["pending"], to: "rejected" },
  revoke: { from: ["accepted"], to: "blocked" },
  deactivate: { from: ["accepted"], to: "blocked" },
};

/**
 * Applies one action of the §4 table. Sent-side actions (resend, remove, revoke) belong to the
 * invitation's sender only, and only while they may still invite that role at its care site
 * (access.server.ts invitationsSentBy; a global role for an invitation without one);
 * received-side ones (accept, reject, deactivate, reactivate) to the invitee only (the
 * invitation's email is the actor's): anyone else gets `notFound`, as if the invitation did not
 * exist.
 *
 * Reactivate undoes only the invitee's own Deactivate: an invitation the sender revoked or
 * withdrew (also "blocked") stays blocked, or a revoke would not end access. The schema has no
 * column for who blocked it; the invitation's audit trail, written in the same transaction as
 * every transition, tells (see pausedByInvitee).
 *
 * command "UPDATE" (the spec's isAssociatedClinic flip): returned when the transition changed
 * whether the invitee holds at least one accepted membership at an active care site, i.e. they
 * just got their first one (accept, reactivate) or just lost their last one (revoke, deactivate).
 * It concerns the invitee; for a sender's revoke it says the invitee's menu changes, not the
 * sender's.
 */
export async function applyInvitationAction(
  actor: InvitationActor,
  invitationId: string,
  action: InvitationAction,
  options: { ip?: string | null } = {},
): Promise<InvitationActionResult> {
  if (!isInvitationAction(action))
    return { ok: false, message: invitationMessages.actionNotAvailable };
  const side = sideOfAction(action);

  type Outcome =
    | Exclude<InvitationActionResult, { ok: true }>
    | {
        ok: true;
        status: InvitationStatus;
        command?: "UPDATE";
        resent: Parameters<typeof invitationEmail>[0] | null;
      };
  const outcome = await readWriteTransaction(async (tx): Promise<Outcome> => {
    const now = new Date();
    const invitation = await tx.invitation.findFirst({
      where: {
        AND: [
          { id: invitationId },
          side === "sent" ? invitationsSentBy(actor) : invitationsReceivedBy(actor),
        ],
      },
      select: {
        id: true,
        email: true,
        role: true,
        status: true,
        careSiteId: true,
        expiresAt: true,
        careSite: { select: { name: true } },
        invitedBy: { select: { firstName: true, lastName: true } },
      },
    });
    if (!invitation) return { ok: false, notFound: true };
    const next = transition(side, invitation.status, action);
    const refuse = (message: string): Outcome => ({ ok: false, message });
    if (!next) return refuse(invitationMessages.actionNotAvailable);
    if (action === "reactivate" && !(await pausedByInvitee(tx, [invitation.id])).has(invitation.id))
      return refuse(invitationMessages.actionNotAvailable);
    if (action === "accept" && invitation.expiresAt <= now)
      return refuse(invitationMessages.linkExpired);

    const invitee = await tx.user.findUnique({
      where: { email: invitation.email },
      select: { id: true, role: true },
    });
    if (side === "received" && !invitee) return { ok: false, notFound: true };
    if (action === "accept" && invitee!.role !== invitation.role)
      return refuse(invitationMessages.roleMismatch);

    const data: Prisma.InvitationUpdateInput = { status: next };
    let resentToken: string | null = null;
    if (action === "resend") {
      const issued = newInvitationToken(invitation.id);
      resentToken = issued.token;
      data.tokenHash = issued.tokenHash;
      data.expiresAt = issued.expiresAt;
    }

    const siteId = invitation.careSiteId;
    const tracksAccess = invitee !== null && siteId !== null;
    const before = tracksAccess ? await isAssociated(tx, invitee.id) : false;
    if (tracksAccess) {
      const membershipId = await moveMembership(tx, action, {
        careSiteId: siteId,
        userId: invitee.id,
        role: invitation.role,
        now,
      });
      if (membershipId) data.membership = { connect: { id: membershipId } };
    }
    await tx.invitation.update({ where: { id: invitation.id }, data, select: { id: true } });
    await recordEvent(tx, {
      actorId: actor.id,
      action: `invitation.${action}`,
      invitationId: invitation.id,
      careSiteId: siteId,
      ip: options.ip,
      detail: { from: invitation.status, to: next, email: invitation.email },
    });
    const after = tracksAccess ? await isAssociated(tx, invitee.id) : false;
    return {
      ok: true,
      status: next,
      ...(before !== after ? { command: "UPDATE" as const } : {}),
      resent: resentToken
        ? {
            to: invitation.email,
            role: invitation.role,
            inviterName: `${invitation.invitedBy.firstName} ${invitation.invitedBy.lastName}`,
            careSiteName: invitation.careSite?.name ?? null,
            token: resentToken,
            existingAccount: invitee !== null,
          }
        : null,
    };
  });
  if (!outcome.ok) return outcome;
  const { resent, ...result } = outcome;
  if (resent) await enqueue(invitationEmail(resent));
  return result;
}

/** Moves the invitee's membership along with the invitation; returns its id when one is affected. */
async function moveMembership(
  tx: Db,
  action: InvitationAction,
  m: { careSiteId: string; userId: string; role: string; now: Date },
): Promise<string | null> {
  const where = { careSiteId_userId: { careSiteId: m.careSiteId, userId: m.userId } };
  if (action === "accept" || action === "reactivate") {
    const membership = await tx.membership.upsert({
      where,
      create: {
        careSiteId: m.careSiteId,
        userId: m.userId,
        role: m.role,
        status: "accepted",
        acceptedAt: m.now,
      },
      // Reactivating keeps the date of the first acceptance.
      update:
        action === "accept"
          ? { status: "accepted", role: m.role, acceptedAt: m.now }
          : { status: "accepted" },
      select: { id: true },
    });
    return membership.id;
  }
  const follows = MEMBERSHIP_FOLLOWS[action];
  if (!follows) return null;
  const membership = await tx.membership.findUnique({ where, select: { id: true, status: true } });
  if (!membership || !follows.from.includes(membership.status)) return null;
  await tx.membership.update({
    where: { id: membership.id },
    data: { status: follows.to },
    select: { id: true },
  });
  return membership.id;
}

/** isAssociatedClinic: an accepted membership at an active care site. */
async function isAssociated(tx: Db, userId: string) {
  const membership = await tx.membership.findFirst({
    where: currentMembership({ userId }),
    select: { id: true },
  });
  return membership !== null;
}

/**
 * Of these (blocked) invitations, the ones the invitee paused with Deactivate and may Reactivate.
 * Deactivate and Reactivate alternate, and a revoke or remove (by the sender, or by
 * endInvitationsForMembership) is final: nothing leads out of it. So an invitation is paused
 * exactly when deactivations - reactivations - revokes - removals > 0, whatever the order of
 * its events (two events in the same millisecond cannot confuse it).
 */
async function pausedByInvitee(db: Db, invitationIds: string[]): Promise<Set<string>> {
  if (invitationIds.length === 0) return new Set();
  const counts = await db.auditEvent.groupBy({
    by: ["targetId", "action"],
    where: {
      targetType: "invitation",
      targetId: { in: invitationIds },
      action: {
        in: [
          "invitation.deactivate",
          "invitation.reactivate",
          "invitation.revoke",
          "invitation.remove",
        ],
      },
    },
    _count: { _all: true },
  });
  const balance = new Map<string, number>();
  for (const row of counts) {
    if (!row.targetId) continue;
    const sign = row.action === "invitation.deactivate" ? 1 : -1;
    balance.set(row.targetId, (balance.get(row.targetId) ?? 0) + sign * row._count._all);
  }
  return new Set([...balance].filter(([, n]) => n > 0).map(([id]) => id));
}

/**
 * For the screens that end a user's place at a care site some other way (the care site view's
 * Remove): call it in the same transaction that blocks the membership. It ends the invitations
 * that stand for that place as the sender's Remove and Revoke would: open ones and accepted
 * ones, and also one the invitee paused, so that Reactivate cannot bring the access back.
 * Returns how many invitations it ended.
 */
export async function endInvitationsForMembership(
  tx: Db,
  input: { careSiteId: string; userId: string; actorId: string; ip?: string | null },
) {
  const user = await tx.user.findUnique({ where: { id: input.userId }, select: { email: true } });
  if (!user) return 0;
  const invitations = await tx.invitation.findMany({
    where: {
      careSiteId: input.careSiteId,
      email: user.email,
      status: { in: [...OPEN, "accepted", "blocked"] },
    },
    select: { id: true, status: true },
  });
  const paused = await pausedByInvitee(
    tx,
    invitations.filter((i) => i.status === "blocked").map((i) => i.id),
  );
  let ended = 0;
  for (const invitation of invitations) {
    if (invitation.status === "blocked" && !paused.has(invitation.id)) continue;
    await tx.invitation.update({
      where: { id: invitation.id },
      data: { status: "blocked" },
      select: { id: true },
    });
    await recordEvent(tx, {
      actorId: input.actorId,
      action: (OPEN as string[]).includes(invitation.status)
        ? "invitation.remove"
        : "invitation.revoke",
      invitationId: invitation.id,
      careSiteId: input.careSiteId,
      ip: input.ip,
      detail: { from: invitation.status, to: "blocked", email: user.email, membershipEnded: true },
    });
    ended++;
  }
  return ended;
}

/**
 * The audit row of an invitation event, written in the caller's transaction: the trail is part of
 * the state that pausedByInvitee reads.
 */
function recordEvent(
  tx: Db,
  e: {
    actorId: string;
    action: string;
    invitationId: string;
    careSiteId: string | null;
    ip?: string | null;
    detail: Record<string, unknown>;
  },
) {
  const { invitationId, ...event } = e;
  return audit({ ...event, targetType: "invitation", targetId: invitationId }, tx);
}
