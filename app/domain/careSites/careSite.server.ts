import crypto from "node:crypto";
import {
  currentPatientPlaces,
  enrolledAs,
  mayAdministerAllCareSites,
  type Actor,
} from "~/domain/access.server";
import { Prisma } from "~/generated/prisma/client";
import { audit } from "~/domain/audit.server";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { PAGE_SIZE, skipFor, type ListParams } from "~/lib/listParams";
import {
  addCareSiteValidator,
  careSiteInput,
  careSiteMessages,
  type CareSiteInput,
} from "~/domain/careSites/schema";

// Everything here but the Add Care Site form is the provider's admins' (access.server.ts
// mayAdministerAllCareSites): anyone else gets empty lists, zero counts and no notice.

const NO_PAGE = { rows: [], total: 0 };

/** The super admin's enrolled counts: active care sites and accepted people per role. */
export async function getEnrolledCounts(actor: Actor) {
  if (!mayAdministerAllCareSites(actor)) {
    return { careSites: 0, patients: 0, clinicians: 0, careSiteAdmins: 0 };
  }
  const acceptedIn = (role: string) => prisma.user.count({ where: enrolledAs(role) });
  const [careSites, patients, clinicians, careSiteAdmins] = await Promise.all([
    prisma.careSite.count({ where: { status: "active" } }),
    acceptedIn("patient"),
    acceptedIn("clinician"),
    acceptedIn("clinicadmin"),
  ]);
  return { careSites, patients, clinicians, careSiteAdmins };
}

// ---------------------------------------------------------------------------------------------
// The super admin's lists (spec 2 §2 "Super admin dashboard"). Searching, sorting and paging all
// happen in SQL; the sort columns are whitelisted, so only those names reach ORDER BY. Ties are
// broken by rowid, which rides along in every index, so a page never needs a second sort and
// paging is stable.
// ---------------------------------------------------------------------------------------------

export const CARE_SITE_SORTS = ["name", "city", "state", "zip"] as const;
export type CareSiteSort = (typeof CARE_SITE_SORTS)[number];

export const PERSON_SORTS = ["lastName", "firstName", "status", "email"] as const;
export type PersonSort = (typeof PERSON_SORTS)[number];

/** The roles whose people the dashboard lists (its count cards). */
export const ENROLLED_ROLES = ["patient", "clinician", "clinicadmin"] as const;
export type EnrolledRole = (typeof ENROLLED_ROLES)[number];

/** The person table's Status column (spec 2 §2: Pending or Accepted). */
export type PersonStatus = "Accepted" | "Pending";

type Page<R> = { rows: R[]; total: number };
/** Which rows of the ordered list a page query reads. */
type Window = { offset: number; limit: number; reverse: boolean };
type ListQuery = { total: Prisma.Sql; page: (window: Window) => Prisma.Sql };

