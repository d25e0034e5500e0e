// The care site area's raw SQL, each statement typed by the model columns it reads.
// - The super admin's two lists (spec 2 §2): searching, sorting and paging all happen in SQL; the
//   sort columns are whitelisted, so only those names reach ORDER BY. Ties are broken by rowid,
//   which rides along in every index, so a page never needs a second sort and paging is stable.
//   Raw for speed: docs/performance.md "Over HTTP" (npm run bench, the admin list rows).
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

// Invitees (no account yet) have no rid (NULL) and empty names: their email, unique in the list,
// breaks their ties.
const PERSON_ORDER: Record<PersonSort, string[]> = {
  lastName: ["lastName", "firstName", "rid", "email"],
  firstName: ["firstName", "lastName", "rid", "email"],
  status: ["status", "lastName", "firstName", "rid", "email"],
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
    // SQLite flattens the union into the page query, and so still walks the name and email
    // indexes, only when both arms' columns have the same types (CAST) and every ORDER BY term is
    // a column of the page (rid is selected for that).
    // People invited by email who have no account yet (spec 2 §2 "Pending", "-" for the names):
    // one row per email, whose id is that of its open invitation in this role at an active care
    // site with the highest id (the notice is judged by the email). Rejected or withdrawn invitations are not listed,
    // like people whose memberships are all rejected or blocked.
    const openInvitation = (alias: "i" | "j") => {
      const a = Prisma.raw(alias);
      return Prisma.sql`${a}.role = ${role} AND ${a}.status IN ('pending', 'resend')
        AND EXISTS (SELECT 1 FROM "CareSite" c WHERE c.id = ${a}.careSiteId AND c.status = 'active')`;
    };
    const inviteeSearch = q
      ? Prisma.sql`AND (i.email LIKE ${pattern} ESCAPE '\\' ${inPending ? Prisma.sql`OR 1 = 1` : Prisma.empty})`
      : Prisma.empty;
    const invitees = Prisma.sql`
      SELECT CAST(NULL AS INTEGER) AS rid, i.id, CAST('' AS TEXT) AS firstName,
        CAST('' AS TEXT) AS lastName, i.email, CAST(NULL AS TEXT) AS photoId, 'Pending' AS status
      FROM "Invitation" i
      WHERE ${openInvitation("i")} ${inviteeSearch}
        AND NOT EXISTS (SELECT 1 FROM "User" a WHERE a.emailKey = i.email)
        AND NOT EXISTS (SELECT 1 FROM "Invitation" j
          WHERE j.email = i.email AND j.id > i.id AND ${openInvitation("j")})`;
    const people = (roleColumn: Prisma.Sql) => Prisma.sql`
      SELECT u.rowid AS rid, u.id, u.firstName, u.lastName, u.email, u.photoId,
        CASE WHEN ${accepted} THEN 'Accepted' ELSE 'Pending' END AS status
      FROM "User" u
      WHERE ${roleColumn} = ${role} ${search}
        AND ${membership(Prisma.sql`'accepted', 'pending'`)}
      UNION ALL ${invitees}`;
    return {
      page: ({ offset, limit, reverse }: Window) => Prisma.sql`
        SELECT rid, id, firstName, lastName, email, photoId, status
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

/** A page of active care sites (unscoped: careSite.server.ts listCareSites checks the actor). */
export function careSitePage(params: ListParams<CareSiteSort>) {
  return runPage<CareSiteRow>(listQueries.careSites(params), params.page);
}

/** A page of the people of one role (unscoped: careSite.server.ts listEnrolledPeople). */
export function personPage(params: ListParams<PersonSort> & { role: EnrolledRole }) {
  return runPage<PersonRow>(listQueries.people(params), params.page);
}

/** Whether a care site of this name exists in this city, both compared without case. */
export async function careSiteNamedInCity(db: Db, name: string, city: string) {
  const same = await db.$queryRaw<Pick<CareSite, "id">[]>`
    SELECT id FROM "CareSite"
    WHERE name = ${name} COLLATE NOCASE AND city = ${city} COLLATE NOCASE
    LIMIT 1`;
  return same.length > 0;
}
