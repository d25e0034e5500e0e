// The care site dashboard (spec 2 §2 "Care site dashboard", DESIGN.md §5 categories): the cards'
// counts and the patient list of each category, for one of the actor's care sites
// (access.server.ts memberCareSites); any other care site reads as absent (null: the route's 404).
import { siteRoleAt, type Actor } from "~/domain/access.server";
import { toCsv } from "~/lib/csv";
import { PAGE_SIZE, pageCount, skipFor } from "~/lib/listParams";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { photoUrl } from "~/lib/photoUrl";
import { readRange } from "~/lib/dateRange";
import { dayInZone, formatDay } from "~/lib/time";
import {
  careSiteTimeZone,
  goalChangeCount,
  goalChangeRows,
  pagePeople,
  standingCounts,
  standingListPage,
  standingListTotal,
  standingWindow,
  statsOf,
  type StandingSort,
  type TransmissionStats,
} from "~/domain/adherence/sql/dashboard.server";
import { toMs } from "~/domain/adherence/sql/rows";
import { addDays, scorePercent } from "~/domain/adherence/score";
import { yesterdayInZone } from "~/lib/time";

export const CATEGORIES = [
  "below75",
  "below50",
  "below25",
  "updatedGoals",
  "missed",
  "never",
  "total",
  "withoutDeviation",
  "withDeviation",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  below75: "Adherence below 75%",
  below50: "Adherence below 50%",
  below25: "Adherence below 25%",
  updatedGoals: "Update Therapy Goals",
  missed: "Missed 3 or more days",
  never: "Never Transmitted",
  total: "Total Transmission",
  withoutDeviation: "Transmission Without Deviations",
  withDeviation: "Transmission With Deviations",
};

type Row = {
  patientId: string;
  firstName: string;
  lastName: string;
  photoId: string | null;
  pairId: string | null;
  score?: number | null;
  goalsUpdatedOn?: string;
  totalTransmission?: number;
  deviation?: "yes" | "no";
  deviationPercentage?: number;
};

type Window = ReturnType<typeof standingWindow>;

/** The cards: one pass over the site's PatientStanding index, and the goal changes of the range. */
async function cardCounts(careSiteId: string, w: Window): Promise<Record<Category, number>> {
  const [counts, updatedGoals] = await Promise.all([
    standingCounts(careSiteId, w),
    goalChangeCount(careSiteId, w),
  ]);
  return { ...counts, updatedGoals };
}

const statRow = (s: TransmissionStats) => ({
  totalTransmission: s.total,
  deviation: s.deviating > 0 ? ("yes" as const) : ("no" as const),
  deviationPercentage: s.therapies ? Math.round((s.deviatingTherapies / s.therapies) * 100) : 0,
});

const STAT_CATEGORIES: readonly Category[] = ["total", "withDeviation", "withoutDeviation"];
const SCORE_CATEGORIES: readonly Category[] = ["below75", "below50", "below25"];

/**
 * A category's rows in the list's order: a page (limit) or all of them (limit null, the CSV),
 * with what the category shows. "Update Therapy Goals" (a few patients a range) is read whole
 * and sorted here; every other category is ordered and paged in SQL over PatientStanding.
 */
