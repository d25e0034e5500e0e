// Everything the patient profile page shows, for a profile findProfile allowed: the header, the
// adherence section, the therapy of a chosen day, the trends over a range and the goals, with the
// charts rendered to SVG here (ui/charts) so the page needs no JavaScript to show them.
import { createHash } from "node:crypto";
import { BoundedCache } from "~/lib/boundedCache";
import { readRange } from "~/lib/dateRange";
import { ROLE_NAMES } from "~/domain/roles";
import { photoUrl } from "~/lib/photoUrl";
import { dayInZone, yesterdayInZone } from "~/lib/time";
import { formatDayMonthYear } from "~/ui/charts/days";
import { formatHeight, formatWeight, type MeasuringUnit } from "~/lib/units";
import {
  adherenceCalendarSvg,
  adherenceGaugeSvg,
  cycleChartSvg,
  cycleTrendChartsSvg,
  hmrChartSvg,
  scoreHistorySvg,
  trendChartsSvg,
} from "~/ui/charts/svg.server";
import { keepOutOfHydration } from "~/ui/charts/hydration.server";
import { addDays, dayMapper, dayRange, scorePercent } from "~/domain/adherence/score";
import type { PatientReportData } from "~/domain/reports/patientReport";
import { FIRST_THERAPY_DAY, formatPhone } from "~/domain/patients/schema";
import { profileZone, type FoundProfile } from "./profile.server";
import {
  adherenceDays,
  adherenceSeries,
  getLatestNote,
  getPatient,
  latestTherapyDay,
  listGoals,
  therapiesOnDay,
  therapySummary,
  therapyVersion,
  trendCyclesOfDay,
  trendDays,
} from "./profileQueries.server";
import type { AdherenceSeriesRow } from "./sql.server";

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

// A formatter per zone, made once: making one costs more than formatting with it.
const clocks = new Map<string, Intl.DateTimeFormat>();
const time = (instant: Date, zone: string) => {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    clocks.set(zone, clock);
  }
  return clock.format(instant);
};

/** "dd-MMM-yyyy", as formatDay(day, "dd-MMM-yyyy") writes it (tests/unit/chart-shape.test.ts). */
const dmy = formatDayMonthYear;

