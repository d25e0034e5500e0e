// The Sent and Received lists of the Invitations screens, their counts, and one invitation for a
// confirmation dialog (spec 2 §2, §4). Every query is scoped by the access module's fragments
// (domain/access.server.ts invitationsSentBy, invitationsReceivedBy); sorting, searching and
// paging happen in the database.
import { invitationsReceivedBy, invitationsSentBy, type Actor } from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import {
  availableActions,
  INVITATION_PAGE_SIZE,
  RECEIVED_SORT_KEYS,
  SENT_SORT_KEYS,
  type InvitationAction,
  type InvitationSide,
  type SortOrder,
} from "~/domain/invitations/rules";
import { ROLE_NAMES, ROLES, type Role } from "~/domain/roles";
import { pausedByInvitee } from "~/domain/invitations/trail.server";

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

/**
 * One page of the invitations in `scope`, narrowed by the search text to those where one of
 * `matches(q)` holds (sorted by a known key, else `defaultSort`), and its total.
 */
function invitationPage<S extends Prisma.InvitationSelect>(
  scope: Prisma.InvitationWhereInput,
  matches: (q: string) => Prisma.InvitationWhereInput[],
  input: InvitationListInput,
  list: { sortKeys: readonly string[]; defaultSort: string },
  select: S,
) {
  const q = searchText(input.q);
  const where: Prisma.InvitationWhereInput = { AND: [scope], ...(q ? { OR: matches(q) } : {}) };
  const key = list.sortKeys.includes(input.sort ?? "") ? input.sort! : list.defaultSort;
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
  actor: Actor,
  input: InvitationListInput = {},
): Promise<{ rows: SentInvitationRow[]; total: number }> {
  const matches = (q: string): Prisma.InvitationWhereInput[] => [
    { email: { contains: q } },
    { role: { in: rolesMatching(q) } },
    { careSite: { name: { contains: q } } },
    { status: { contains: q } },
  ];
  const list = { sortKeys: SENT_SORT_KEYS, defaultSort: "email" };
  const [found, total] = await invitationPage(invitationsSentBy(actor), matches, input, list, {
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
  actor: Actor,
  input: InvitationListInput = {},
): Promise<{ rows: ReceivedInvitationRow[]; total: number }> {
  const matches = (q: string): Prisma.InvitationWhereInput[] => [
    { careSite: { name: { contains: q } } },
    { invitedBy: { firstName: { contains: q } } },
    { invitedBy: { lastName: { contains: q } } },
    { status: { contains: q } },
  ];
  const list = { sortKeys: RECEIVED_SORT_KEYS, defaultSort: "careSiteName" };
  const [found, total] = await invitationPage(invitationsReceivedBy(actor), matches, input, list, {
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
export async function countInvitations(actor: Actor) {
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

/** What a confirmation dialog and a status change read of one invitation. */
export const invitationDetailSelect = {
  id: true,
  email: true,
  role: true,
  status: true,
  careSiteId: true,
  expiresAt: true,
  careSite: { select: { name: true } },
  invitedBy: { select: { firstName: true, lastName: true } },
} as const satisfies Prisma.InvitationSelect;

/**
 * One invitation the actor sent or received (for a confirmation dialog addressed by URL), or null
 * when it is neither (the route answers 404).
 */
export async function getInvitation(
  actor: Actor,
  invitationId: string,
): Promise<InvitationDetail | null> {
  const select = invitationDetailSelect;
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