async function categoryList(
  careSiteId: string,
  category: Category,
  w: Window,
  list: { q: string; sort: ListSort; order: "asc" | "desc" },
  page: { offset: number; limit: number | null },
  knownTotal: number | null,
): Promise<{ total: number; rows: Omit<Row, "photoId" | "pairId">[] }> {
  if (category === "updatedGoals") {
    const zone = w.zone;
    const all = sortRows(
      (await goalChangeRows(careSiteId, w))
        .map((g) => ({
          patientId: g.patientId,
          firstName: g.firstName,
          lastName: g.lastName,
          goalsUpdatedOn: dayInZone(new Date(toMs(g.changedAt)), zone),
        }))
        .filter((r) => !list.q || `${r.firstName} ${r.lastName}`.toLowerCase().includes(list.q)),
      list.sort,
      list.order,
    );
    const end = page.limit === null ? undefined : page.offset + page.limit;
    return { total: all.length, rows: all.slice(page.offset, end) };
  }
  const input = {
    category,
    q: list.q,
    sort: (list.sort === "goalsUpdatedOn" ? "lastName" : list.sort) as StandingSort,
    order: list.sort === "goalsUpdatedOn" ? ("asc" as const) : list.order,
  };
  const total =
    knownTotal !== null && !list.q ? knownTotal : await standingListTotal(careSiteId, input, w);
  const rows = total === 0 ? [] : await standingListPage(careSiteId, input, w, page);
  const stats = STAT_CATEGORIES.includes(category)
    ? new Map(
        (
          await statsOf(
            rows.map((r) => r.patientId),
            w,
          )
        ).map((s) => [s.patientId, s]),
      )
    : null;
  return {
    total,
    rows: rows.map((r) => ({
      patientId: r.patientId,
      firstName: r.firstName,
      lastName: r.lastName,
      ...(SCORE_CATEGORIES.includes(category)
        ? { score: r.score === null ? null : Number(r.score) }
        : {}),
      ...(stats ? statRow(stats.get(r.patientId)!) : {}),
    })),
  };
}

export const LIST_SORTS = [
  "lastName",
  "firstName",
  "score",
  "goalsUpdatedOn",
  "totalTransmission",
  "deviation",
  "deviationPercentage",
] as const;
export type ListSort = (typeof LIST_SORTS)[number];

function sortRows<R extends Omit<Row, "photoId" | "pairId">>(
  rows: R[],
  sort: ListSort,
  order: "asc" | "desc",
) {
  const dir = order === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[sort] ?? null;
    const y = b[sort] ?? null;
    if (x === y)
      return a.lastName.localeCompare(b.lastName) || a.patientId.localeCompare(b.patientId);
    if (x === null) return 1;
    if (y === null) return -1;
    return (
      (typeof x === "number" && typeof y === "number"
        ? x - y
        : String(x).localeCompare(String(y))) * dir
    );
  });
}

type DashboardInput = {
  search: URLSearchParams;
  list: Category | null;
  params: { q: string; sort: ListSort; order: "asc" | "desc"; page: number };
  now?: Date;
};

/**
 * Whether the dashboard of this care site is the actor's to see: one of their member care sites
 * (access.server.ts; the Actor holds their accepted memberships at active care sites, read for
 * this request), so the page asks the database nothing more for it.
 */
function isMemberSite(actor: Actor, careSiteId: string) {
  return siteRoleAt(actor, careSiteId) !== null;
}

/**
 * Everything the dashboard shows for one of the actor's care sites: counts, and the chosen
 * category's rows (searched, sorted, one page). Null for any other care site.
 */
export async function careSiteDashboard(actor: Actor, careSiteId: string, input: DashboardInput) {
  return isMemberSite(actor, careSiteId) ? dashboardOf(careSiteId, input) : null;
}

