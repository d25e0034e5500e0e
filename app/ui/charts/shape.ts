// The patient profile's charts (spec 3 §2.2, §2.4, §9) as plain data: every bar with its height,
// colour and label, every series point with its gaps, every tick and caption. The components in
// app/ui/charts draw exactly this, so the rules are tested here without rendering.
//
// Days are "YYYY-MM-DD" calendar dates; names of weekdays and months come from the date itself
// (Date.UTC), never from the server's zone.
import { scorePercent } from "~/domain/adherence/score";

export const CHART_COLORS = {
  green: "#2e7d32",
  red: "#c62828",
  grey: "#9e9e9e",
  blue: "#1565c0",
} as const;

/* ------------------------------------------------------------------------------------------ */
/* Cycle chart of one therapy (§2.4)                                                           */
/* ------------------------------------------------------------------------------------------ */

export type CycleMeasurementInput = {
  n: number;
  peakInspP: number | null;
  expVolume: number | null;
  peakFlow: number | null;
  spo2: number | null;
  oscillation: boolean;
};

export type CycleChartInput = {
  mode: string;
  prescribedCycles: number;
  cyclesDelivered: number;
  settings: { pauseP: number; inspP: number; expP: number; oscillation: boolean };
  cycles: CycleMeasurementInput[];
} | null;

/** §9: the cycle chart's pressure axis runs -70 to 70 cmH2O in steps of 10. */
export const CYCLE_AXIS = { min: -70, max: 70, step: 10 } as const;
/** §2.4: with no data, five zero bars show. */
export const EMPTY_CYCLE_COUNT = 5;

export const PRESSURE_KEYS = ["pauseP", "inspP", "expP"] as const;
export type PressureKey = (typeof PRESSURE_KEYS)[number];

export const PRESSURE_SERIES: Record<PressureKey, { label: string; color: string }> = {
  pauseP: { label: "Pause P (P_P)", color: CHART_COLORS.blue },
  inspP: { label: "Insp P (I_P)", color: CHART_COLORS.green },
  expP: { label: "Exp P (E_P)", color: CHART_COLORS.red },
};

/** The tooltip of one completed cycle: title 'Cycle N' and its measurement lines. */
export type CycleDetail = { n: number; title: string; lines: string[] };

export type CycleBar = {
  n: number;
  label: string;
  /** n ≤ cyclesDelivered: drawn in the three series colours, otherwise grey. */
  completed: boolean;
  /** A measurement row exists for this cycle; without one the label is struck through. */
  struck: boolean;
  /** Wave glyph under the label: completed, and the first cycle had oscillation on. */
  wave: boolean;
  values: Record<PressureKey, number>;
  colors: Record<PressureKey, string>;
  detail: CycleDetail | null;
};

export type CycleChartShape = {
  caption: string;
  bars: CycleBar[];
  details: CycleDetail[];
  axis: { min: number; max: number; ticks: number[] };
  /** The input was null: the five zero bars stand for "no therapy", not for missing rows. */
  noData: boolean;
};

export function cycleAxisTicks() {
  const ticks: number[] = [];
  for (let v = CYCLE_AXIS.min; v <= CYCLE_AXIS.max; v += CYCLE_AXIS.step) ticks.push(v);
  return ticks;
}

/** One decimal at most: device values such as 12.300000001 read as 12.3. */
export function formatValue(v: number | null) {
  if (v === null || !Number.isFinite(v)) return "NA";
  return String(Math.round(v * 10) / 10);
}

function clampPressure(v: number) {
  if (!Number.isFinite(v)) return 0;
  return Math.min(CYCLE_AXIS.max, Math.max(CYCLE_AXIS.min, v));
}

export function cycleDetail(m: CycleMeasurementInput): CycleDetail {
  return {
    n: m.n,
    title: `Cycle ${m.n}`,
    lines: [
      `PIP: ${formatValue(m.peakInspP)} cmH2O`,
      `Ex Vol: ${formatValue(m.expVolume)} ml`,
      `PFlow: ${formatValue(m.peakFlow)} lpm`,
      `Spo2: ${formatValue(m.spo2)}`,
      `OSC: ${m.oscillation ? "On" : "Off"}`,
    ],
  };
}