/** `%q%` for LIKE, with the wildcards of q taken literally (ESCAPE '\'). */
function containsPattern(q: string) {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function orderBy(columns: string[], order: "asc" | "desc", reverse = false) {
  const dir = (order === "desc") !== reverse ? "DESC" : "ASC";
  return Prisma.raw(columns.map((c) => `${c} ${dir}`).join(", "));
}

// Secondary keys per sort column; the first key is the column itself.
const CARE_SITE_ORDER: Record<CareSiteSort, string[]> = {
  name: ["name", "rowid"],
  city: ["city", "name", "rowid"],
  state: ["state", "name", "rowid"],
  zip: ["zip", "name", "rowid"],
};

const PERSON_ORDER: Record<PersonSort, string[]> = {
  lastName: ["lastName", "firstName", "rid"],
  firstName: ["firstName", "lastName", "rid"],
  status: ["status", "lastName", "firstName", "rid"],
  email: ["email"],
};

export type CareSiteRow = {
  id: string;
  name: string;
  city: string;
  state: string;
  zip: string;
  photoId: string | null;
};

/**
 * The SQL of the two lists: the page and the total. Exported so that scripts/bench/lists.ts
 * can show SQLite's query plans of exactly what runs.
 */
export const listQueries = {
  careSites(params: ListParams<CareSiteSort>) {
    const pattern = containsPattern(params.q);
    const search = params.q
      ? Prisma.sql`AND (name LIKE ${pattern} ESCAPE '\\' OR city LIKE ${pattern} ESCAPE '\\'
          OR state LIKE ${pattern} ESCAPE '\\' OR zip LIKE ${pattern} ESCAPE '\\')`
      : Prisma.empty;
    const where = Prisma.sql`WHERE status = 'active' ${search}`;
    return {
      page: ({ offset, limit, reverse }: Window) => Prisma.sql`
        SELECT id, name, city, state, zip, photoId FROM "CareSite" ${where}
        ORDER BY ${orderBy(CARE_SITE_ORDER[params.sort], params.order, reverse)}
        LIMIT ${limit} OFFSET ${offset}`,
      total: Prisma.sql`SELECT COUNT(*) AS total FROM "CareSite" ${where}`,
    };
  },

  people(params: ListParams<PersonSort> & { role: EnrolledRole }) {
    const { role, q } = params;
    const membership = (statuses: Prisma.Sql) => Prisma.sql`EXISTS (
        SELECT 1 FROM "Membership" m JOIN "CareSite" c ON c.id = m.careSiteId
        WHERE m.userId = u.id AND m.role = ${role} AND m.status IN (${statuses})
          AND c.status = 'active')`;
    const accepted = membership(Prisma.sql`'accepted'`);
    // The search is written before the membership check so that SQLite tries the cheap LIKEs
    // first. The status word matches when q is part of "Accepted" or "Pending" (what
    // `status LIKE %q%` would say), decided here rather than per row.
    const pattern = containsPattern(q);
    const inAccepted = q !== "" && "accepted".includes(q.toLowerCase());
    const inPending = q !== "" && "pending".includes(q.toLowerCase());
    const statusTerm =
      inAccepted && inPending
        ? Prisma.sql`OR 1`
        : inAccepted
          ? Prisma.sql`OR ${accepted}`
          : inPending
            ? Prisma.sql`OR NOT ${accepted}`
            : Prisma.empty;
    const search = q
      ? Prisma.sql`AND (u.firstName LIKE ${pattern} ESCAPE '\\' OR u.lastName LIKE ${pattern} ESCAPE '\\'
          OR u.email LIKE ${pattern} ESCAPE '\\' ${statusTerm})`
      : Prisma.empty;
    // Without a search, the last-name and email orders walk their index and stop after the
    // page; `+u.role` keeps SQLite from preferring the role index and sorting every row. The
    // total has no order, so it keeps the role index.
    const walkIndex = !q && (params.sort === "lastName" || params.sort === "email");
    const people = (roleColumn: Prisma.Sql) => Prisma.sql`
      SELECT u.rowid AS rid, u.id, u.firstName, u.lastName, u.email, u.photoId,
        CASE WHEN ${accepted} THEN 'Accepted' ELSE 'Pending' END AS status
      FROM "User" u
      WHERE ${roleColumn} = ${role} ${search}
        AND ${membership(Prisma.sql`'accepted', 'pending'`)}`;
    return {
      page: ({ offset, limit, reverse }: Window) => Prisma.sql`
        SELECT id, firstName, lastName, email, photoId, status
        FROM (${people(walkIndex ? Prisma.sql`+u.role` : Prisma.sql`u.role`)})
        ORDER BY ${orderBy(PERSON_ORDER[params.sort], params.order, reverse)}
        LIMIT ${limit} OFFSET ${offset}`,
      total: Prisma.sql`SELECT COUNT(*) AS total FROM (${people(Prisma.sql`u.role`)})`,
    };
  },
};

/**
 * The total, then the page. A page in the second half of the list is read from the other end
 * (the same order reversed, then the rows flipped back): every order has a unique last key, so
 * the rows are the same, and SQLite skips far fewer rows. A page past the end is empty.
 */
async function runPage<R>(query: ListQuery, page: number): Promise<Page<R>> {
  const [{ total: count }] = await prisma.$queryRaw<{ total: number | bigint }[]>(query.total);
  const total = Number(count);
  const offset = skipFor(page);
  if (offset >= total) return { rows: [], total };
  if (offset > total / 2) {
    const limit = Math.min(PAGE_SIZE, total - offset);
    const window = { offset: total - offset - limit, limit, reverse: true };
    const rows = await prisma.$queryRaw<R[]>(query.page(window));
    return { rows: rows.reverse(), total };
  }
  const rows = await prisma.$queryRaw<R[]>(
    query.page({ offset, limit: PAGE_SIZE, reverse: false }),
  );
  return { rows, total };
}

/**
 * Active care sites, a page of 10. `q` matches name, city, state or zip (substring; LIKE, so
 * case-insensitive for ASCII letters).
 */
export async function listCareSites(
  actor: Actor,
  params: ListParams<CareSiteSort>,
): Promise<Page<CareSiteRow>> {
  if (!mayAdministerAllCareSites(actor)) return NO_PAGE;
  return runPage<CareSiteRow>(listQueries.careSites(params), params.page);
}

export type PersonRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  photoId: string | null;
  status: PersonStatus;
};

