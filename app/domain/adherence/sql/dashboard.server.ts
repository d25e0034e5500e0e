// The care-site-scoped statements the dashboards read (the care site dashboard, the daily
// notification summary), one per question. Raw for speed: docs/performance.md "Over HTTP"
// (npm run bench: 2,000 and 20,000 patients with a year of data). The site's patients drive every query (CROSS JOIN keeps them the outer loop in
// SQLite), so each one reads only those patients' rows through the (patientId, …) indexes,
// however big the tables.
import { Prisma, type DailyAdherence, type Membership } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { BoundedCache } from "~/lib/boundedCache";
import { readRow, readSql } from "~/lib/reader.server";
import { DEFAULT_TIME_ZONE, dayInZone } from "~/lib/time";
import { addDays, dayStart, MISSED_DAYS_THRESHOLD } from "../score";
import { toMs } from "./rows";

type PatientId = { patientId: Membership["userId"] };

/**
 * The dashboard's statements over PatientStanding, on the request path's read connection
 * (lib/reader.server.ts): through Prisma's $queryRaw each cost about as much CPU as the page's
 * own render. `T` is the rows' array type, as with $queryRaw.
 */
function readStanding<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T> {
  return Promise.resolve(readSql(Prisma.sql(strings, ...values)) as T);
}

const sitePatientsSql = (careSiteId: string) => Prisma.sql`
  SELECT userId FROM "Membership"
  WHERE careSiteId = ${careSiteId} AND role = 'patient' AND status = 'accepted'`;

/**
 * A care site's time zone (an unknown id gets the default zone): a kept statement on the read
 * connection, as every dashboard view asks it first.
 */
