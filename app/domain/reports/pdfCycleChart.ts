// The therapy dashboard's main graph in the compliance report, drawn as vectors on pdfkit's path
// API. Its legend, colours and pressure axis come from the web chart's pure module
// (deviceLogs/chart.ts), so both read the same.
import { niceScale, type Scale } from "~/ui/charts/scale";
import {
  CYCLE_CHART_LEGEND,
  CYCLE_COLOR,
  measurementScale,
  PRESSURE_RANGE,
  type ChartAnnotation,
  type LegendItem,
} from "~/domain/deviceLogs/chart";
import { cell, COLOR, FONT, FONT_BOLD, NO_DATA, tickNumber, type Box, type Doc } from "./pdfLayout";

/** The legend this chart draws (the web chart's own). */
export { CYCLE_CHART_LEGEND };

/** A set pressure per point (x = point number) with the point's oscillation flag (1 on, 0 off). */
export type SetPressurePoint = { x: number; y: number | null; o: number | null };
export type MeasurementPoint = { x: number; y: number | null };
export type CycleChartSeries = {
  P_P: SetPressurePoint[];
  I_P: SetPressurePoint[];
  E_P: SetPressurePoint[];
  P_F: MeasurementPoint[];
  P_IP: MeasurementPoint[];
  E_V: MeasurementPoint[];
};
function diamond(doc: Doc, x: number, y: number, size: number) {
  doc
    .moveTo(x, y - size)
    .lineTo(x + size, y)
    .lineTo(x, y + size)
    .lineTo(x - size, y)
    .closePath();
}

/** Legend items flowing left to right, wrapping at the box width; returns the height used. */
function flowLegend(doc: Doc, box: Box, items: readonly LegendItem[]) {
  doc.font(FONT).fontSize(7.5);
  const rowHeight = 11;
  let x = box.x;
  let y = box.y;
  for (const item of items) {
    const width = 13 + doc.widthOfString(item.label) + 10;
    if (x > box.x && x + width > box.x + box.width) {
      x = box.x;
      y += rowHeight;
    }
    if (item.kind === "box") doc.rect(x, y + 1, 8, 7).fill(item.color);
    else if (item.kind === "line")
      doc
        .moveTo(x, y + 4.5)
        .lineTo(x + 9, y + 4.5)
        .lineWidth(1.5)
        .stroke(item.color);
    else {
      diamond(doc, x + 4, y + 4.5, 3);
      doc.fill(item.color);
    }
    doc.fillColor(COLOR.text).text(item.label, x + 12, y + 1, { lineBreak: false });
    x += width;
  }
  return y + rowHeight - box.y;
}

const finite = (v: number | null): v is number => v !== null && Number.isFinite(v);

/**
 * The therapy dashboard's main graph as vectors: per point (cycle) the three set pressures as
 * grouped bars on a fixed -90..90 cm H2O axis with the peak inspiratory pressure as markers on it,
 * peak expiratory flow (L/min) and expiratory volume (ml) as lines on their own right-hand axes,
 * a strip under the plot showing whether oscillation was on, and annotations as text.
 */
