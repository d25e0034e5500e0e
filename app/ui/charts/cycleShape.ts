// The therapy cycle chart (spec 3 §2.4) as plain data: every bar with its height, colour and label,
// its tooltip lines, the axis ticks. CycleChart.tsx draws exactly this.
import { CHART_COLORS } from "./colors";

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
