// The care site area's raw SQL, each statement typed by the model columns it reads.
// - The super admin's two lists and count cards (spec 2 §2): searching, sorting and paging all
//   happen in SQL; the sort columns are whitelisted, so only those names reach ORDER BY. Every
//   order ends in a unique key (a care site's rowid, a person's email), so a page never needs a
//   second sort and paging is stable. The people come from EnrolledPerson, which the database
//   keeps (schema.prisma): the lists, the total and the cards read its indexes, whatever the
//   number of patients. Raw for speed: docs/performance.md (npm run bench, the admin list rows).
// - The Add Care Site duplicate check: names compared case-insensitively (COLLATE NOCASE), which
//   Prisma's client cannot say on SQLite.
import { Prisma, type CareSite, type User } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { PAGE_SIZE, skipFor, type ListParams } from "~/lib/listParams";

type Db = Prisma.TransactionClient | typeof prisma;

export const CARE_SITE_SORTS = ["name", "city", "state", "zip"] as const;
export type CareSiteSort = (typeof CARE_SITE_SORTS)[number];

export const PERSON_SORTS = ["lastName", "firstName", "status", "email"] as const;
export type PersonSort = (typeof PERSON_SORTS)[number];

/** The roles whose people the dashboard lists (its count cards). */
export const ENROLLED_ROLES = ["patient", "clinician", "clinicadmin"] as const;
export type EnrolledRole = (typeof ENROLLED_ROLES)[number];

/** The person table's Status column (spec 2 §2: Pending or Accepted). */
export type PersonStatus = "Accepted" | "Pending";

export type CareSiteRow = Pick<CareSite, "id" | "name" | "city" | "state" | "zip" | "photoId">;
export type PersonRow = Pick<User, "id" | "firstName" | "lastName" | "email" | "photoId"> & {
  status: PersonStatus;
};

export type Page<R> = { rows: R[]; total: number };
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

// The email is unique within a role's list (an account's, or an invitee's without one): it breaks
// every tie, and each order is an index of EnrolledPerson.
const PERSON_ORDER: Record<PersonSort, string[]> = {
  lastName: ["lastName", "firstName", "email"],
  firstName: ["firstName", "lastName", "email"],
  status: ["status", "lastName", "firstName", "email"],
  email: ["email"],
};

/**
 * The SQL of the two lists: the page and the total.
 */
const listQueries = {
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
    // The rows are kept by the database's triggers (schema.prisma EnrolledPerson), so each order
    // walks its index from the role and stops after the page; the search filters the rows of
    // that walk. `status LIKE` is the status word ("Accepted" or "Pending") as the list shows it.
    const pattern = containsPattern(params.q);
    const search = params.q
      ? Prisma.sql`AND (firstName LIKE ${pattern} ESCAPE '\\' OR lastName LIKE ${pattern} ESCAPE '\\'
          OR email LIKE ${pattern} ESCAPE '\\' OR status LIKE ${pattern} ESCAPE '\\')`
      : Prisma.empty;
    const where = Prisma.sql`WHERE role = ${params.role} ${search}`;
    return {
      page: ({ offset, limit, reverse }: Window) => Prisma.sql`
        SELECT id, firstName, lastName, email, photoId, status FROM "EnrolledPerson" ${where}
        ORDER BY ${orderBy(PERSON_ORDER[params.sort], params.order, reverse)}
        LIMIT ${limit} OFFSET ${offset}`,
      total: Prisma.sql`SELECT COUNT(*) AS total FROM "EnrolledPerson" ${where}`,
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

/** A page of active care sites (unscoped: careSite.server.ts listCareSites checks the actor). */
export function careSitePage(params: ListParams<CareSiteSort>) {
  return runPage<CareSiteRow>(listQueries.careSites(params), params.page);
}

/** A page of the people of one role (unscoped: careSite.server.ts listEnrolledPeople). */
export function personPage(params: ListParams<PersonSort> & { role: EnrolledRole }) {
  return runPage<PersonRow>(listQueries.people(params), params.page);
}

/**
 * The Dashboard's count cards: active care sites, and the people of each role whose status is
 * Accepted (an accepted membership in that role at an active care site; invitees are Pending).
 */
export async function enrolledCounts() {
  const [sites, people] = await Promise.all([
    prisma.$queryRaw<{ n: number | bigint }[]>`
      SELECT COUNT(*) AS n FROM "CareSite" WHERE status = 'active'`,
    prisma.$queryRaw<{ role: string; n: number | bigint }[]>`
      SELECT role, COUNT(*) AS n FROM "EnrolledPerson"
      WHERE role IN ('patient', 'clinician', 'clinicadmin') AND status = 'Accepted'
      GROUP BY role`,
  ]);
  const of = (role: EnrolledRole) => Number(people.find((p) => p.role === role)?.n ?? 0);
  return {
    careSites: Number(sites[0].n),
    patients: of("patient"),
    clinicians: of("clinician"),
    careSiteAdmins: of("clinicadmin"),
  };
}

/** Whether a care site of this name exists in this city, both compared without case. */
export async function careSiteNamedInCity(db: Db, name: string, city: string) {
  const same = await db.$queryRaw<Pick<CareSite, "id">[]>`
    SELECT id FROM "CareSite"
    WHERE name = ${name} COLLATE NOCASE AND city = ${city} COLLATE NOCASE
    LIMIT 1`;
  return same.length > 0;
}