/** The 7 days of the bar calendar (D-6..today, today provisional) and the range's graphs. */
export async function loadProfileView(
  found: FoundProfile,
  unit: MeasuringUnit,
  search: URLSearchParams,
  now = new Date(),
) {
  const zone = profileZone(found);
  // The zone's days through its kept day mapper (adherence/score.ts): a zone's day boundaries are
  // worked out once, not on every date of the page.
  const dayOf = dayMapper(zone);
  const today = dayOf(now.getTime());
  const yesterday = addDays(today, -1);
  const range = readRange(search, yesterday, today, ["week", "month"]);
  // The therapy day asked for, else the day of the latest therapy (today without any).
  const askedDay = search.get("day") ?? "";
  // Therapy reads are kept per version of the patient's transmissions (profileQueries.server.ts).
  const version = await therapyVersion(found.patientId);
  const day =
    DAY_RE.test(askedDay) && askedDay >= FIRST_THERAPY_DAY && askedDay <= today
      ? askedDay
      : ((await latestTherapyDay(found.patientId, zone, today, version)) ?? today);
  const trendDay = search.get("trendDay") ?? "";

  // The calendar's 7 days in full; the graph range only as its two charts' values.
  const calendarFrom = addDays(today, -6);
  const [patient, note, goals, calendarRows, series, therapies, trends] = await Promise.all([
    getPatient(found.patientId),
    getLatestNote(found.patientId),
    listGoals(found.patientId),
    adherenceDays(found.patientId, calendarFrom, today),
    adherenceSeries(found.patientId, range.fromDay, range.toDay),
    therapiesOnDay(found.patientId, zone, day, version),
    trendDays(found.patientId, zone, range.fromDay, range.toDay, version),
  ]);
  const seriesCharts = adherenceSeriesCharts(range.fromDay, range.toDay, series);
  const drillDown =
    DAY_RE.test(trendDay) && trendDay >= range.fromDay && trendDay <= range.toDay
      ? await trendCyclesOfDay(found.patientId, zone, trendDay)
      : null;

  const byDay = new Map(calendarRows.map((r) => [r.day, r]));
  const calendar = dayRange(calendarFrom, today).map((d) => {
    const r = byDay.get(d);
    return {
      day: d,
      isGoalDay: r?.isGoalDay ?? false,
      timesPerDay: r?.timesPerDay ?? null,
      completed: r?.completed ?? 0,
      today: d === today,
    };
  });
  const yesterdayRow = byDay.get(yesterday);
  const score = yesterdayRow?.score ?? null;

  const selected = therapies.find((t) => t.id === search.get("therapy")) ?? therapies[0] ?? null;
  const cycleChart = cycleChartSvg(
    selected
      ? {
          mode: selected.mode,
          prescribedCycles: selected.prescribedCycles,
          cyclesDelivered: selected.cyclesDelivered,
          settings: {
            pauseP: selected.pauseP,
            inspP: selected.inspP,
            expP: selected.expP,
            oscillation: selected.oscillation,
          },
          cycles: selected.cycles,
        }
      : null,
  );
  const p = patient.profile;

  return {
    zone,
    today,
    asOf: dmy(yesterday),
    careSite: found.careSite,
    /** Goals are set on the current pairing: without one the button is disabled. */
    pairId: patient.currentPairing?.id ?? null,
    patient: {
      id: patient.id,
      firstName: patient.firstName,
      lastName: patient.lastName,
      photoUrl: photoUrl(patient.photoId),
      patientTag: p?.patientTag ?? "",
      deviceSerial: patient.currentPairing?.serial ?? null,
      accepted: patient.status === "active",
      statusText: patient.status === "active" ? "ACTIVE" : "INACTIVE",
      health: {
        height: formatHeight(p?.heightIn, unit),
        weight: formatWeight(p?.weightLb, unit),
        gender: p?.gender ?? "-",
        bloodType: p?.bloodType ?? "-",
        conditions: [p?.existingCondition1, p?.existingCondition2, p?.existingCondition3].filter(
          (c): c is string => Boolean(c),
        ),
        allergies: [p?.allergy1, p?.allergy2, p?.allergy3].filter((c): c is string => Boolean(c)),
      },
      personal: {
        address: [
          patient.addressLine1,
          patient.addressLine2,
          [patient.city, [patient.state, patient.zip].filter(Boolean).join(" ")]
            .filter(Boolean)
            .join(", "),
          patient.country,
        ].filter((line): line is string => Boolean(line)),
        dateOfBirth: p?.dateOfBirth ? dmy(p.dateOfBirth) : "-",
        phone: formatPhone(patient.phone),
        email: patient.email,
      },
    },
    note: note
      ? {
          body: note.body,
          at: dmy(dayOf(note.createdAt.getTime())),
          by: note.author ? `${note.author.firstName} ${note.author.lastName}` : null,
        }
      : null,
    adherence: {
      percent: scorePercent(score),
      gaugeSvg: adherenceGaugeSvg(score),
      calendarSvg: adherenceCalendarSvg(calendar),
      calendar: calendar.map((c) => ({
        day: dmy(c.day),
        text: calendarText(c),
      })),
      historySvg: seriesCharts.historySvg,
    },
    therapy: {
      day,
      dayText: dmy(day),
      therapies: therapies.map((t) => ({
        id: t.id,
        time: time(t.startedAt, zone),
        mode: t.mode,
        cycles: `${t.cyclesDelivered} of ${t.prescribedCycles}`,
        completed: t.completed,
        deviates: t.deviates,
      })),
      selectedId: selected?.id ?? null,
      chart: cycleChart,
    },
    trends: {
      range,
      charts: trendChartsSvg(trends),
      days: trends
        .filter((t) => t.peakFlow !== null)
        .map((t) => ({ day: t.day, text: dmy(t.day) })),
      drillDown: drillDown
        ? { day: trendDay, text: dmy(trendDay), charts: cycleTrendChartsSvg(drillDown) }
        : null,
      hmrSvg: seriesCharts.hmrSvg,
    },
    goals: goals.map((g) => ({
      id: g.id,
      timesPerDay: g.timesPerDay,
      days: g.days,
      status: g.active ? "Active" : "Inactive",
      createdBy: g.createdBy ?? "-",
      createdOn: dmy(dayOf(g.createdAt.getTime())),
    })),
  };
}

/**
 * The range's Adherence Score History and HMR charts, kept by their exact input (the range and its
 * DailyAdherence values): two years are 730 days to shape and hash per chart on every view, and a
 * recomputed day changes the values and so the key, so nothing kept is ever stale. Bounded by
 * markup size; the strings are mostly the chart cache's own (ui/charts/svg.server.tsx).
 */
export const adherenceSeriesCache = new BoundedCache<{ historySvg: string; hmrSvg: string }>(
  { maxEntries: 500, maxWeight: 2_000_000 },
  (charts) => charts.historySvg.length + charts.hmrSvg.length,
);

function adherenceSeriesCharts(
  fromDay: string,
  toDay: string,
  series: readonly AdherenceSeriesRow[],
) {
  const key = createHash("sha1")
    .update(`${fromDay}|${toDay}|${JSON.stringify(series)}`)
    .digest("base64url");
  return adherenceSeriesCache.getOrSet(key, () => {
    const byDay = new Map(series.map((r) => [r[0], r]));
    const days = dayRange(fromDay, toDay);
    return {
      historySvg: scoreHistorySvg(days.map((d) => ({ day: d, score: byDay.get(d)?.[1] ?? null }))),
      hmrSvg: hmrChartSvg(days.map((d) => ({ day: d, maxHmr: byDay.get(d)?.[2] ?? null }))),
    };
  });
}