export function shapeCycleChart(input: CycleChartInput): CycleChartShape {
  const axis = { min: CYCLE_AXIS.min, max: CYCLE_AXIS.max, ticks: cycleAxisTicks() };
  const count = input ? Math.max(input.prescribedCycles, input.cyclesDelivered, 0) : 0;
  if (!input || count === 0) {
    const zeros = { pauseP: 0, inspP: 0, expP: 0 };
    const greys = { pauseP: CHART_COLORS.grey, inspP: CHART_COLORS.grey, expP: CHART_COLORS.grey };
    const bars = Array.from({ length: EMPTY_CYCLE_COUNT }, (_, i) => ({
      n: i + 1,
      label: `Cycle ${i + 1}`,
      completed: false,
      struck: false,
      wave: false,
      values: { ...zeros },
      colors: { ...greys },
      detail: null,
    }));
    return {
      caption: `Therapy Mode: ${input?.mode || "-"}`,
      bars,
      details: [],
      axis,
      noData: true,
    };
  }

  const byCycle = new Map<number, CycleMeasurementInput>();
  for (const m of input.cycles) if (!byCycle.has(m.n)) byCycle.set(m.n, m);
  // The settings carry one oscillation flag per therapy; the first cycle's own measurement,
  // when there is one, is what the device reports it actually did.
  const firstOscillates = byCycle.get(1)?.oscillation ?? input.settings.oscillation;
  const values = {
    pauseP: clampPressure(input.settings.pauseP),
    inspP: clampPressure(input.settings.inspP),
    expP: clampPressure(input.settings.expP),
  };

  const bars: CycleBar[] = [];
  for (let n = 1; n <= count; n++) {
    const completed = n <= input.cyclesDelivered;
    const measurement = byCycle.get(n);
    bars.push({
      n,
      label: `Cycle ${n}`,
      completed,
      struck: !measurement,
      wave: completed && firstOscillates,
      values: { ...values },
      colors: {
        pauseP: completed ? PRESSURE_SERIES.pauseP.color : CHART_COLORS.grey,
        inspP: completed ? PRESSURE_SERIES.inspP.color : CHART_COLORS.grey,
        expP: completed ? PRESSURE_SERIES.expP.color : CHART_COLORS.grey,
      },
      detail: completed && measurement ? cycleDetail(measurement) : null,
    });
  }
  return {
    caption: `Therapy Mode: ${input.mode}`,
    bars,
    details: bars.flatMap((b) => (b.detail ? [b.detail] : [])),
    axis,
    noData: false,
  };
}

/* ------------------------------------------------------------------------------------------ */
/* 7-day adherence calendar (§2.4 last bullet)                                                 */
/* ------------------------------------------------------------------------------------------ */

export type AdherenceDayInput = {
  day: string;
  isGoalDay: boolean;
  timesPerDay: number | null;
  completed: number;
};

/** §2.4: a day's bar is 68 px times cycles over times_per_day. */
export const CALENDAR_BAR_MAX = 68;
/** Days with nothing to scale (missed, or no goal) still get a bar that can be seen. */
export const CALENDAR_BAR_MIN = 4;

export type CalendarStatus = "noGoal" | "missed" | "partial" | "complete";

export type CalendarBar = {
  day: string;
  weekday: string;
  dayOfMonth: string;
  height: number;
  color: string;
  status: CalendarStatus;
  title: string;
};

const WEEKDAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTH_NAMES = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayParts(day: string) {
  const m = DAY_PATTERN.exec(day);
  if (!m) return null;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return null;
  return { year, month, date, weekday: new Date(Date.UTC(year, month - 1, date)).getUTCDay() };
}

/** "2025-01-05" → "05-Jan" (the trend charts' DD-MMM). */
export function formatDayMonth(day: string) {
  const p = dayParts(day);
  return p ? `${String(p.date).padStart(2, "0")}-${MONTH_NAMES[p.month - 1]}` : day;
}

export function shapeAdherenceCalendar(days: readonly AdherenceDayInput[]): CalendarBar[] {
  return [...days]
    .sort((a, b) => a.day.localeCompare(b.day))
    .map((d) => {
      const p = dayParts(d.day);
      const weekday = p ? WEEKDAY_NAMES[p.weekday] : "";
      const dayOfMonth = p ? String(p.date) : d.day;
      const goal =
        d.isGoalDay && d.timesPerDay !== null && d.timesPerDay > 0 ? d.timesPerDay : null;
      const completed = Math.max(0, d.completed);
      const name = `${weekday} ${dayOfMonth}`.trim();
      if (goal === null) {
        return {
          day: d.day,
          weekday,
          dayOfMonth,
          height: CALENDAR_BAR_MIN,
          color: CHART_COLORS.grey,
          status: "noGoal",
          title: `${name}: no therapy goal, ${completed} completed`,
        };
      }
      const ratio = Math.min(1, completed / goal);
      const status: CalendarStatus =
        completed === 0 ? "missed" : completed >= goal ? "complete" : "partial";
      return {
        day: d.day,
        weekday,
        dayOfMonth,
        height: status === "missed" ? CALENDAR_BAR_MIN : CALENDAR_BAR_MAX * ratio,
        color: status === "missed" ? CHART_COLORS.red : CHART_COLORS.green,
        status,
        title: `${name}: ${completed} of ${goal} therapies`,
      };
    });
}

/* ------------------------------------------------------------------------------------------ */
/* Adherence gauge (§2.2, §9)                                                                  */
/* ------------------------------------------------------------------------------------------ */

export type GaugeShape = {
  /** Whole percent capped at 100; null when there is no score. */
  percent: number | null;
  /** "85%", or "-" without a score (§9). */
  text: string;
  /** The share of the ring that is filled, 0..1. */
  fraction: number;
};

export function shapeAdherenceGauge(score: number | null): GaugeShape {
  const whole = score === null || !Number.isFinite(score) ? null : scorePercent(score);
  if (whole === null) return { percent: null, text: "-", fraction: 0 };
  const percent = Math.min(100, Math.max(0, whole));
  return { percent, text: `${percent}%`, fraction: percent / 100 };
}

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