/** The dashboard of a care site, unscoped: careSiteDashboard's work (and the benchmark's). */
export async function dashboardOf(careSiteId: string, input: DashboardInput) {
  const zone = await careSiteTimeZone(careSiteId);
  const now = input.now ?? new Date();
  const yesterday = yesterdayInZone(now, zone);
  const today = addDays(yesterday, 1);
  const range = readRange(input.search, yesterday, today);
  const w = standingWindow(zone, yesterday, range.fromDay, range.toDay);
  const counts = await cardCounts(careSiteId, w);
  let list = null;
  if (input.list) {
    const q = input.params.q.toLowerCase();
    const listParams = { q, sort: input.params.sort, order: input.params.order };
    const known = counts[input.list];
    // The total first (a search narrows it), then the page, clamped to the last one.
    const { total } = q
      ? await categoryList(careSiteId, input.list, w, listParams, { offset: 0, limit: 0 }, null)
      : { total: known };
    const page = Math.min(input.params.page, pageCount(total));
    const { rows } = await categoryList(
      careSiteId,
      input.list,
      w,
      listParams,
      { offset: skipFor(page), limit: PAGE_SIZE },
      total,
    );
    // Photos and profile links only for the page shown.
    const people = await pagePeople(rows.map((r) => r.patientId));
    list = {
      category: input.list,
      total,
      rows: rows.map((r) => {
        const { photoId = null, pairId = null } = people.get(r.patientId) ?? {};
        return {
          ...r,
          photoUrl: photoUrl(photoId),
          href: pairId
            ? patientProfileHref({ profileId: r.patientId, clinicId: careSiteId, pairId })
            : null,
          scorePercent: r.score === undefined ? undefined : scorePercent(r.score ?? null),
          goalsUpdatedOn: r.goalsUpdatedOn ? formatDay(r.goalsUpdatedOn, "dd-MMM-yyyy") : undefined,
        };
      }),
      page,
    };
  }
  return {
    asOf: formatDay(yesterday),
    today,
    range,
    counts,
    list,
  };
}

const CSV_FIELDS: Record<Category, { label: string; value: keyof Row | "scorePercent" }[]> = {
  below75: [],
  below50: [],
  below25: [],
  updatedGoals: [{ label: "Goals Updated on", value: "goalsUpdatedOn" }],
  missed: [],
  never: [],
  total: [],
  withoutDeviation: [],
  withDeviation: [],
};
for (const c of ["below75", "below50", "below25"] as const)
  CSV_FIELDS[c] = [{ label: "Adherence Score (%)", value: "scorePercent" }];
for (const c of ["total", "withDeviation"] as const) {
  CSV_FIELDS[c] = [
    { label: "Total transmission", value: "totalTransmission" },
    { label: "Deviation", value: "deviation" },
    { label: "Deviation Percentage", value: "deviationPercentage" },
  ];
}
CSV_FIELDS.withoutDeviation = [
  { label: "Total transmission", value: "totalTransmission" },
  { label: "Deviation", value: "deviation" },
];

/**
 * The whole list of a category as CSV (no ids, photos or pairings: spec 2 §9), and its file name,
 * for one of the actor's care sites; null for any other.
 */
export async function dashboardCsv(
  actor: Actor,
  careSiteId: string,
  category: Category,
  search: URLSearchParams,
) {
  return isMemberSite(actor, careSiteId) ? dashboardCsvOf(careSiteId, category, search) : null;
}

/** A category's CSV of a care site, unscoped: dashboardCsv's work (and the benchmark's). */
export async function dashboardCsvOf(
  careSiteId: string,
  category: Category,
  search: URLSearchParams,
) {
  const zone = await careSiteTimeZone(careSiteId);
  const yesterday = yesterdayInZone(new Date(), zone);
  const range = readRange(search, yesterday, addDays(yesterday, 1));
  const w = standingWindow(zone, yesterday, range.fromDay, range.toDay);
  const list = await categoryList(
    careSiteId,
    category,
    w,
    { q: "", sort: "lastName", order: "asc" },
    { offset: 0, limit: null },
    null,
  );
  const rows = list.rows.map((r) => ({
    ...r,
    scorePercent: r.score === undefined ? undefined : scorePercent(r.score ?? null),
    goalsUpdatedOn: r.goalsUpdatedOn ? formatDay(r.goalsUpdatedOn, "dd-MMM-yyyy") : undefined,
  }));
  const csv = toCsv(rows, {
    fields: [
      { label: "Last Name", value: "lastName" },
      { label: "First Name", value: "firstName" },
      ...CSV_FIELDS[category],
    ],
  });
  const name = CATEGORY_LABELS[category].replace(/[^A-Za-z0-9]+/g, "_").replace(/_+$/, "");
  return { csv, fileName: `${name}_${range.fromDay}_${range.toDay}.csv` };
}
