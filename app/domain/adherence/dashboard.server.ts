// The care site dashboard (spec 2 §2 "Care site dashboard", DESIGN.md §5 categories): the cards'
// counts and the patient list of each category, for one of the actor's care sites
// (access.server.ts memberCareSites); any other care site reads as absent (null: the route's 404).
import { memberCareSites, type Actor } from "~/domain/access.server";
import { toCsv } from "~/lib/csv";
import { prisma } from "~/lib/db.server";
import { PAGE_SIZE, pageCount, skipFor } from "~/lib/listParams";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { photoUrl } from "~/lib/photoUrl";
import { readRange } from "~/lib/dateRange";
import { formatDay } from "~/lib/time";
import {
  adherenceAsOf,
  careSiteTimeZone,
  goalsUpdated,
  missedThreeOrMore,
  neverTransmitted,
  sitePeople,
  transmissionStats,
} from "~/domain/adherence/sql/dashboard.server";
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

async function categoryRows(careSiteId: string, asOf: string, fromDay: string, toDay: string) {
  const [scores, missed, never, goals, stats] = await Promise.all([
    adherenceAsOf(careSiteId, asOf),
    missedThreeOrMore(careSiteId, asOf),
    neverTransmitted(careSiteId),
    goalsUpdated(careSiteId, fromDay, toDay),
    transmissionStats(careSiteId, fromDay, toDay),
  ]);
  const scored = scores.filter((s) => s.score !== null) as { patientId: string; score: number }[];
  const statRow = (s: (typeof stats)[number]) => ({
    patientId: s.patientId,
    totalTransmission: s.total,
    deviation: s.deviating > 0 ? ("yes" as const) : ("no" as const),
    deviationPercentage: s.therapies ? Math.round((s.deviatingTherapies / s.therapies) * 100) : 0,
  });
  const byCategory: Record<Category, Partial<Row>[]> = {
    below75: scored
      .filter((s) => s.score < 0.75)
      .map((s) => ({ patientId: s.patientId, score: s.score })),
    below50: scored
      .filter((s) => s.score < 0.5)
      .map((s) => ({ patientId: s.patientId, score: s.score })),
    below25: scored
      .filter((s) => s.score < 0.25)
      .map((s) => ({ patientId: s.patientId, score: s.score })),
    updatedGoals: goals.map((g) => ({ patientId: g.patientId, goalsUpdatedOn: g.changedOn })),
    missed: missed.map((m) => ({ patientId: m.patientId })),
    never: never.map((n) => ({ patientId: n.patientId })),
    // Per patient over the range (docs/decisions.md): each patient who transmitted is in exactly
    // one of With and Without, so Total = Without + With and the chip matches the list.
    total: stats.map(statRow),
    withDeviation: stats.filter((s) => s.deviating > 0).map(statRow),
    withoutDeviation: stats.filter((s) => s.deviating === 0).map(statRow),
  };
  return byCategory;
}

async function withPeople(careSiteId: string, rows: Partial<Row>[]): Promise<Row[]> {
  if (rows.length === 0) return [];
  const people = await sitePeople(careSiteId);
  const byId = new Map(people.map((p) => [p.id, p]));
  return rows.flatMap((r) => {
    const p = byId.get(r.patientId!);
    if (!p) return [];
    return [
      {
        ...r,
        patientId: p.id,
        firstName: p.firstName,
        lastName: p.lastName,
        photoId: p.photoId,
        pairId: p.pairId,
      } as Row,
    ];
  });
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

function sortRows(rows: Row[], sort: ListSort, order: "asc" | "desc") {
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

/** Whether the dashboard of this care site is the actor's to see. */
async function isMemberSite(actor: Actor, careSiteId: string) {
  const site = await prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, memberCareSites(actor)] },
    select: { id: true },
  });
  return site !== null;
}

/**
 * Everything the dashboard shows for one of the actor's care sites: counts, and the chosen
 * category's rows (searched, sorted, one page). Null for any other care site.
 */
export async function careSiteDashboard(actor: Actor, careSiteId: string, input: DashboardInput) {
  return (await isMemberSite(actor, careSiteId)) ? dashboardOf(careSiteId, input) : null;
}

/** The dashboard of a care site, unscoped: careSiteDashboard's work (and the benchmark's). */
export async function dashboardOf(careSiteId: string, input: DashboardInput) {
  const zone = await careSiteTimeZone(careSiteId);
  const now = input.now ?? new Date();
  const yesterday = yesterdayInZone(now, zone);
  const today = addDays(yesterday, 1);
  const range = readRange(input.search, yesterday, today);
  const byCategory = await categoryRows(
    careSiteId,
    yesterday,
    range.fromDay,
    range.toDay,
  );
  const counts = Object.fromEntries(CATEGORIES.map((c) => [c, byCategory[c].length])) as Record<
    Category,
    number
  >;
  let list = null;
  if (input.list) {
    const q = input.params.q.toLowerCase();
    const all = sortRows(
      (await withPeople(careSiteId, byCategory[input.list])).filter(
        (r) => !q || `${r.firstName} ${r.lastName}`.toLowerCase().includes(q),
      ),
      input.params.sort,
      input.params.order,
    );
    const page = Math.min(input.params.page, pageCount(all.length));
    list = {
      category: input.list,
      total: all.length,
      // Photo addresses and profile links only for the page shown (a list can hold thousands).
      rows: all
        .slice(skipFor(page), skipFor(page) + PAGE_SIZE)
        .map(({ photoId, pairId, ...r }) => ({
          ...r,
          photoUrl: photoUrl(photoId),
          href: pairId
            ? patientProfileHref({ profileId: r.patientId, clinicId: careSiteId, pairId })
            : null,
          scorePercent: r.score === undefined ? undefined : scorePercent(r.score ?? null),
          goalsUpdatedOn: r.goalsUpdatedOn ? formatDay(r.goalsUpdatedOn, "dd-MMM-yyyy") : undefined,
        })),
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
  return (await isMemberSite(actor, careSiteId))
    ? dashboardCsvOf(careSiteId, category, search)
    : null;
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
  const byCategory = await categoryRows(careSiteId, yesterday, range.fromDay, range.toDay);
  const rows = sortRows(await withPeople(careSiteId, byCategory[category]), "lastName", "asc").map(
    (r) => ({
      ...r,
      scorePercent: r.score === undefined ? undefined : scorePercent(r.score ?? null),
      goalsUpdatedOn: r.goalsUpdatedOn ? formatDay(r.goalsUpdatedOn, "dd-MMM-yyyy") : undefined,
    }),
  );
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
