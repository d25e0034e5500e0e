// Care site management (spec 2 "Care site management view", §3-§4, §9) and the Care Site Profile
// page (spec 1 §2.9): who is enrolled at a care site, withdrawing them, editing the care site.
//
// Scoping lives inside every `where` (STYLE.md): each function takes the Actor and asks the access
// module (domain/access.server.ts) for what it may reach, so a route cannot forget it.
// - The care site screen (clinicadmin, clinician): the actor's member sites. Anything else reads
//   as absent (null / empty), which the routes answer with 404.
// - The profile page (superadmin, abmadmin): every care site.
import {
  careSiteAdminsReadableBy,
  careSiteProfilesReadableBy,
  careSitesEditableBy,
  enrolmentsReadableBy,
  isGlobal,
  mayWithdraw,
  memberCareSites,
  siteRoleAt,
  type Actor,
} from "~/domain/access.server";
import type { Prisma } from "~/generated/prisma/client";
import { toCsv } from "~/lib/csv";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { audit } from "~/domain/audit.server";
import { PAGE_SIZE, skipFor, type ListParams } from "~/lib/listParams";
import { dayInZone } from "~/lib/time";
import { setCareSitePhoto } from "~/domain/accounts/photo.server";
import type { SavePhotoResult } from "~/lib/uploads.server";

type Db = Prisma.TransactionClient;

export type { Actor };
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

/** The CSV export takes the whole list; a care site of this size is far beyond any real one. */
export const CSV_MAX_ROWS = 50_000;

const careSiteSelect = {
  id: true,
  name: true,
  accountNumber: true,
  email: true,
  phone: true,
  website: true,
  addressLine1: true,
  addressLine2: true,
  city: true,
  state: true,
  zip: true,
  country: true,
  status: true,
  timeZone: true,
  photoId: true,
} as const satisfies Prisma.CareSiteSelect;

export type CareSiteRecord = Prisma.CareSiteGetPayload<{ select: typeof careSiteSelect }>;
export type ManagedCareSite = CareSiteRecord & {
  /** The actor's role at this care site (their accepted membership's). */
  siteRole: string;
  /** May edit the details and the picture: a clinicadmin of this care site. */
  canEdit: boolean;
};

/**
 * The care site as the care site screen shows it to the actor, or null when the actor holds no
 * accepted membership at this active care site (the route answers 404).
 */
export async function getManagedCareSite(
  actor: Actor,
  careSiteId: string,
): Promise<ManagedCareSite | null> {
  const site = await prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, memberCareSites(actor)] },
    select: careSiteSelect,
  });
  if (!site) return null;
  const siteRole = siteRoleAt(actor, site.id) ?? "";
  return { ...site, siteRole, canEdit: actor.role === "clinicadmin" && siteRole === "clinicadmin" };
}

/** The care site for the Care Site Profile page (superadmin, abmadmin), or null. */
export function getCareSiteProfile(actor: Actor, careSiteId: string) {
  return prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, careSiteProfilesReadableBy(actor)] },
    select: careSiteSelect,
  });
}

// ---------------------------------------------------------------------------------------------
// Enrolled users
// ---------------------------------------------------------------------------------------------