/** A calendar day in words; today's goal is in progress until the care site's day ends. */
function calendarText(c: {
  isGoalDay: boolean;
  timesPerDay: number | null;
  completed: number;
  today: boolean;
}) {
  if (!c.isGoalDay) return `${c.completed}, no goal`;
  const inProgress = c.today && c.completed < (c.timesPerDay ?? 0);
  return `${c.completed} of ${c.timesPerDay}${inProgress ? ", in progress" : ""}`;
}

export type ProfileView = Awaited<ReturnType<typeof loadProfileView>>;

/**
 * For a page load: the view's chart markup in the HTML only, not again in its hydration data
 * (ui/charts/hydration.server.ts).
 */
export function chartsInMarkupOnly(view: ProfileView) {
  keepOutOfHydration(view.adherence, ["gaugeSvg", "calendarSvg", "historySvg"]);
  keepOutOfHydration(view.therapy.chart, ["svg"]);
  keepOutOfHydration(view.trends.charts, ["peakFlow", "expVolume", "peakInspP"]);
  keepOutOfHydration(view.trends, ["hmrSvg"]);
  if (view.trends.drillDown) {
    keepOutOfHydration(view.trends.drillDown.charts, ["peakFlow", "expVolume", "peakInspP"]);
  }
  return view;
}

/** The adherence rule the reports state (DESIGN.md §5), in one sentence. */
export const ADHERENCE_RULE =
  "Day adherence = therapies completed / therapies per day (at most 100 %) on the goal's days; " +
  "the adherence score of a day is the mean of the 7 days up to it, weighted 7 for that day down " +
  "to 1 for six days before, over goal days only; a therapy is completed when it delivered all " +
  "its prescribed cycles.";

/** Who generated a report, as the reports print it: "First Last (Clinician)". */
export function reportAuthor(viewer: { firstName: string; lastName: string; role: string }) {
  return `${viewer.firstName} ${viewer.lastName} (${ROLE_NAMES[viewer.role] ?? viewer.role})`;
}

/** The patient PDF's data over the profile's graph range (week, month or From/To). */
export async function loadReportData(
  found: FoundProfile,
  viewer: { firstName: string; lastName: string; role: string; measuringUnit: string },
  search: URLSearchParams,
  now = new Date(),
): Promise<{ data: PatientReportData; error: string | null }> {
  const zone = profileZone(found);
  const range = readRange(search, yesterdayInZone(now, zone), dayInZone(now, zone), [
    "week",
    "month",
  ]);
  const unit = viewer.measuringUnit as MeasuringUnit;
  const [patient, goals, rows, trends, summary] = await Promise.all([
    getPatient(found.patientId),
    listGoals(found.patientId),
    adherenceDays(found.patientId, range.fromDay, range.toDay),
    trendDays(found.patientId, zone, range.fromDay, range.toDay),
    therapySummary(found.patientId, zone, range.fromDay, range.toDay),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days = trends.map((t) => {
    const r = byDay.get(t.day);
    return {
      ...t,
      isGoalDay: r?.isGoalDay ?? false,
      timesPerDay: r?.timesPerDay ?? null,
      therapies: r?.therapies ?? 0,
      completed: r?.completed ?? 0,
      dayAdherence: r?.dayAdherence ?? null,
      score: r?.score ?? null,
      maxHmr: r?.maxHmr ?? null,
    };
  });
  const p = patient.profile;
  const withTherapy = days.filter((d) => d.therapies > 0).length;
  return {
    error: range.error,
    data: {
      generatedAt: now,
      generatedBy: reportAuthor(viewer),
      timeZone: zone,
      window: { fromDay: range.fromDay, toDay: range.toDay },
      adherenceRule: ADHERENCE_RULE,
      patient: {
        firstName: patient.firstName,
        lastName: patient.lastName,
        patientTag: p?.patientTag ?? null,
        dateOfBirth: p?.dateOfBirth ?? null,
        email: patient.email,
        phone: formatPhone(patient.phone),
        careSiteName: found.careSite?.name ?? null,
        deviceSerial: patient.currentPairing?.serial ?? null,
        status: patient.status === "active" ? "ACTIVE" : "INACTIVE",
        height: formatHeight(p?.heightIn, unit),
        weight: formatWeight(p?.weightLb, unit),
      },
      goals,
      currentScore: byDay.get(range.toDay)?.score ?? null,
      days,
      summary: {
        therapies: summary.therapies,
        completed: summary.completed,
        deviating: summary.deviating,
        daysWithTherapy: withTherapy,
        daysWithoutTherapy: days.length - withTherapy,
        averageCyclesPerTherapy: summary.averageCyclesPerTherapy,
        transmissions: summary.transmissions,
      },
    },
  };
}
