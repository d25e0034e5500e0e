// Who is enrolled at a care site (spec 2 "Care site management view", §3-§4): the count cards,
// the three lists, one member, and withdrawing a member (spec 2 §4 "Removing a user"). Scoped like
// management.server.ts: a care site the actor may not manage reads as empty.
import { enrolmentsReadableBy, mayWithdraw, type Actor } from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { audit } from "~/domain/audit.server";
import { PAGE_SIZE, skipFor, type ListParams } from "~/lib/listParams";
import { photoUrl } from "~/lib/photoUrl";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { notAssociatedWithDevice } from "~/domain/patients/profileLink";

export { mayWithdraw };

/** The roles enrolled at a care site, i.e. the three lists (spec 2: patient, clinician, clinicadmin). */
export const ENROLLED_ROLES = ["patient", "clinician", "clinicadmin"] as const;
export type EnrolledRole = (typeof ENROLLED_ROLES)[number];
export const DEFAULT_ENROLLED_ROLE: EnrolledRole = "clinician";

export function isEnrolledRole(value: unknown): value is EnrolledRole {
  return typeof value === "string" && (ENROLLED_ROLES as readonly string[]).includes(value);
}

export const ENROLLED_SORTS = ["photo", "lastName", "firstName", "speciality"] as const;
export type EnrolledSort = (typeof ENROLLED_SORTS)[number];
/** Spec 2 §9: patient lists sort by first name ascending by default; the others follow them. */
export const DEFAULT_ENROLLED_SORT: EnrolledSort = "firstName";

/** The sortable columns of a list: photo, Last Name, First Name, and for clinicians Speciality. */
export function sortsFor(role: EnrolledRole): readonly EnrolledSort[] {
  return role === "clinician" ? ENROLLED_SORTS : ["photo", "lastName", "firstName"];
}

// ---------------------------------------------------------------------------------------------
// Enrolled users
// ---------------------------------------------------------------------------------------------

/** Accepted memberships at a care site the actor manages ("Enrolled status filter is always accepted"). */
export function enrolledWhere(
  actor: Actor,
  careSiteId: string,
  role?: EnrolledRole,
): Prisma.MembershipWhereInput {
  return {
    AND: [
      enrolmentsReadableBy(actor, careSiteId),
      role ? { role } : { role: { in: [...ENROLLED_ROLES] } },
    ],
  };
}

/** Each word of the search must appear in the first name, last name (or clinician's speciality). */
export function searchWhere(q: string, role: EnrolledRole): Prisma.MembershipWhereInput {
  const words = q.split(/\s+/).filter(Boolean).slice(0, 5);
  if (words.length === 0) return {};
  return {
    AND: words.map((word) => ({
      user: {
        OR: [
          { firstName: { contains: word } },
          { lastName: { contains: word } },
          ...(role === "clinician" ? [{ speciality: { contains: word } }] : []),
        ],
      },
    })),
  };
}

export function orderFor(
  sort: EnrolledSort,
  order: "asc" | "desc",
): Prisma.MembershipOrderByWithRelationInput[] {
  const byName: Prisma.MembershipOrderByWithRelationInput[] = [
    { user: { lastName: "asc" } },
    { user: { firstName: "asc" } },
    { id: "asc" },
  ];
  switch (sort) {
    case "photo":
      return [{ user: { photoId: { sort: order, nulls: "first" } } }, ...byName];
    case "speciality":
      return [{ user: { speciality: { sort: order, nulls: "last" } } }, ...byName];
    case "lastName":
      return [{ user: { lastName: order } }, { user: { firstName: order } }, { id: "asc" }];
    case "firstName":
      return [{ user: { firstName: order } }, { user: { lastName: order } }, { id: "asc" }];
  }
}

export type EnrolledCounts = Record<EnrolledRole, number>;

/** Spec 2 §3 enrolled counts: accepted memberships per role at the care site (zeros when out of scope). */
export async function countEnrolled(actor: Actor, careSiteId: string): Promise<EnrolledCounts> {
  const groups = await prisma.membership.groupBy({
    by: ["role"],
    where: enrolledWhere(actor, careSiteId),
    _count: { _all: true },
  });
  const counts: EnrolledCounts = { patient: 0, clinician: 0, clinicadmin: 0 };
  for (const group of groups) {
    if (isEnrolledRole(group.role)) counts[group.role] = group._count._all;
  }
  return counts;
}

const enrolledUserSelect = {
  id: true,
  firstName: true,
  lastName: true,
  photoId: true,
  speciality: true,
  // pair_id: the patient's open pairing (a device is paired with one patient at a time).
  pairings: {
    where: { unpairedAt: null },
    select: { id: true },
    orderBy: { pairedAt: "desc" },
    take: 1,
  },
} as const satisfies Prisma.UserSelect;

/** One row of a list (spec 2 §3 "Enrolled user row"). */
export type EnrolledRow = {
  membershipId: string;
  userId: string;
  role: string;
  firstName: string;
  lastName: string;
  photoId: string | null;
  speciality: string | null;
  pairId: string | null;
};

function toRow(m: {
  id: string;
  role: string;
  user: Prisma.UserGetPayload<{ select: typeof enrolledUserSelect }>;
}): EnrolledRow {
  return {
    membershipId: m.id,
    userId: m.user.id,
    role: m.role,
    firstName: m.user.firstName,
    lastName: m.user.lastName,
    photoId: m.user.photoId,
    speciality: m.user.speciality,
    pairId: m.user.pairings[0]?.id ?? null,
  };
}

