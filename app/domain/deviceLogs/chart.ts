// The therapy dashboard's main graph (spec 3 §2.7, §9) as plain data: per point (cycle) the three
// set pressures as grouped bars on a fixed -90..90 cm H2O axis with the peak inspiratory pressure
// as markers on it, peak expiratory flow (L/min) and expiratory volume (ml) as lines on their own
// right-hand axes, an oscillation strip under the plot, annotations, and each point's tooltip.
// TherapyDashboardChart draws exactly this on the web; the series' colours and legend are also
// those of the PDF version (reports/pdfCharts.ts cycleChart), so both read the same.
import type { GraphPage } from "~/domain/deviceLogs/graph";
import { niceScale, type Scale } from "../../ui/charts/scale";
import {
  CYCLE_CHART_LEGEND,
  CYCLE_COLOR,
  CYCLE_LABEL,
  finite,
  measurementScale,
  PRESSURE_RANGE,
  type ChartAnnotation,
  type LegendItem,
} from "./chartSeries";

export {
  CYCLE_CHART_LEGEND,
  CYCLE_COLOR,
  CYCLE_LABEL,
  measurementScale,
  PRESSURE_RANGE,
  type ChartAnnotation,
  type LegendItem,
  type LegendKind,
} from "./chartSeries";

/* ------------------------------------------------------------------------------------------ */
/* Shape                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/**
 * The graph's drawing units. The page scales the SVG to its box (width 100 %, the viewBox keeping
 * its proportions), so these fix the proportions and the text's size relative to the plot, not
 * the size on screen: 960 × 420 reads well from a 1024 px window (about 0.75) up.
 */
export const DASHBOARD_CHART = {
  width: 960,
  height: 420,
  margin: { left: 56, right: 112, bottom: 48 },
  fontSize: 12,
  legendRow: 18,
  annotationFontSize: 11,
} as const;

export const NO_GRAPH_DATA = "No data available";
const PRESSURE_UNIT = "cm H2O";
const PRESSURE_LABEL_STEP = 30;
const PRESSURE_GRID_STEP = 15;
const MAX_X_TICKS = 15;
const STRIP = { gap: 3, height: 6 };

export type Box = { x: number; y: number; width: number; height: number };
/** A tick: its value, its text and its position in pixels along the axis. */
export type AxisTick = { value: number; label: string; pos: number };
export type PlacedLegendItem = LegendItem & { x: number; y: number };

export type SetPressureKey = "P_P" | "I_P" | "E_P";
export type LineKey = "P_F" | "E_V";

export type DashboardPoint = {
  /** The point's number over the whole selection (merged_data x). */
  n: number;
  /** The band's left edge, width and centre, in pixels. */
  left: number;
  width: number;
  center: number;
  timeStamp: string;
  /** 1 on, 0 off, null when the log does not say. */
  oscillation: 0 | 1 | null;
  /** The pressure an annotation added on this point starts at: P_IP, else the set I_P, else 0. */
  annotationY: number;
  /** Tooltip lines: point number, time stamp, set pressures, P_IP, P_F, E_V, oscillation. */
  tooltip: string[];
};

export type BarRect = { n: number; x: number; y: number; width: number; height: number };
export type BarSeries = { key: SetPressureKey; color: string; rects: BarRect[] };
/** A drawn position (pixels) with the point number it belongs to. */
export type PlotPosition = { n: number; x: number; y: number };
/** Runs of consecutive values (nulls break the line); a value alone between gaps is a dot. */
export type LineSeries = {
  key: LineKey;
  color: string;
  segments: PlotPosition[][];
  dots: PlotPosition[];
};
export type ValueAxis = {
  unit: string;
  color: string;
  min: number;
  max: number;
  ticks: AxisTick[];
};

export type PlacedAnnotation = {
  /** The marker, in pixels, and the note's chart units. */
  x: number;
  y: number;
  at: ChartAnnotation;
  /** The text as drawn (shortened to fit the plot) and its background box. */
  text: string;
  box: Box;
};

