// The summary of a cough log (DEVICE-LOG-FORMAT.md "Summary of a cough log"), optionally within
// a From-To range of therapy dates. Numbers are unrounded and a missing value is null, as in the
// command line's JSON; formatSummaryValue gives the two-decimal, N/A form of the tables.
import { dayBounds, dayNumber, formatDayDmy, isRealDay, stampDay, type DayRange } from "./calendar";
import type { CoughLogModel } from "./model";

export type LogSummary = {
  totalTherapies: number;
  /** DD-MM-YYYY */
  firstTherapyAt: string | null;
  lastTherapyAt: string | null;
  average_NC: number | null;
  average_EV: number | null;
  sdExpVol: number | null;
  average_PF: number | null;
  sdExpFlow: number | null;
  average_Therapy: number | null;
  sdTherapiesPerDay: number | null;
  noDaysWithoutTherapy: number | null;
  HMR: number | null;
  usageHMR: number | null;
};

/** Running mean and sample standard deviation (Welford: no catastrophic cancellation). */
class Moments {
  n = 0;
  private mean = 0;
  private m2 = 0;
  add(x: number) {
    if (Number.isNaN(x)) return;
    this.n += 1;
    const delta = x - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (x - this.mean);
  }
  average() {
    return this.n === 0 ? null : this.mean;
  }
  /** Divides by n-1; 0 when n < 2, null without values. */
  sampleSd() {
    return this.n === 0 ? null : this.n < 2 ? 0 : Math.sqrt(this.m2 / (this.n - 1));
  }
}

/**
 * Which therapies a range selects, by the date of their Time Stamp, From and To inclusive. Dates
 * compare as their digits, so a therapy stamped with an impossible date (a device clock fault)
 * is still selected by where its digits fall.
 */
export function therapiesInRange(model: CoughLogModel, range: DayRange = {}) {
  const { from, to } = dayBounds(range);
  const t = model.therapies;
  const selected = new Uint8Array(t.eventId.length);
  for (let i = 0; i < selected.length; i++) {
    const day = stampDay(t.stamp.get(i));
    if (day >= from && day <= to) selected[i] = 1;
  }
  return selected;
}

export function summarize(model: CoughLogModel, range: DayRange = {}): LogSummary {
  const selected = therapiesInRange(model, range);
  const t = model.therapies;
  let totalTherapies = 0;
  const cyclesPerTherapy = new Moments();
  // Therapies per real calendar day; an impossible date has no place among the days.
  const perDay = new Map<number, number>();
  let firstDay = Infinity;
  let lastDay = -Infinity;
  for (let i = 0; i < selected.length; i++) {
    if (!selected[i]) continue;
    totalTherapies += 1;
    cyclesPerTherapy.add(t.N_C.get(i));
    const day = stampDay(t.stamp.get(i));
    if (!isRealDay(day)) continue;
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
    if (day < firstDay) firstDay = day;
    if (day > lastDay) lastDay = day;
  }

  const expVol = new Moments();
  const expFlow = new Moments();
  const c = model.cycles;
  for (let i = 0; i < c.therapy.length; i++) {
    if (!selected[c.therapy.get(i)]) continue;
    expVol.add(c.E_V.get(i));
    expFlow.add(c.P_F.get(i));
  }

  let average_Therapy: number | null = null;
  let sdTherapiesPerDay: number | null = null;
  let noDaysWithoutTherapy: number | null = null;
  if (perDay.size > 0) {
    const days = dayNumber(lastDay) - dayNumber(firstDay) + 1;
    let placed = 0;
    for (const count of perDay.values()) placed += count;
    const mean = placed / days;
    noDaysWithoutTherapy = days - perDay.size;
    // Days without therapy each add (0 - mean)^2 to the sum of squares.
    let squares = noDaysWithoutTherapy * mean * mean;
    for (const count of perDay.values()) squares += (count - mean) ** 2;
    average_Therapy = mean;
    sdTherapiesPerDay = days < 2 ? 0 : Math.sqrt(squares / (days - 1));
  }

  // HMR readings count by their own date; first and last in the order the device wrote them.
  const { from, to } = dayBounds(range);
  let firstHmr: number | null = null;
  let lastHmr: number | null = null;
  const hmr = model.hmr;
  for (let i = 0; i < hmr.value.length; i++) {
    const day = stampDay(hmr.stamp.get(i));
    if (day < from || day > to) continue;
    firstHmr ??= hmr.value.get(i);
    lastHmr = hmr.value.get(i);
  }

  return {
    totalTherapies,
    firstTherapyAt: perDay.size > 0 ? formatDayDmy(firstDay) : null,
    lastTherapyAt: perDay.size > 0 ? formatDayDmy(lastDay) : null,
    average_NC: cyclesPerTherapy.average(),
    average_EV: expVol.average(),
    sdExpVol: expVol.sampleSd(),
    average_PF: expFlow.average(),
    sdExpFlow: expFlow.sampleSd(),
    average_Therapy,
    sdTherapiesPerDay,
    noDaysWithoutTherapy,
    HMR: lastHmr,
    usageHMR: firstHmr === null || lastHmr === null ? null : lastHmr - firstHmr,
  };
}

const rangeKey = (range: DayRange) => `${range.from ?? ""}|${range.to ?? ""}`;
/** A model's summaries by range, the newest few (a summary reads every cycle of the log). */
const keptSummaries = new WeakMap<CoughLogModel, Map<string, LogSummary>>();
const KEPT_RANGES = 8;

/** Summaries computed by summaryOf on this thread, not found kept (tests read it). */
export const summaryCounts = { computed: 0 };

/** Keeps a model's summary of a range (the decrypt worker computes the first one). */
export function keepSummary(model: CoughLogModel, range: DayRange, summary: LogSummary) {
  let kept = keptSummaries.get(model);
  if (!kept) keptSummaries.set(model, (kept = new Map()));
  kept.delete(rangeKey(range));
  kept.set(rangeKey(range), summary);
  if (kept.size > KEPT_RANGES) kept.delete(kept.keys().next().value!);
}

/**
 * summarize, kept per model and range: a dashboard's every page (the table's, the graph's) and
 * its report show the same summary, which costs a pass over every cycle of the log. Callers must
 * not change what it gives.
 */
export function summaryOf(model: CoughLogModel, range: DayRange = {}): LogSummary {
  const kept = keptSummaries.get(model)?.get(rangeKey(range));
  if (kept) return kept;
  summaryCounts.computed += 1;
  const summary = summarize(model, range);
  keepSummary(model, range, summary);
  return summary;
}

/** The summary's counts (DEVICE-LOG-FORMAT.md): shown as whole numbers. */
export const SUMMARY_COUNTS: readonly (keyof LogSummary)[] = [
  "totalTherapies",
  "noDaysWithoutTherapy",
];

/** A summary cell: two decimals for numbers, N/A for a missing value, dates as they are. */
export function formatSummaryValue(value: number | string | null) {
  if (value === null) return "N/A";
  return typeof value === "number" ? value.toFixed(2) : value;
}

/**
 * One field of the summary as the dashboard's table and the compliance PDF show it: counts as
 * whole numbers, averages, deviations and hours with two decimals, N/A when missing.
 */
export function formatSummaryField(summary: LogSummary, key: keyof LogSummary) {
  const value = summary[key];
  if (typeof value === "number" && SUMMARY_COUNTS.includes(key)) return String(Math.round(value));
  return formatSummaryValue(value);
}