/**
 * The people of one role, as the provider's admins see them: every user of that role with an
 * accepted or pending membership in that role at an active care site. Status is Accepted when
 * any such membership is accepted, else Pending. Users whose memberships are all rejected or
 * blocked are not listed (docs/decisions.md). `q` matches first name, last name, email or the
 * status word; pages of 10.
 */
export async function listEnrolledPeople(
  actor: Actor,
  params: ListParams<PersonSort> & { role: EnrolledRole },
): Promise<Page<PersonRow>> {
  if (!mayAdministerAllCareSites(actor)) return NO_PAGE;
  return runPage<PersonRow>(listQueries.people(params), params.page);
}

/**
 * For the patients of a page: the device each is paired with now (pair_id, Pairing with
 * unpairedAt null) and the care site to open them in (the pairing's, else their first accepted
 * one). Patients without a pairing get pairId null.
 */
export async function getPatientLinks(actor: Actor, patientIds: string[]) {
  if (patientIds.length === 0 || !mayAdministerAllCareSites(actor))
    return new Map<string, { pairId: string | null; careSiteId: string | null }>();
  const [pairings, memberships] = await Promise.all([
    prisma.pairing.findMany({
      where: { patientId: { in: patientIds }, unpairedAt: null },
      select: { id: true, patientId: true, careSiteId: true },
      orderBy: { pairedAt: "desc" },
    }),
    prisma.membership.findMany({
      where: currentPatientPlaces(patientIds),
      select: { userId: true, careSiteId: true },
      orderBy: [{ acceptedAt: "asc" }, { createdAt: "asc" }],
    }),
  ]);
  const links = new Map<string, { pairId: string | null; careSiteId: string | null }>();
  for (const id of patientIds) {
    const pairing = pairings.find((p) => p.patientId === id);
    const member = memberships.find((m) => m.userId === id);
    links.set(id, {
      pairId: pairing?.id ?? null,
      careSiteId: pairing?.careSiteId ?? member?.careSiteId ?? null,
    });
  }
  return links;
}

export const personNotices = {
  noDevice: (firstName: string, lastName: string) =>
    `${firstName} ${lastName} is not associated with any device`,
  pending: (email: string) => `${email} has not accepted the invitation`,
  rejected: (email: string) => `${email} has rejected the invitation`,
} as const;

/**
 * The warning a person row shows instead of opening a page (spec 2 §2): an accepted patient with
 * no paired device, a pending person, a rejected one. Judged on the person's state now, so a row
 * clicked after it changed says what is true. Null when the row opens a page instead, or when
 * the user is not a person of this role.
 */