export type TherapyDashboardChartShape = {
  /** For the root's <title> and aria-label. */
  title: string;
  width: number;
  height: number;
  plot: Box;
  legend: PlacedLegendItem[];
  /** Where the axes' units are written (baseline), above the plot. */
  unitsY: number;
  pressure: ValueAxis & { gridLines: AxisTick[] };
  flow: ValueAxis;
  volume: ValueAxis;
  /** Point numbers under the oscillation strip. */
  xTicks: AxisTick[];
  xTitle: string;
  /** The oscillation strip just under the plot: one cell per point that has a flag. */
  strip: { y: number; height: number; on: string; off: string };
  /** Pixel width of one point's band. */
  band: number;
  points: DashboardPoint[];
  bars: BarSeries[];
  lines: LineSeries[];
  markers: { color: string; size: number; positions: PlotPosition[] };
  annotations: PlacedAnnotation[];
  /** "No data available" when the page has no points, otherwise null. */
  message: string | null;
};

/** Approximate text width: SVG text has no measured width on the server. */
export const textWidth = (text: string, fontSize: number) => text.length * fontSize * 0.55;

const r2 = (v: number) => Math.round(v * 100) / 100;
const tickNumber = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const oneDecimal = (v: number) => String(Math.round(v * 10) / 10);
const withUnit = (v: number | null | undefined, unit: string) =>
  finite(v) ? `${oneDecimal(v)} ${unit}` : "N/A";

/** Legend items flowing left to right from (x, y), wrapping before `right`. */
function placeLegend(x0: number, y0: number, right: number) {
  const { fontSize, legendRow } = DASHBOARD_CHART;
  const placed: PlacedLegendItem[] = [];
  let x = x0;
  let y = y0;
  for (const item of CYCLE_CHART_LEGEND) {
    const width = 16 + textWidth(item.label, fontSize) + 16;
    if (x > x0 && x + width > right) {
      x = x0;
      y += legendRow;
    }
    placed.push({ ...item, x: r2(x), y });
    x += width;
  }
  return { items: placed, bottom: y + legendRow };
}

/** Looks a series' value up by point number. */
function byPoint<T>(xs: readonly number[], values: readonly T[]) {
  const map = new Map<number, T>();
  xs.forEach((x, i) => {
    if (!map.has(x)) map.set(x, values[i]);
  });
  return map;
}

