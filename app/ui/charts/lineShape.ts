// The patient profile's line charts as plain data (spec 3 §2.2, §2.4): every series point with its
// gaps, every tick and caption. LineChart.tsx draws exactly this.
import { shapeAdherenceGauge } from "./adherenceShape";
import { CHART_COLORS } from "./colors";
import { formatDayMonth } from "./days";

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
  /** At most MAX_X_TICKS x values, evenly spaced, with their labels. */
  ticks: { value: string; label: string }[];
  yMin: number;
  yMax: number | "auto";
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

function lineShape(
  meta: { title: string; unit: string; color: string; yMax?: number },
  raw: readonly { x: string; y: number | null; label: string }[],
): LineChartShape {
  const points = linePoints(raw);
  const values = points.flatMap((p) => (p.y === null ? [] : [p.y]));
  return {
    title: meta.title,
    unit: meta.unit,
    color: meta.color,
    points,
    ticks: pickTicks(raw).map((p) => ({ value: p.x, label: p.label })),
    yMin: Math.min(0, ...values),
    yMax: meta.yMax ?? "auto",
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
const TREND_KEYS = Object.keys(TREND_SERIES) as TrendKey[];

export type TrendChartsShape = Record<TrendKey, LineChartShape>;

/** Therapy Trends: per-day averages, one chart per measure, days without therapy as gaps. */
export function shapeTrendCharts(days: readonly TrendDayInput[]): TrendChartsShape {
  const sorted = byDay(days);
  const chart = (key: TrendKey) =>
    lineShape(
      {
        ...TREND_SERIES[key],
        title: `${TREND_SERIES[key].title} per day`,
        color: CHART_COLORS.blue,
      },
      sorted.map((d) => ({ x: d.day, y: finiteOrNull(d[key]), label: formatDayMonth(d.day) })),
    );
  return Object.fromEntries(TREND_KEYS.map((k) => [k, chart(k)])) as TrendChartsShape;
}

/** Drill-down of one day: the same three measures over that day's cycles, in the given order. */
export function shapeCycleTrendCharts(cycles: readonly CycleTrendInput[]): TrendChartsShape {
  // Two cycles can share a minute, so the x key is the cycle's position and the label its time.
  const chart = (key: TrendKey) =>
    lineShape(
      {
        ...TREND_SERIES[key],
        title: `${TREND_SERIES[key].title} per cycle`,
        color: CHART_COLORS.blue,
      },
      cycles.map((c, i) => ({ x: String(i + 1), y: finiteOrNull(c[key]), label: c.time })),
    );
  return Object.fromEntries(TREND_KEYS.map((k) => [k, chart(k)])) as TrendChartsShape;
}

export function shapeHmrChart(days: readonly HmrDayInput[]): LineChartShape {
  return lineShape(
    { title: "Hour meter reading (HMR) per day", unit: "hours", color: CHART_COLORS.blue },
    byDay(days).map((d) => ({
      x: d.day,
      y: finiteOrNull(d.maxHmr),
      label: formatDayMonth(d.day),
    })),
  );
}

export function shapeScoreHistory(days: readonly ScoreDayInput[]): LineChartShape {
  return lineShape(
    { title: "Adherence score history", unit: "%", color: CHART_COLORS.green, yMax: 100 },
    byDay(days).map((d) => ({
      x: d.day,
      y: shapeAdherenceGauge(d.score).percent,
      label: formatDayMonth(d.day),
    })),
  );
}
