// The patient profile's line charts as plain data (spec 3 §2.2, §2.4): every series point with its
// gaps, every tick and caption. LineChart.tsx draws exactly this.
import { shapeAdherenceGauge } from "./adherenceShape";
import { CHART_COLORS } from "./colors";
import { formatDayMonth } from "./days";
import { valueScale, type Scale, type ValueAxisOptions } from "./scale";

/* ------------------------------------------------------------------------------------------ */
/* Line charts: therapy trends (§2.2), cycle drill-down, HMR, adherence score history          */
/* ------------------------------------------------------------------------------------------ */

/** §2.4: "Trend charts use a tick amount of 15". */
export const MAX_X_TICKS = 15;

export type TrendDayInput = {
  day: string;
  peakFlow: number | null;
  expVolume: number | null;
  peakInspP: number | null;
};

export type CycleTrendInput = {
  time: string;
  peakFlow: number | null;
  expVolume: number | null;
  peakInspP: number | null;
};

export type HmrDayInput = { day: string; maxHmr: number | null };
export type ScoreDayInput = { day: string; score: number | null };

export type LinePoint = {
  /** A unique key on the x axis (the day, or the cycle's position in the day). */
  x: string;
  /** null is a gap: the line breaks there. */
  y: number | null;
  /** A value with no value on either side draws no line, so it gets a dot. */
  isolated: boolean;
};

export type LineChartShape = {
  /** What the chart shows, for its <title> and aria-label. */
  title: string;
  /** The value axis legend, with its unit. */
  unit: string;
  color: string;
  points: LinePoint[];
  /** At most MAX_X_TICKS x values, evenly spaced, with their labels (never two alike). */
  ticks: { value: string; label: string }[];
  /** The value axis: the same rule as the PDF's charts (scale.ts valueScale). */
  y: Scale;
  /** No point has a value: the chart shows a frame with "No data". */
  empty: boolean;
};

/** Evenly spaced items, the first always included, never more than `max`. */
export function pickTicks<T>(values: readonly T[], max = MAX_X_TICKS): T[] {
  if (values.length <= max) return [...values];
  const step = Math.ceil(values.length / max);
  return values.filter((_, i) => i % step === 0);
}

function finiteOrNull(v: number | null) {
  return v === null || !Number.isFinite(v) ? null : v;
}

function linePoints(raw: readonly { x: string; y: number | null }[]): LinePoint[] {
  return raw.map((p, i) => ({
    x: p.x,
    y: p.y,
    isolated: p.y !== null && (raw[i - 1]?.y ?? null) === null && (raw[i + 1]?.y ?? null) === null,
  }));
}

/**
 * The first item of each run of equal labels: cycles of one therapy share its start time, and an
 * axis that says "09:23" five times says nothing more than one "09:23" at the first of them.
 */
export function distinctLabels<T extends { label: string }>(items: readonly T[]): T[] {
  return items.filter((item, i) => i === 0 || items[i - 1].label !== item.label);
}

function lineShape(
  meta: { title: string; unit: string; color: string; axis: ValueAxisOptions },
  raw: readonly { x: string; y: number | null; label: string }[],
): LineChartShape {
  const points = linePoints(raw);
  const values = points.flatMap((p) => (p.y === null ? [] : [p.y]));
  return {
    title: meta.title,
    unit: meta.unit,
    color: meta.color,
    points,
    ticks: pickTicks(distinctLabels(raw)).map((p) => ({ value: p.x, label: p.label })),
    y: valueScale(values, meta.axis),
    empty: values.length === 0,
  };
}

const byDay = <T extends { day: string }>(days: readonly T[]) =>
  [...days].sort((a, b) => a.day.localeCompare(b.day));

export const TREND_SERIES = {
  peakFlow: { title: "Peak expiratory flow (PEF)", unit: "L/min" },
  expVolume: { title: "Expiratory volume (Ex Vol)", unit: "ml" },
  peakInspP: { title: "Peak inspiratory pressure (PIP)", unit: "cmH2O" },
} as const;
export type TrendKey = keyof typeof TREND_SERIES;
/** Trends read from zero, on the page and in the PDF. */
export const TREND_AXIS: ValueAxisOptions = { fromZero: true };
/** Hours of use: fitted to the readings (they only grow), whole hours. */
export const HMR_AXIS: ValueAxisOptions = { integer: true };
export const SCORE_AXIS: ValueAxisOptions = { range: [0, 100] };

/** A trend chart's title, e.g. "Peak expiratory flow (PEF) per day": the page's and the PDF's. */
export const trendTitle = (key: TrendKey, per: "day" | "cycle") =>
  `${TREND_SERIES[key].title} per ${per}`;
export const HMR_TITLE = "Hour meter reading (HMR) per day";
export const SCORE_HISTORY_TITLE = "Adherence score history";
const TREND_KEYS = Object.keys(TREND_SERIES) as TrendKey[];

export type TrendChartsShape = Record<TrendKey, LineChartShape>;

/** Therapy Trends: per-day averages, one chart per measure, days without therapy as gaps. */
export function shapeTrendCharts(days: readonly TrendDayInput[]): TrendChartsShape {
  const sorted = byDay(days);
  const chart = (key: TrendKey) =>
    lineShape(
      {
        ...TREND_SERIES[key],
        title: trendTitle(key, "day"),
        color: CHART_COLORS.blue,
        axis: TREND_AXIS,
      },
      sorted.map((d) => ({ x: d.day, y: finiteOrNull(d[key]), label: formatDayMonth(d.day) })),
    );
  return Object.fromEntries(TREND_KEYS.map((k) => [k, chart(k)])) as TrendChartsShape;
}

/** Drill-down of one day: the same three measures over that day's cycles, in the given order. */
export function shapeCycleTrendCharts(cycles: readonly CycleTrendInput[]): TrendChartsShape {
  // Two cycles can share a minute, so the x key is the cycle's position and the label its time;
  // only the first cycle of each time is labelled (distinctLabels).
  const chart = (key: TrendKey) =>
    lineShape(
      {
        ...TREND_SERIES[key],
        title: trendTitle(key, "cycle"),
        color: CHART_COLORS.blue,
        axis: TREND_AXIS,
      },
      cycles.map((c, i) => ({ x: String(i + 1), y: finiteOrNull(c[key]), label: c.time })),
    );
  return Object.fromEntries(TREND_KEYS.map((k) => [k, chart(k)])) as TrendChartsShape;
}

export function shapeHmrChart(days: readonly HmrDayInput[]): LineChartShape {
  return lineShape(
    { title: HMR_TITLE, unit: "hours", color: CHART_COLORS.blue, axis: HMR_AXIS },
    byDay(days).map((d) => ({
      x: d.day,
      y: finiteOrNull(d.maxHmr),
      label: formatDayMonth(d.day),
    })),
  );
}

export function shapeScoreHistory(days: readonly ScoreDayInput[]): LineChartShape {
  return lineShape(
    { title: SCORE_HISTORY_TITLE, unit: "%", color: CHART_COLORS.green, axis: SCORE_AXIS },
    byDay(days).map((d) => ({
      x: d.day,
      y: shapeAdherenceGauge(d.score).percent,
      label: formatDayMonth(d.day),
    })),
  );
}