export function shapeTherapyDashboardChart(
  page: GraphPage,
  annotations: readonly ChartAnnotation[] = [],
): TherapyDashboardChartShape {
  const d = page.merged_data;
  const { width, height, margin, annotationFontSize } = DASHBOARD_CHART;

  // Every series carries every point (graphPage pushes one value per series per point), so the
  // union of their x is the page's points in order, and timeStamps[i] belongs to the i-th.
  const numbers = new Set<number>();
  for (const s of [d.Cycle_P_P, d.Cycle_I_P, d.Cycle_E_P, d.P_F, d.P_IP, d.E_V])
    for (const x of s.x) if (Number.isFinite(x)) numbers.add(x);
  const xs = [...numbers].sort((a, b) => a - b);
  const empty = xs.length === 0;

  const legend = placeLegend(8, 8, width - 8);
  const unitsY = legend.bottom + 14;
  const plotY = unitsY + 10;
  const plot: Box = {
    x: margin.left,
    y: plotY,
    width: width - margin.left - margin.right,
    height: height - plotY - margin.bottom,
  };
  const right = plot.x + plot.width;
  const bottom = plot.y + plot.height;

  const [pMin, pMax] = PRESSURE_RANGE;
  const clampTo = (scale: { min: number; max: number }, v: number) =>
    Math.min(Math.max(v, scale.min), scale.max);
  const yOn = (scale: { min: number; max: number }) => (v: number) =>
    r2(bottom - ((clampTo(scale, v) - scale.min) / (scale.max - scale.min)) * plot.height);
  const pAt = yOn({ min: pMin, max: pMax });
  const pressureTicks = (step: number) => {
    const ticks: AxisTick[] = [];
    for (let v = pMin; v <= pMax; v += step)
      ticks.push({ value: v, label: String(v), pos: pAt(v) });
    return ticks;
  };

  const flowScale = measurementScale(d.P_F.y);
  const volumeScale = measurementScale(d.E_V.y);
  const valueAxis = (unit: string, color: string, scale: Scale): ValueAxis => {
    const at = yOn(scale);
    return {
      unit,
      color,
      min: scale.min,
      max: scale.max,
      ticks: empty
        ? []
        : scale.ticks.map((v) => ({ value: v, label: tickNumber.format(v), pos: at(v) })),
    };
  };

  const xMin = empty ? 1 : xs[0];
  const xMax = empty ? 1 : xs[xs.length - 1];
  const band = plot.width / (xMax - xMin + 1);
  const xAt = (x: number) => r2(plot.x + (x - xMin + 0.5) * band);
  const xTicks: AxisTick[] = empty
    ? []
    : niceScale(xMin, xMax, Math.min(MAX_X_TICKS, Math.max(2, xs.length)), true)
        .ticks.filter((t) => t >= xMin && t <= xMax)
        .map((t) => ({ value: t, label: String(t), pos: xAt(t) }));

  const setP = byPoint(d.Cycle_P_P.x, d.Cycle_P_P.y);
  const setI = byPoint(d.Cycle_I_P.x, d.Cycle_I_P.y);
  const setE = byPoint(d.Cycle_E_P.x, d.Cycle_E_P.y);
  const flags = [d.Cycle_P_P, d.Cycle_I_P, d.Cycle_E_P].map((s) => byPoint(s.x, s.o));
  const flow = byPoint(d.P_F.x, d.P_F.y);
  const peak = byPoint(d.P_IP.x, d.P_IP.y);
  const volume = byPoint(d.E_V.x, d.E_V.y);

  const points: DashboardPoint[] = xs.map((n, i) => {
    const oscillation = flags.map((f) => f.get(n)).find((o) => o === 0 || o === 1) ?? null;
    const timeStamp = page.timeStamps[i] ?? "";
    const pip = peak.get(n);
    const inspiratory = setI.get(n);
    return {
      n,
      left: r2(plot.x + (n - xMin) * band),
      width: r2(band),
      center: xAt(n),
      timeStamp,
      oscillation,
      annotationY: finite(pip) ? pip : finite(inspiratory) ? inspiratory : 0,
      tooltip: [
        `Point ${n}`,
        `Time: ${timeStamp || "N/A"}`,
        `${CYCLE_LABEL.P_P}: ${withUnit(setP.get(n), PRESSURE_UNIT)}`,
        `${CYCLE_LABEL.I_P}: ${withUnit(inspiratory, PRESSURE_UNIT)}`,
        `${CYCLE_LABEL.E_P}: ${withUnit(setE.get(n), PRESSURE_UNIT)}`,
        `${CYCLE_LABEL.P_IP}: ${withUnit(pip, PRESSURE_UNIT)}`,
        `${CYCLE_LABEL.P_F}: ${withUnit(flow.get(n), "L/min")}`,
        `${CYCLE_LABEL.E_V}: ${withUnit(volume.get(n), "ml")}`,
        `Oscillation: ${oscillation === null ? "N/A" : oscillation === 1 ? "On" : "Off"}`,
      ],
    };
  });

  // Grouped bars from the zero line; zero and missing values draw nothing.
  const zero = pAt(0);
  const barWidth = Math.min(Math.max((band * 0.84) / 3, 0.5), 20);
  const bars: BarSeries[] = (
    [
      ["P_P", d.Cycle_P_P],
      ["I_P", d.Cycle_I_P],
      ["E_P", d.Cycle_E_P],
    ] as const
  ).map(([key, s], slot) => ({
    key,
    color: CYCLE_COLOR[key],
    rects: s.x.flatMap((n, i) => {
      const v = s.y[i];
      if (!finite(v) || v === 0 || !Number.isFinite(n)) return [];
      const y = pAt(v);
      return [
        {
          n,
          x: r2(xAt(n) + (slot - 1.5) * barWidth),
          y: Math.min(y, zero),
          width: r2(barWidth),
          height: r2(Math.abs(zero - y)),
        },
      ];
    }),
  }));

  const line = (key: LineKey, s: { x: number[]; y: (number | null)[] }, scale: Scale) => {
    const at = yOn(scale);
    const segments: PlotPosition[][] = [];
    const dots: PlotPosition[] = [];
    let run: PlotPosition[] = [];
    const close = () => {
      if (run.length > 1) segments.push(run);
      else if (run.length === 1) dots.push(run[0]);
      run = [];
    };
    s.x.forEach((n, i) => {
      const v = s.y[i];
      if (!finite(v) || !Number.isFinite(n)) return close();
      run.push({ n, x: xAt(n), y: at(v) });
    });
    close();
    return { key, color: CYCLE_COLOR[key], segments, dots };
  };

  const positions: PlotPosition[] = [];
  d.P_IP.x.forEach((n, i) => {
    const v = d.P_IP.y[i];
    if (finite(v) && Number.isFinite(n)) positions.push({ n, x: xAt(n), y: pAt(v) });
  });

  // Annotations on this page only, the text beside the marker and kept inside the plot.
  const placed: PlacedAnnotation[] = [];
  const charWidth = textWidth("x", annotationFontSize);
  const roomChars = Math.max(1, Math.floor((plot.width - 12) / charWidth));
  for (const at of annotations) {
    const trimmed = at.text.trim();
    if (empty || !trimmed || !Number.isFinite(at.x) || !Number.isFinite(at.y)) continue;
    if (at.x < xMin || at.x > xMax) continue;
    const text = trimmed.length > roomChars ? `${trimmed.slice(0, roomChars - 1)}…` : trimmed;
    const x = xAt(at.x);
    const y = pAt(at.y);
    const w = textWidth(text, annotationFontSize) + 6;
    const h = annotationFontSize + 5;
    placed.push({
      x,
      y,
      at,
      text,
      box: {
        x: r2(Math.min(Math.max(x + 5, plot.x + 2), right - w - 2)),
        y: r2(Math.min(Math.max(y - h - 4, plot.y + 2), bottom - h - 2)),
        width: r2(w),
        height: h,
      },
    });
  }

  const first = xs[0];
  const last = xs[xs.length - 1];
  return {
    title: empty
      ? `Therapy dashboard graph: ${NO_GRAPH_DATA.toLowerCase()}`
      : `Therapy dashboard graph, page ${page.page} of ${page.pages}: points ${first} to ${last} of ${page.points}`,
    width,
    height,
    plot,
    legend: legend.items,
    unitsY,
    pressure: {
      unit: PRESSURE_UNIT,
      color: "#212529",
      min: pMin,
      max: pMax,
      ticks: pressureTicks(PRESSURE_LABEL_STEP),
      gridLines: pressureTicks(PRESSURE_GRID_STEP),
    },
    flow: valueAxis("L/min", CYCLE_COLOR.P_F, flowScale),
    volume: valueAxis("ml", CYCLE_COLOR.E_V, volumeScale),
    xTicks,
    xTitle: "Cycle",
    strip: {
      y: bottom + STRIP.gap,
      height: STRIP.height,
      on: CYCLE_COLOR.oscOn,
      off: CYCLE_COLOR.oscOff,
    },
    band: r2(band),
    points,
    bars: empty ? [] : bars,
    lines: empty ? [] : [line("E_V", d.E_V, volumeScale), line("P_F", d.P_F, flowScale)],
    markers: {
      color: CYCLE_COLOR.P_IP,
      size: r2(Math.min(5, Math.max(2, band / 2))),
      positions,
    },
    annotations: placed,
    message: empty ? NO_GRAPH_DATA : null,
  };
}