/** Accepted memberships at a care site the actor manages ("Enrolled status filter is always accepted"). */
function enrolledWhere(
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
function searchWhere(q: string, role: EnrolledRole): Prisma.MembershipWhereInput {
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

function orderFor(
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

/** An enrolled patient of a care site the actor manages, by user id (the "no device" notice). */
export async function getEnrolledPatient(actor: Actor, careSiteId: string, userId: string) {
  const row = await prisma.membership.findFirst({
    where: { AND: [{ userId }, enrolledWhere(actor, careSiteId, "patient")] },
    select: { id: true, role: true, user: { select: enrolledUserSelect } },
  });
  return row ? toRow(row) : null;
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

// ---------------------------------------------------------------------------------------------
// CSV export (spec 2 §9)
// ---------------------------------------------------------------------------------------------

const CATEGORY: Record<EnrolledRole, string> = {
  patient: "Patients",
  clinician: "Clinicians",
  clinicadmin: "CareSiteAdmins",
};

/** An empty cell for a missing value (the CSV writer disarms formulas). */
function cell(value: string | null | undefined) {
  return value ?? "";
}

/** Letters, digits and dashes of a name, the rest one underscore (a safe file name part). */
function fileNamePart(text: string) {
  const part = text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60);
  return part || "CareSite";
}

/**
 * The whole list (every page, same search and sort) as CSV, or null when the care site is out of
 * the actor's reach. The spec's row without profile_id, clinic_id, clinic_user_id, photo_uuid,
 * pair_id and total_count; named `<Category>_<careSiteName>_<YYYY-MM-DD>.csv` with the day in the
 * care site's zone.
 */
export async function exportEnrolledCsv(
  actor: Actor,
  careSiteId: string,
  role: EnrolledRole,
  params: Pick<ListParams<EnrolledSort>, "q" | "sort" | "order">,
  now = new Date(),
): Promise<{ fileName: string; csv: string; rowCount: number } | null> {
  const site = await getManagedCareSite(actor, careSiteId);
  if (!site) return null;
  const rows = await prisma.membership.findMany({
    where: { AND: [enrolledWhere(actor, careSiteId, role), searchWhere(params.q, role)] },
    select: {
      user: {
        select: {
          firstName: true,
          lastName: true,
          speciality: true,
          city: true,
          state: true,
          zip: true,
          country: true,
        },
      },
    },
    orderBy: orderFor(params.sort, params.order),
    take: CSV_MAX_ROWS,
  });
  type Row = (typeof rows)[number];
  const fields = [
    { label: "Last Name", value: (r: Row) => cell(r.user.lastName) },
    { label: "First Name", value: (r: Row) => cell(r.user.firstName) },
    ...(role === "clinician"
      ? [{ label: "Speciality", value: (r: Row) => cell(r.user.speciality) }]
      : []),
    { label: "Care Site Name", value: () => cell(site.name) },
    { label: "City", value: (r: Row) => cell(r.user.city) },
    { label: "State", value: (r: Row) => cell(r.user.state) },
    { label: "Zip", value: (r: Row) => cell(r.user.zip) },
    { label: "Country", value: (r: Row) => cell(r.user.country) },
  ];
  const csv = toCsv<Row>(rows, { fields, withBOM: true });
  const day = dayInZone(now, site.timeZone);
  return {
    fileName: `${CATEGORY[role]}_${fileNamePart(site.name)}_${day}.csv`,
    csv,
    rowCount: rows.length,
  };
}

/** Records who exported which list (every access to patient data is auditable, DESIGN.md §1). */
export async function recordCsvExport(
  actor: Actor,
  careSiteId: string,
  role: EnrolledRole,
  detail: { q: string; rowCount: number },
  options: { ip?: string | null } = {},
) {
  await audit(
    {
      actorId: actor.id,
      action: "caresite.members_exported",
      targetType: "careSite",
      targetId: careSiteId,
      careSiteId,
      ip: options.ip,
      detail: { role, ...detail },
    },
    prisma,
  );
}

// ---------------------------------------------------------------------------------------------
// Editing a care site
// ---------------------------------------------------------------------------------------------

/** The editable fields; accountNumber only on the profile page of the provider's admins. */
export type CareSiteChanges = {
  accountNumber?: string;
  name: string;
  addressLine1: string;
  addressLine2: string;
  country: string;
  state: string;
  city: string;
  zip: string;
  phone: string;
  website: string;
};

export type UpdateCareSiteResult =
  | { status: "updated"; changed: string[] }
  | { status: "unchanged" | "notFound" | "duplicateAccountNumber" };

const OPTIONAL_FIELDS = new Set([
  "accountNumber",
  "addressLine1",
  "addressLine2",
  "phone",
  "website",
]);

/**
 * Saves a care site's details (spec 1 §2.9, spec 2 §5) with the audit event "caresite.updated".
 * The provider's admins may edit any care site, including its account number; a care site admin
 * only the care sites where they are one, never the account number (read-only in the dialog).
 * "unchanged" when the care site already holds these values; "duplicateAccountNumber" when
 * another care site has that number.
 */
export async function updateCareSite(
  actor: Actor,
  careSiteId: string,
  input: CareSiteChanges,
  options: { ip?: string | null } = {},
): Promise<UpdateCareSiteResult> {
  const { accountNumber, ...rest } = input;
  const changes: CareSiteChanges =
    isGlobal(actor) && accountNumber !== undefined ? { ...rest, accountNumber } : rest;
  try {
    return await readWriteTransaction(async (tx): Promise<UpdateCareSiteResult> => {
      const current = await tx.careSite.findFirst({
        where: { AND: [{ id: careSiteId }, careSitesEditableBy(actor)] },
        select: careSiteSelect,
      });
      if (!current) return { status: "notFound" };
      const keys = Object.keys(changes) as (keyof CareSiteChanges)[];
      const changed = keys.filter((k) => (current[k] ?? "") !== (changes[k] ?? ""));
      if (changed.length === 0) return { status: "unchanged" };
      if (changed.includes("accountNumber") && changes.accountNumber) {
        const taken = await tx.careSite.findFirst({
          where: { accountNumber: changes.accountNumber, id: { not: careSiteId } },
          select: { id: true },
        });
        if (taken) return { status: "duplicateAccountNumber" };
      }
      const data: Prisma.CareSiteUpdateInput = {};
      for (const k of changed) {
        const value = changes[k] ?? "";
        (data as Record<string, string | null>)[k] =
          OPTIONAL_FIELDS.has(k) && value === "" ? null : value;
      }
      await tx.careSite.update({ where: { id: careSiteId }, data, select: { id: true } });
      await audit(
        {
          actorId: actor.id,
          action: "caresite.updated",
          targetType: "careSite",
          targetId: careSiteId,
          careSiteId,
          ip: options.ip,
          detail: { changed },
        },
        tx,
      );
      return { status: "updated", changed };
    });
  } catch (error) {
    // Two saves racing for the same account number: the unique index answers for the loser.
    if ((error as { code?: string }).code === "P2002") return { status: "duplicateAccountNumber" };
    throw error;
  }
}

/**
 * Stores a new picture for a care site the actor may edit (1:1, lib/uploads.server.ts), with the
 * audit event "caresite.picture_updated"; null when the actor may not.
 */
export async function setManagedCareSitePicture(
  actor: Actor,
  careSiteId: string,
  file: File,
  options: { ip?: string | null } = {},
): Promise<SavePhotoResult | null> {
  const site = await prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, careSitesEditableBy(actor)] },
    select: { id: true },
  });
  if (!site) return null;
  const result = await setCareSitePhoto(site.id, actor.id, file);
  if (result.ok) {
    await audit(
      {
        actorId: actor.id,
        action: "caresite.picture_updated",
        targetType: "careSite",
        targetId: site.id,
        careSiteId: site.id,
        ip: options.ip,
        detail: { uploadId: result.id },
      },
      prisma,
    );
  }
  return result;
}

/** Spec 1 §2.9 "Active Care Site Admin": accepted care site admins with active accounts. */
export async function listActiveCareSiteAdmins(actor: Actor, careSiteId: string) {
  const rows = await prisma.membership.findMany({
    where: careSiteAdminsReadableBy(actor, careSiteId),
    select: { user: { select: { id: true, email: true, photoId: true } } },
    orderBy: { user: { email: "asc" } },
  });
  return rows.map((r) => r.user);
}

// ---------------------------------------------------------------------------------------------