export function cycleChart(
  doc: Doc,
  box: Box,
  series: CycleChartSeries,
  annotations: ChartAnnotation[] = [],
) {
  const legendHeight = flowLegend(doc, box, CYCLE_CHART_LEGEND);
  const unitsY = box.y + legendHeight + 4;
  const plot = {
    x: box.x + 34,
    y: unitsY + 14,
    width: box.width - 34 - 76,
    height: box.height - legendHeight - 4 - 14 - 30,
  };
  const right = plot.x + plot.width;
  const bottom = plot.y + plot.height;

  const xs: number[] = [];
  for (const s of Object.values(series) as MeasurementPoint[][])
    for (const p of s) if (Number.isFinite(p.x)) xs.push(p.x);
  let xMin = Infinity;
  let xMax = -Infinity;
  for (const x of xs) {
    if (x < xMin) xMin = x;
    if (x > xMax) xMax = x;
  }
  const hasPoints = xs.length > 0;
  if (!hasPoints) [xMin, xMax] = [1, 1];
  const band = plot.width / (xMax - xMin + 1);
  const xAt = (x: number) => plot.x + (Math.min(Math.max(x, xMin), xMax) - xMin + 0.5) * band;

  const [pMin, pMax] = PRESSURE_RANGE;
  const pAt = (v: number) =>
    bottom - ((Math.min(Math.max(v, pMin), pMax) - pMin) / (pMax - pMin)) * plot.height;
  const scaleAt = (scale: Scale) => (v: number) =>
    bottom -
    ((Math.min(Math.max(v, scale.min), scale.max) - scale.min) / (scale.max - scale.min)) *
      plot.height;
  const flowScale = measurementScale(series.P_F.map((p) => p.y));
  const volumeScale = measurementScale(series.E_V.map((p) => p.y));

  // Axis units over each axis, then grid and ticks: pressure left, flow and volume right.
  doc.font(FONT_BOLD).fontSize(7);
  doc.fillColor(COLOR.text);
  cell(doc, "cm H2O", box.x, unitsY, 40, "left");
  doc.fillColor(CYCLE_COLOR.P_F);
  cell(doc, "L/min", right + 4, unitsY, 34, "left");
  doc.fillColor(CYCLE_COLOR.E_V);
  cell(doc, "ml", right + 42, unitsY, 34, "left");

  doc.font(FONT).fontSize(7);
  for (let tick = pMin; tick <= pMax; tick += 15) {
    const y = pAt(tick);
    doc
      .moveTo(plot.x, y)
      .lineTo(right, y)
      .lineWidth(tick === 0 ? 0.75 : 0.5)
      .stroke(tick === 0 ? COLOR.rule : COLOR.grid);
    if (tick % 30 !== 0) continue;
    doc.fillColor(COLOR.muted);
    cell(doc, String(tick), box.x, y - 3, 30, "right");
  }
  const rightTicks = (scale: Scale, x: number, color: string) => {
    const at = scaleAt(scale);
    doc.fillColor(color);
    for (const tick of scale.ticks) cell(doc, tickNumber.format(tick), x, at(tick) - 3, 34);
  };
  rightTicks(flowScale, right + 4, CYCLE_COLOR.P_F);
  rightTicks(volumeScale, right + 42, CYCLE_COLOR.E_V);
  doc
    .moveTo(plot.x, plot.y)
    .lineTo(plot.x, bottom)
    .lineTo(right, bottom)
    .lineTo(right, plot.y)
    .lineWidth(0.75)
    .stroke(COLOR.rule);

  // Oscillation strip and point numbers under the plot.
  const stripY = bottom + 3;
  const xTicks = niceScale(xMin, xMax, 8, true).ticks.filter((t) => t >= xMin && t <= xMax);
  doc.font(FONT).fontSize(7).fillColor(COLOR.muted);
  for (const tick of hasPoints ? xTicks : []) {
    const label = String(tick);
    const w = doc.widthOfString(label);
    doc.text(label, Math.min(Math.max(xAt(tick) - w / 2, plot.x), right - w), stripY + 8, {
      lineBreak: false,
    });
  }
  doc.fillColor(COLOR.text);
  cell(doc, "Cycle", plot.x, stripY + 18, plot.width, "center");

  if (!hasPoints) {
    doc.font(FONT).fontSize(9).fillColor(COLOR.muted);
    cell(doc, NO_DATA, plot.x, plot.y + plot.height / 2 - 5, plot.width, "center");
    return;
  }

  const oscillation = new Map<number, number>();
  for (const s of [series.P_P, series.I_P, series.E_P])
    for (const p of s) if (p.o !== null && !oscillation.has(p.x)) oscillation.set(p.x, p.o);
  const strip = (flag: number, color: string) => {
    let any = false;
    for (const [x, o] of oscillation) {
      if ((o === 1) !== (flag === 1)) continue;
      doc.rect(xAt(x) - band / 2, stripY, band, 4);
      any = true;
    }
    if (any) doc.fill(color);
  };
  strip(1, CYCLE_COLOR.oscOn);
  strip(0, CYCLE_COLOR.oscOff);

  // Grouped bars from the zero line, one path per series.
  const zero = pAt(0);
  const barWidth = Math.min(Math.max((band * 0.84) / 3, 0.2), 20);
  const bars = (values: SetPressurePoint[], slot: number, color: string) => {
    let any = false;
    for (const p of values) {
      if (!finite(p.y) || p.y === 0) continue;
      const y = pAt(p.y);
      doc.rect(xAt(p.x) + (slot - 1.5) * barWidth, Math.min(y, zero), barWidth, Math.abs(zero - y));
      any = true;
    }
    if (any) doc.fill(color);
  };
  bars(series.P_P, 0, CYCLE_COLOR.P_P);
  bars(series.I_P, 1, CYCLE_COLOR.I_P);
  bars(series.E_P, 2, CYCLE_COLOR.E_P);

  // A line broken where a value is missing; a value alone between gaps is a dot.
  const line = (values: MeasurementPoint[], at: (v: number) => number, color: string) => {
    const dots: MeasurementPoint[] = [];
    let segments = false;
    values.forEach((p, i) => {
      if (!finite(p.y)) return;
      const before = i > 0 && finite(values[i - 1].y);
      const after = i + 1 < values.length && finite(values[i + 1].y);
      if (before) doc.lineTo(xAt(p.x), at(p.y));
      else if (after) {
        doc.moveTo(xAt(p.x), at(p.y));
        segments = true;
      } else dots.push(p);
    });
    if (segments) doc.lineWidth(1).lineJoin("round").stroke(color);
    for (const p of dots) doc.circle(xAt(p.x), at(p.y ?? 0), 1.5);
    if (dots.length > 0) doc.fill(color);
  };
  line(series.E_V, scaleAt(volumeScale), CYCLE_COLOR.E_V);
  line(series.P_F, scaleAt(flowScale), CYCLE_COLOR.P_F);

  const markerSize = Math.min(3, Math.max(1.5, band / 2));
  let markers = false;
  for (const p of series.P_IP) {
    if (!finite(p.y)) continue;
    diamond(doc, xAt(p.x), pAt(p.y), markerSize);
    markers = true;
  }
  if (markers) doc.fill(CYCLE_COLOR.P_IP);

  // Annotations: a dot at the position and the text beside it, kept inside the plot.
  doc.font(FONT).fontSize(7.5);
  for (const note of annotations) {
    const text = note.text.trim();
    if (!text || !Number.isFinite(note.x) || !Number.isFinite(note.y)) continue;
    const px = xAt(note.x);
    const py = pAt(note.y);
    doc.circle(px, py, 2).fill(COLOR.text);
    const width = Math.min(doc.widthOfString(text), plot.width - 4);
    const left = Math.min(Math.max(px + 4, plot.x + 2), right - width - 2);
    const top = Math.min(Math.max(py - 13, plot.y + 1), bottom - 11);
    doc
      .rect(left - 2, top - 1, width + 4, 10)
      .fillOpacity(0.85)
      .fill("#ffffff");
    doc.fillOpacity(1).fillColor(COLOR.text);
    cell(doc, text, left, top + 1, width);
  }
}