export async function careSiteTimeZone(careSiteId: string) {
  const site = readRow<{ timeZone: string }>(
    `SELECT "timeZone" FROM "CareSite" WHERE "id" = ?`,
    careSiteId,
  );
  return site?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Instants [from, to) covering fromDay..toDay in a zone. */
function instantRange(fromDay: string, toDay: string, timeZone: string) {
  return { from: dayStart(fromDay, timeZone), to: dayStart(addDays(toDay, 1), timeZone) };
}

export type PatientScore = PatientId & Pick<DailyAdherence, "score">;

/** Every patient of the site with the score as of `day` (null: no score, shown "-"). */
export async function adherenceAsOf(careSiteId: string, day: string): Promise<PatientScore[]> {
  return prisma.$queryRaw<PatientScore[]>`
    SELECT p.userId AS patientId, da.score AS score
    FROM (${sitePatientsSql(careSiteId)}) p
    LEFT JOIN "DailyAdherence" da ON da.patientId = p.userId AND da.day = ${day}
    ORDER BY p.userId`;
}

/** Patients whose score as of `day` is below `threshold` (0.75, 0.5, 0.25). */
export async function adherenceBelow(careSiteId: string, day: string, threshold: number) {
  return prisma.$queryRaw<(PatientId & { score: NonNullable<DailyAdherence["score"]> })[]>`
    SELECT p.userId AS patientId, da.score AS score
    FROM (${sitePatientsSql(careSiteId)}) p
    JOIN "DailyAdherence" da ON da.patientId = p.userId AND da.day = ${day}
    WHERE da.score < ${threshold}
    ORDER BY p.userId`;
}

/**
 * Patients whose last `minDays` (3) goal days up to `day` all had no therapy. Walks each
 * patient's rows backwards from `day` on the primary key and stops after `minDays` goal days.
 */
export async function missedThreeOrMore(
  careSiteId: string,
  day: string,
  minDays = MISSED_DAYS_THRESHOLD,
) {
  return prisma.$queryRaw<PatientId[]>`
    SELECT p.userId AS patientId
    FROM (${sitePatientsSql(careSiteId)}) p
    WHERE (
      SELECT COUNT(*) FROM (
        SELECT da.therapies FROM "DailyAdherence" da
        WHERE da.patientId = p.userId AND da.day <= ${day} AND da.isGoalDay = 1
        ORDER BY da.day DESC LIMIT ${minDays}
      ) last WHERE last.therapies = 0
    ) = ${minDays}
    ORDER BY p.userId`;
}

/** Patients with a current pairing from whom no transmission has ever been received. */
export async function neverTransmitted(careSiteId: string) {
  return prisma.$queryRaw<PatientId[]>`
    SELECT p.userId AS patientId
    FROM (${sitePatientsSql(careSiteId)}) p
    WHERE EXISTS (SELECT 1 FROM "Pairing" pr WHERE pr.patientId = p.userId AND pr.unpairedAt IS NULL)
      AND NOT EXISTS (SELECT 1 FROM "Transmission" t WHERE t.patientId = p.userId)
    ORDER BY p.userId`;
}

/**
 * Patients whose therapy goal was changed in fromDay..toDay (site zone): a goal set in the range
 * that replaced an earlier one (the first goal, set at pairing, is not a change). `changedOn` is
 * the day of the latest such change.
 */
export async function goalsUpdated(careSiteId: string, fromDay: string, toDay: string) {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<(PatientId & { changedAt: unknown })[]>`
    SELECT g.patientId AS patientId, MAX(g.createdAt) AS changedAt
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "TherapyGoal" g ON g.patientId = p.userId AND g.createdAt >= ${from} AND g.createdAt < ${to}
    WHERE EXISTS (
      SELECT 1 FROM "TherapyGoal" e WHERE e.patientId = g.patientId
        AND (e.createdAt < g.createdAt OR (e.createdAt = g.createdAt AND e.id < g.id)))
    GROUP BY g.patientId
    ORDER BY g.patientId`;
  return rows.map((r) => ({
    patientId: r.patientId,
    changedOn: dayInZone(new Date(toMs(r.changedAt)), zone),
  }));
}

export type TransmissionStats = {
  patientId: string;
  /** transmissions sent in the range that brought at least one therapy */
  total: number;
  /** of those, the ones with a deviating therapy */
  deviating: number;
  therapies: number;
  deviatingTherapies: number;
};

/**
 * Transmissions per patient in fromDay..toDay (site zone), by the day the device sent them: a
 * transmission counts when it brought at least one new therapy, and deviates when one of its
 * therapies deviates. Only patients with such transmissions are returned. Deviation percentage =
 * deviatingTherapies / therapies (score.ts deviationShare). Reads one covering index of
 * Transmission (docs/decisions.md, "Transmissions in a range").
 */
export async function transmissionStats(
  careSiteId: string,
  fromDay: string,
  toDay: string,
): Promise<TransmissionStats[]> {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<Record<keyof TransmissionStats, unknown>[]>`
    SELECT p.userId AS patientId,
      COUNT(*) AS total,
      SUM(CASE WHEN t.deviatingTherapies > 0 THEN 1 ELSE 0 END) AS deviating,
      SUM(t.therapiesAccepted) AS therapies,
      SUM(t.deviatingTherapies) AS deviatingTherapies
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "Transmission" t ON t.patientId = p.userId
      AND t.sentAt >= ${from} AND t.sentAt < ${to} AND t.therapiesAccepted > 0
    -- Grouped by the membership's userId: the site's membership index yields it in order, so
    -- SQLite needs no temporary b-tree.
    GROUP BY p.userId
    ORDER BY p.userId`;
  return rows.map((r) => ({
    patientId: String(r.patientId),
    total: Number(r.total),
    deviating: Number(r.deviating),
    therapies: Number(r.therapies),
    deviatingTherapies: Number(r.deviatingTherapies),
  }));
}

/**
 * Patients whose device reported changed prescribed settings (a therapy adjustment) in a
 * transmission received in fromDay..toDay (site zone); `adjustedOn` is the latest such day.
 */
export async function therapyAdjustments(careSiteId: string, fromDay: string, toDay: string) {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<
    (PatientId & { adjustments: unknown; adjustedAt: unknown })[]
  >`
    SELECT t.patientId AS patientId, COUNT(*) AS adjustments, MAX(t.receivedAt) AS adjustedAt
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "Transmission" t ON t.patientId = p.userId AND t.receivedAt >= ${from} AND t.receivedAt < ${to}
    WHERE t.therapyAdjustment = 1
    GROUP BY t.patientId
    ORDER BY t.patientId`;
  return rows.map((r) => ({
    patientId: r.patientId,
    adjustments: Number(r.adjustments),
    adjustedOn: dayInZone(new Date(toMs(r.adjustedAt)), zone),
  }));
}

// ---------------------------------------------------------------------------------------------
// The care site dashboard from PatientStanding (issue 23): the cards from one pass over the
// site's covering index, the lists a page at a time. The statements above stay the reference
// they are checked against (tests/integration/dashboard-standing.test.ts) and what the daily
// summary reads.
// ---------------------------------------------------------------------------------------------

/** What a dashboard reads as of: its "as of" day and the instants [from, to) of its range. */
export type StandingWindow = { zone: string; asOf: string; from: number; to: number };

/** The window of a care site's dashboard: `asOf` (yesterday) and fromDay..toDay in its zone. */
export function standingWindow(
  zone: string,
  asOf: string,
  fromDay: string,
  toDay: string,
): StandingWindow {
  return { zone, asOf, ...instantRange(fromDay, toDay, zone) };
}

/** The score as of the day: the slot whose day it is (none: no score, "-"). */
const scoreAsOf = (asOf: string) => Prisma.sql`CASE
  WHEN s.day1 = ${asOf} THEN s.score1 WHEN s.day2 = ${asOf} THEN s.score2
  WHEN s.day3 = ${asOf} THEN s.score3 END`;

/** Missed 3 or more goal days as of the day: the newest slot on or before it. */
const missedAsOf = (asOf: string) => Prisma.sql`(CASE
  WHEN s.day1 <= ${asOf} THEN s.missed1 WHEN s.day2 <= ${asOf} THEN s.missed2
  WHEN s.day3 <= ${asOf} THEN s.missed3 ELSE false END)`;

/** A current pairing and no transmission ever. */
const never = Prisma.sql`(s.transmitted = false AND EXISTS (
  SELECT 1 FROM "Pairing" pr WHERE pr.patientId = s.patientId AND pr.unpairedAt IS NULL))`;

/**
 * A transmission that brought a therapy (and, `deviating`, one that deviated) was sent in the
 * range: told by the newest such instant or the newest before its day; only when the newest is
 * past the range and the one before does not tell, the transmissions are looked up.
 */
function sentInRange(w: StandingWindow, deviating: boolean) {
  const last = Prisma.raw(deviating ? "s.lastDeviatingAt" : "s.lastSentAt");
  const before = Prisma.raw(deviating ? "s.lastDeviatingBeforeAt" : "s.lastSentBeforeAt");
  const deviates = deviating ? Prisma.sql`AND t.deviatingTherapies > 0` : Prisma.empty;
  return Prisma.sql`((${last} >= ${w.from} AND ${last} < ${w.to})
    OR (${before} >= ${w.from} AND ${before} < ${w.to})
    OR (${last} >= ${w.to} AND EXISTS (SELECT 1 FROM "Transmission" t
      WHERE t.patientId = s.patientId AND t.sentAt >= ${w.from} AND t.sentAt < ${w.to}
        AND t.therapiesAccepted > 0 ${deviates})))`;
}

export type StandingCounts = {
  below75: number;
  below50: number;
  below25: number;
  missed: number;
  never: number;
  total: number;
  withDeviation: number;
  withoutDeviation: number;
};

/**
 * The cards kept per care site, window and standing version (StandingVersion, raised by triggers
 * whenever the site's PatientStanding rows or its patients' pairings change): a view of a big
 * site counts its 18,000 rows again only after something it counts changed. The version is read
 * before the counts, so counts are never older than the version they are kept under.
 */
const countsKept = new BoundedCache<StandingCounts>({ maxEntries: 2_000 });

/** Every card but "Update Therapy Goals", in one pass over the site's covering index. */
export async function standingCounts(careSiteId: string, w: StandingWindow) {
  const version = readRow<{ version: number }>(
    `SELECT "version" FROM "StandingVersion" WHERE "careSiteId" = ?`,
    careSiteId,
  )?.version;
  // No version yet (no standing row was ever written): nothing to keep counts under.
  if (version === undefined) return countStanding(careSiteId, w);
  const key = `${careSiteId} ${version} ${w.asOf} ${w.from} ${w.to}`;
  const kept = countsKept.get(key);
  if (kept) return kept;
  const counts = await countStanding(careSiteId, w);
  countsKept.set(key, counts);
  return counts;
}

async function countStanding(careSiteId: string, w: StandingWindow): Promise<StandingCounts> {
  const [row] = await readStanding<Record<string, unknown>[]>`
    SELECT
      SUM(CASE WHEN x.score < 0.75 THEN 1 ELSE 0 END) AS below75,
      SUM(CASE WHEN x.score < 0.5 THEN 1 ELSE 0 END) AS below50,
      SUM(CASE WHEN x.score < 0.25 THEN 1 ELSE 0 END) AS below25,
      SUM(x.missed) AS missed, SUM(x.never) AS never,
      SUM(x.sent) AS total, SUM(x.deviating) AS withDeviation
    FROM (
      SELECT ${scoreAsOf(w.asOf)} AS score,
        CASE WHEN ${missedAsOf(w.asOf)} THEN 1 ELSE 0 END AS missed,
        CASE WHEN ${never} THEN 1 ELSE 0 END AS never,
        CASE WHEN ${sentInRange(w, false)} THEN 1 ELSE 0 END AS sent,
        CASE WHEN ${sentInRange(w, true)} THEN 1 ELSE 0 END AS deviating
      FROM "PatientStanding" s WHERE s.careSiteId = ${careSiteId}
    ) x`;
  const n = (v: unknown) => Number(v ?? 0);
  return {
    below75: n(row.below75),
    below50: n(row.below50),
    below25: n(row.below25),
    missed: n(row.missed),
    never: n(row.never),
    total: n(row.total),
    withDeviation: n(row.withDeviation),
    withoutDeviation: n(row.total) - n(row.withDeviation),
  } satisfies StandingCounts;
}

/** Goals set in the range that replaced an earlier one, of the site's patients (TherapyGoal by createdAt). */
const goalChanges = (careSiteId: string, w: StandingWindow) => Prisma.sql`
  FROM "TherapyGoal" g
  JOIN "PatientStanding" s ON s.careSiteId = ${careSiteId} AND s.patientId = g.patientId
  WHERE g.createdAt >= ${w.from} AND g.createdAt < ${w.to}
    AND EXISTS (SELECT 1 FROM "TherapyGoal" e WHERE e.patientId = g.patientId
      AND (e.createdAt < g.createdAt OR (e.createdAt = g.createdAt AND e.id < g.id)))`;

/** "Update Therapy Goals": how many of the site's patients changed goal in the range. */
export async function goalChangeCount(careSiteId: string, w: StandingWindow) {
  const [row] = await readStanding<{ n: unknown }[]>`
    SELECT COUNT(DISTINCT g.patientId) AS n ${goalChanges(careSiteId, w)}`;
  return Number(row.n);
}

/** Those patients, their names and the instant of their latest change in the range. */
export function goalChangeRows(careSiteId: string, w: StandingWindow) {
  return readStanding<
    { patientId: string; firstName: string; lastName: string; changedAt: unknown }[]
  >`
    SELECT g.patientId AS patientId, s.firstName, s.lastName, MAX(g.createdAt) AS changedAt
    ${goalChanges(careSiteId, w)}
    GROUP BY g.patientId, s.firstName, s.lastName`;
}

export type StandingCategory =
  | "below75"
  | "below50"
  | "below25"
  | "missed"
  | "never"
  | "total"
  | "withoutDeviation"
  | "withDeviation";

function categoryWhere(category: StandingCategory, w: StandingWindow) {
  switch (category) {
    case "below75":
      return Prisma.sql`${scoreAsOf(w.asOf)} < 0.75`;
    case "below50":
      return Prisma.sql`${scoreAsOf(w.asOf)} < 0.5`;
    case "below25":
      return Prisma.sql`${scoreAsOf(w.asOf)} < 0.25`;
    case "missed":
      return missedAsOf(w.asOf);
    case "never":
      return never;
    case "total":
      return sentInRange(w, false);
    case "withDeviation":
      return sentInRange(w, true);
    case "withoutDeviation":
      // (CASE: a NULL instant makes the test NULL, and NOT NULL would drop the row)
      return Prisma.sql`${sentInRange(w, false)} AND NOT (CASE WHEN ${sentInRange(w, true)} THEN true ELSE false END)`;
  }
}

/** Transmissions of a patient in the range that brought a therapy (t: "Transmission"). */
const countedInRange = (w: StandingWindow) => Prisma.sql`
  FROM "Transmission" t WHERE t.patientId = s.patientId
    AND t.sentAt >= ${w.from} AND t.sentAt < ${w.to} AND t.therapiesAccepted > 0`;

export type StandingSort =
  "lastName" | "firstName" | "score" | "totalTransmission" | "deviation" | "deviationPercentage";

/**
 * The list's order, as the dashboard always sorted (dashboard.server.ts): the column (nulls
 * last in both directions), then last name and patient id ascending; a column the category does
 * not show sorts by last name.
 */
function orderOf(
  category: StandingCategory,
  sort: StandingSort,
  order: "asc" | "desc",
  w: StandingWindow,
) {
  const dir = Prisma.raw(order === "desc" ? "DESC" : "ASC");
  const byScore = category === "below75" || category === "below50" || category === "below25";
  const byStats =
    category === "total" || category === "withDeviation" || category === "withoutDeviation";
  const key = (expression: Prisma.Sql) =>
    Prisma.sql`(${expression}) IS NULL, (${expression}) ${dir}, s.lastName ASC, s.patientId ASC`;
  switch (sort) {
    case "lastName":
      return Prisma.sql`s.lastName ${dir}, s.patientId ASC`;
    case "firstName":
      return Prisma.sql`s.firstName ${dir}, s.lastName ASC, s.patientId ASC`;
    case "score":
      if (byScore) return key(scoreAsOf(w.asOf));
      break;
    case "totalTransmission":
      if (byStats) return key(Prisma.sql`SELECT COUNT(*) ${countedInRange(w)}`);
      break;
    case "deviation":
      if (byStats)
        return key(
          Prisma.sql`CASE WHEN EXISTS (SELECT 1 ${countedInRange(w)} AND t.deviatingTherapies > 0)
            THEN 'yes' ELSE 'no' END`,
        );
      break;
    case "deviationPercentage":
      if (byStats)
        return key(
          Prisma.sql`SELECT ROUND(SUM(t.deviatingTherapies) * 1.0 / SUM(t.therapiesAccepted) * 100)
            ${countedInRange(w)}`,
        );
      break;
  }
  return Prisma.sql`s.lastName ASC, s.patientId ASC`;
}

/** `%q%` for LIKE, with q's wildcards taken literally (ESCAPE '\'). */
const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type ListInput = {
  category: StandingCategory;
  /** lower-cased; matches "first last" */
  q: string;
  sort: StandingSort;
  order: "asc" | "desc";
};

function listWhere(careSiteId: string, input: ListInput, w: StandingWindow) {
  const search = input.q
    ? Prisma.sql`AND lower(s.firstName || ' ' || s.lastName) LIKE ${containsPattern(input.q)} ESCAPE '\\'`
    : Prisma.empty;
  return Prisma.sql`WHERE s.careSiteId = ${careSiteId} AND ${categoryWhere(input.category, w)} ${search}`;
}

/** How many rows a category's list has with a search (without one, the card says). */
export async function standingListTotal(careSiteId: string, input: ListInput, w: StandingWindow) {
  const [row] = await readStanding<{ n: unknown }[]>`
    SELECT COUNT(*) AS n FROM "PatientStanding" s ${listWhere(careSiteId, input, w)}`;
  return Number(row.n);
}

export type StandingRow = {
  patientId: string;
  firstName: string;
  lastName: string;
  score: number | null;
};

/** A page of a category's list (limit null: all of it, for the CSV), names from the row itself. */
export function standingListPage(
  careSiteId: string,
  input: ListInput,
  w: StandingWindow,
  page: { offset: number; limit: number | null },
) {
  const limit =
    page.limit === null ? Prisma.empty : Prisma.sql`LIMIT ${page.limit} OFFSET ${page.offset}`;
  return readStanding<StandingRow[]>`
    SELECT s.patientId, s.firstName, s.lastName, ${scoreAsOf(w.asOf)} AS score
    FROM "PatientStanding" s ${listWhere(careSiteId, input, w)}
    ORDER BY ${orderOf(input.category, input.sort, input.order, w)}
    ${limit}`;
}

/** Transmission figures of some patients over the range (only those with transmissions). */
export async function statsOf(patientIds: string[], w: StandingWindow) {
  const out: TransmissionStats[] = [];
  for (let i = 0; i < patientIds.length; i += 500) {
    const ids = patientIds.slice(i, i + 500);
    const rows = await readStanding<Record<keyof TransmissionStats, unknown>[]>`
      SELECT t.patientId AS patientId, COUNT(*) AS total,
        SUM(CASE WHEN t.deviatingTherapies > 0 THEN 1 ELSE 0 END) AS deviating,
        SUM(t.therapiesAccepted) AS therapies, SUM(t.deviatingTherapies) AS deviatingTherapies
      FROM "Transmission" t
      WHERE t.patientId IN (${Prisma.join(ids)}) AND t.sentAt >= ${w.from} AND t.sentAt < ${w.to}
        AND t.therapiesAccepted > 0
      GROUP BY t.patientId`;
    for (const r of rows)
      out.push({
        patientId: String(r.patientId),
        total: Number(r.total),
        deviating: Number(r.deviating),
        therapies: Number(r.therapies),
        deviatingTherapies: Number(r.deviatingTherapies),
      });
  }
  return out;
}

/** Photos and current pairings of the patients of a page. */
export async function pagePeople(patientIds: string[]) {
  if (patientIds.length === 0)
    return new Map<string, { photoId: string | null; pairId: string | null }>();
  const rows = await readStanding<{ id: string; photoId: string | null; pairId: string | null }[]>`
    SELECT u.id, u.photoId,
      (SELECT p.id FROM "Pairing" p WHERE p.patientId = u.id AND p.unpairedAt IS NULL LIMIT 1) AS pairId
    FROM "User" u WHERE u.id IN (${Prisma.join(patientIds)})`;
  return new Map(rows.map((r) => [r.id, { photoId: r.photoId, pairId: r.pairId }]));
}