/** A page of the Patients, Clinicians or Care Site admins list, with the total. */
export async function listEnrolled(
  actor: Actor,
  careSiteId: string,
  role: EnrolledRole,
  params: ListParams<EnrolledSort>,
): Promise<{ rows: EnrolledRow[]; total: number }> {
  const where: Prisma.MembershipWhereInput = {
    AND: [enrolledWhere(actor, careSiteId, role), searchWhere(params.q, role)],
  };
  const [rows, total] = await Promise.all([
    prisma.membership.findMany({
      where,
      select: { id: true, role: true, user: { select: enrolledUserSelect } },
      orderBy: orderFor(params.sort, params.order),
      skip: skipFor(params.page),
      take: PAGE_SIZE,
    }),
    prisma.membership.count({ where }),
  ]);
  return { rows: rows.map(toRow), total };
}

/** One enrolled user of a care site the actor manages, by membership id (the Remove dialog). */
export async function getEnrolledMember(actor: Actor, careSiteId: string, membershipId: string) {
  const row = await prisma.membership.findFirst({
    where: { AND: [{ id: membershipId }, enrolledWhere(actor, careSiteId)] },
    select: { id: true, role: true, user: { select: enrolledUserSelect } },
  });
  return row ? toRow(row) : null;
}

/** The member the Remove dialog asks about, when the actor may remove them (mayWithdraw). */
export async function withdrawableMember(actor: Actor, careSiteId: string, membershipId: string) {
  const member = await getEnrolledMember(actor, careSiteId, membershipId);
  return member && mayWithdraw(actor, careSiteId, member) ? member : null;
}

/** An enrolled patient of a care site the actor manages, by user id (the "no device" notice). */
export async function getEnrolledPatient(actor: Actor, careSiteId: string, userId: string) {
  const row = await prisma.membership.findFirst({
    where: { AND: [{ userId }, enrolledWhere(actor, careSiteId, "patient")] },
    select: { id: true, role: true, user: { select: enrolledUserSelect } },
  });
  return row ? toRow(row) : null;
}

/** Spec 2 §8: the warning of a patient row without a paired device, or null. */
export async function noDeviceNotice(actor: Actor, careSiteId: string, userId: string) {
  const patient = await getEnrolledPatient(actor, careSiteId, userId);
  return patient && !patient.pairId
    ? notAssociatedWithDevice(patient.firstName, patient.lastName)
    : null;
}

export type WithdrawResult =
  | { ok: true; careSiteId: string; careSiteName: string; name: string; role: string }
  | { ok: false; reason: "notFound" | "forbidden" };

/**
 * Removes a user from a care site (spec 2 §4 "Removing a user"): the accepted membership becomes
 * blocked, and so does the accepted invitation that made it, in one transaction with the audit
 * event "membership.withdrawn". notFound: no accepted membership at a care site the actor
 * manages; forbidden: the actor may see it but not remove it (see mayWithdraw).
 */
export async function withdrawMembership(
  actor: Actor,
  membershipId: string,
  options: { ip?: string | null } = {},
): Promise<WithdrawResult> {
  return readWriteTransaction(async (tx): Promise<WithdrawResult> => {
    const membership = await tx.membership.findFirst({
      where: {
        AND: [{ id: membershipId, role: { in: [...ENROLLED_ROLES] } }, enrolmentsReadableBy(actor)],
      },
      select: {
        id: true,
        role: true,
        userId: true,
        careSiteId: true,
        user: { select: { email: true, firstName: true, lastName: true } },
        careSite: { select: { name: true } },
      },
    });
    if (!membership) return { ok: false, reason: "notFound" };
    if (!mayWithdraw(actor, membership.careSiteId, membership)) {
      return { ok: false, reason: "forbidden" };
    }

    await tx.membership.update({
      where: { id: membership.id },
      data: { status: "blocked" },
      select: { id: true },
    });
    const invitationWhere: Prisma.InvitationWhereInput = {
      careSiteId: membership.careSiteId,
      status: "accepted",
      OR: [{ membershipId: membership.id }, { email: membership.user.email }],
    };
    const invitations = await tx.invitation.findMany({
      where: invitationWhere,
      select: { id: true },
    });
    await tx.invitation.updateMany({
      where: { id: { in: invitations.map((i) => i.id) } },
      data: { status: "blocked" },
    });
    await audit(
      {
        actorId: actor.id,
        action: "membership.withdrawn",
        targetType: "membership",
        targetId: membership.id,
        careSiteId: membership.careSiteId,
        ip: options.ip,
        detail: {
          userId: membership.userId,
          role: membership.role,
          invitationIds: invitations.map((i) => i.id),
        },
      },
      tx,
    );
    return {
      ok: true,
      careSiteId: membership.careSiteId,
      careSiteName: membership.careSite.name,
      name: `${membership.user.firstName} ${membership.user.lastName}`,
      role: membership.role,
    };
  });
}

/**
 * A list's rows as the care site screen shows them: the photo's address, where a click leads
 * (staff: their profile; a patient: the patient profile when a device is paired, else nowhere)
 * and whether the actor is offered Remove.
 */
export function memberRowsFor(actor: Actor, careSiteId: string, rows: EnrolledRow[]) {
  return rows.map((row) => ({
    membershipId: row.membershipId,
    userId: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    speciality: row.speciality,
    photoUrl: photoUrl(row.photoId),
    href:
      row.role !== "patient"
        ? `/app/userinfo/${row.userId}`
        : row.pairId
          ? patientProfileHref({ profileId: row.userId, clinicId: careSiteId, pairId: row.pairId })
          : null,
    canRemove: mayWithdraw(actor, careSiteId, row),
  }));
}