export async function getPersonNotice(actor: Actor, role: EnrolledRole, userId: string) {
  if (!mayAdministerAllCareSites(actor)) return null;
  const user = await prisma.user.findFirst({
    where: { id: userId, role },
    select: {
      firstName: true,
      lastName: true,
      email: true,
      pairings: { where: { unpairedAt: null }, select: { id: true }, take: 1 },
    },
  });
  if (!user) return null;
  // Every status of the person's memberships in this role at active care sites.
  const memberships = await prisma.membership.findMany({
    where: { userId, role, careSite: { status: "active" } },
    select: { status: true },
  });
  const statuses = new Set(memberships.map((m) => m.status));
  if (statuses.has("accepted")) {
    return role === "patient" && user.pairings.length === 0
      ? personNotices.noDevice(user.firstName, user.lastName)
      : null;
  }
  if (statuses.has("pending")) return personNotices.pending(user.email);
  if (statuses.has("rejected")) return personNotices.rejected(user.email);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Add Care Site (spec 2 §4, §5)
// ---------------------------------------------------------------------------------------------

export type CreateCareSiteResult =
  | { status: "created"; careSite: { id: string; name: string } }
  /** The same form (token) was already submitted: the care site it created. */
  | { status: "replayed"; careSite: { id: string; name: string } }
  | { status: "accountNumberTaken" }
  /** A care site of this name already exists in this city. */
  | { status: "duplicate" }
  /** The actor is not one of the provider's admins. */
  | { status: "forbidden" };

/** A fresh token for one rendering of the Add Care Site form. */
export function newFormToken() {
  return crypto.randomUUID();
}

/** How long a submitted form's token is remembered. */
const FORM_TOKEN_TTL_MS = 24 * 3_600_000;
export const FORM_TOKEN_REGEX = /^[A-Za-z0-9-]{16,64}$/;

function isAccountNumberConflict(error: unknown) {
  return (
    error instanceof Prisma.PrismaClientKnownRequestError &&
    error.code === "P2002" &&
    JSON.stringify(error.meta ?? {}).includes("accountNumber")
  );
}

/**
 * Creates an active care site, once. In one transaction: a form token already used by this actor
 * (found in its "caresite.created" audit event) returns the care site it made; a taken account
 * number or a care site of the same name in the same city (case-insensitive) refuses; otherwise
 * the care site and its audit event are written together. SQLite runs one write transaction at a
 * time, so two identical posts cannot both pass the checks; the unique account number is the
 * backstop.
 */
export async function createCareSite(
  actor: Actor,
  input: CareSiteInput,
  options: { formToken?: string | null; ip?: string | null } = {},
): Promise<CreateCareSiteResult> {
  if (!mayAdministerAllCareSites(actor)) return { status: "forbidden" };
  const formToken =
    options.formToken && FORM_TOKEN_REGEX.test(options.formToken) ? options.formToken : null;
  try {
    return await readWriteTransaction(async (tx): Promise<CreateCareSiteResult> => {
      if (formToken) {
        const earlier = await tx.auditEvent.findFirst({
          where: {
            actorId: actor.id,
            action: "caresite.created",
            at: { gte: new Date(Date.now() - FORM_TOKEN_TTL_MS) },
            detail: { contains: `"formToken":"${formToken}"` },
          },
          select: { targetId: true },
        });
        const site = earlier?.targetId
          ? await tx.careSite.findUnique({
              where: { id: earlier.targetId },
              select: { id: true, name: true },
            })
          : null;
        if (site) return { status: "replayed", careSite: site };
      }
      if (input.accountNumber) {
        const taken = await tx.careSite.findUnique({
          where: { accountNumber: input.accountNumber },
          select: { id: true },
        });
        if (taken) return { status: "accountNumberTaken" };
      }
      const same = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM "CareSite"
        WHERE name = ${input.name} COLLATE NOCASE AND city = ${input.city} COLLATE NOCASE
        LIMIT 1`;
      if (same.length > 0) return { status: "duplicate" };
      const careSite = await tx.careSite.create({
        data: { ...input, status: "active" },
        select: { id: true, name: true },
      });
      await audit(
        {
          actorId: actor.id,
          action: "caresite.created",
          targetType: "CareSite",
          targetId: careSite.id,
          careSiteId: careSite.id,
          ip: options.ip,
          detail: { formToken, name: input.name, accountNumber: input.accountNumber },
        },
        tx,
      );
      return { status: "created", careSite };
    });
  } catch (error) {
    if (isAccountNumberConflict(error)) return { status: "accountNumberTaken" };
    throw error;
  }
}

export type AddCareSiteOutcome =
  | { ok: true; careSiteId: string; message: string }
  | {
      ok: false;
      status: 403 | 409 | 422;
      fieldErrors: Record<string, string>;
      /** What was typed, to show again. */
      values: Record<string, unknown>;
      formError?: string;
    };

/**
 * The Add Care Site dialog's post: the form's rules (domain/careSites/schema.ts), then
 * createCareSite, as outcomes with the spec's texts. The route only turns them into responses
 * (and so its browser bundle never imports zod or the validation module).
 */
export async function addCareSiteFromForm(
  actor: Actor,
  form: FormData,
  options: { formToken: string; ip?: string | null },
): Promise<AddCareSiteOutcome> {
  const result = await addCareSiteValidator.validate(form);
  if (result.error) {
    return {
      ok: false,
      status: 422,
      fieldErrors: result.error.fieldErrors,
      values: result.submittedData,
    };
  }
  const outcome = await createCareSite(actor, careSiteInput(result.data), options);
  switch (outcome.status) {
    case "forbidden":
      return { ok: false, status: 403, fieldErrors: {}, values: result.submittedData };
    case "created":
    case "replayed":
      return { ok: true, careSiteId: outcome.careSite.id, message: careSiteMessages.added };
    case "accountNumberTaken":
      return {
        ok: false,
        status: 422,
        fieldErrors: { accountNumber: careSiteMessages.accountNumberExists },
        values: result.submittedData,
      };
    case "duplicate":
      return {
        ok: false,
        status: 409,
        fieldErrors: {},
        values: result.submittedData,
        formError: careSiteMessages.alreadyExists(result.data.name),
      };
  }
}
