// The cycle graph's series (spec 3 §2.7, §9): their colours, names and legend, shared by the
// dashboard's graph (chart.ts, TherapyDashboardChart) and its PDF version (reports/pdfCharts.ts
// cycleChart) so both read the same; and the measurements' right-hand axis.
import { niceScale, type Scale } from "../../ui/charts/scale";

/** The therapy dashboard graph's fixed pressure axis (spec 3 §2.7, §9). */
export const PRESSURE_RANGE: [number, number] = [-90, 90];

export const CYCLE_COLOR = {
  P_P: "#adb5bd",
  I_P: "#0d6efd",
  E_P: "#fd7e14",
  P_F: "#198754",
  P_IP: "#dc3545",
  E_V: "#6f42c1",
  oscOn: "#20c997",
  oscOff: "#dee2e6",
} as const;

export const CYCLE_LABEL = {
  P_P: "Set Pause Pressure",
  I_P: "Set Inspiratory Pressure",
  E_P: "Set Expiratory Pressure",
  P_F: "Peak Expiratory Flow",
  P_IP: "Peak Inspiratory Pressure",
  E_V: "Expiratory Volume",
  oscOn: "Oscillations Enabled",
  oscOff: "Oscillations Disabled",
} as const;

export type LegendKind = "box" | "line" | "marker";
export type LegendItem = { label: string; color: string; kind: LegendKind };

export const CYCLE_CHART_LEGEND: readonly LegendItem[] = (
  [
    ["P_P", "box"],
    ["I_P", "box"],
    ["E_P", "box"],
    ["P_F", "line"],
    ["P_IP", "marker"],
    ["E_V", "line"],
    ["oscOn", "box"],
    ["oscOff", "box"],
  ] as const
).map(([key, kind]) => ({ label: CYCLE_LABEL[key], color: CYCLE_COLOR[key], kind }));

/** A note at a position in the chart's units: x a point number, y in cm H2O (the left axis). */
export type ChartAnnotation = { x: number; y: number; text: string };

export const finite = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

/** A measurement's right-hand axis: fitted to the values, always including zero. */
export function measurementScale(values: readonly (number | null)[]): Scale {
  let lo = 0;
  let hi = 0;
  let any = false;
  for (const v of values) {
    if (!finite(v)) continue;
    any = true;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return any ? niceScale(lo, hi) : niceScale(0, 1);
}
