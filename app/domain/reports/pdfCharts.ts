// Drawing helpers for the PDF reports: paged tables and vector charts on pdfkit's path API.
// Text is placed with lineBreak: false at computed positions, which skips pdfkit's line wrapper:
// that keeps a 730-row table fast and stops pdfkit from adding pages on its own.
import PDFDocument from "pdfkit";
import { formatDay } from "~/lib/time";
import { niceScale, type Scale } from "~/ui/charts/scale";
import {
  CYCLE_CHART_LEGEND,
  CYCLE_COLOR,
  measurementScale,
  PRESSURE_RANGE,
  type ChartAnnotation,
  type LegendItem,
} from "~/domain/deviceLogs/chart";

// The dashboard graph's table and the scale maths live in pure modules that the web chart shares;
// re-exported so that report code keeps one import.
export { CYCLE_CHART_LEGEND, niceScale, PRESSURE_RANGE, type ChartAnnotation };

type Doc = PDFKit.PDFDocument;

export const FONT = "Helvetica";
export const FONT_BOLD = "Helvetica-Bold";
export const NO_DATA = "No data in this window";

const COLOR = {
  text: "#212529",
  muted: "#6c757d",
  rule: "#adb5bd",
  grid: "#e9ecef",
  headerFill: "#e9ecef",
  zebra: "#f8f9fa",
  goal: "#ced4da",
  completed: "#198754",
  line: "#0d6efd",
};

/** The lowest y that content may reach on the current page. */
export function bottomLimit(doc: Doc) {
  return doc.page.height - doc.page.margins.bottom;
}

export function contentWidth(doc: Doc) {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** Starts a new page unless `height` points still fit below doc.y. */
export function ensureSpace(doc: Doc, height: number) {
  if (doc.y + height > bottomLimit(doc)) doc.addPage();
}

type Align = "left" | "right" | "center";

/** One line of text in a box, shortened with an ellipsis when it does not fit. */
export function cell(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  align: Align = "left",
) {
  let shown = text;
  let w = doc.widthOfString(shown);
  if (w > width) {
    while (shown.length > 1 && doc.widthOfString(`${shown}…`) > width) shown = shown.slice(0, -1);
    shown = `${shown}…`;
    w = doc.widthOfString(shown);
  }
  const left = align === "right" ? x + width - w : align === "center" ? x + (width - w) / 2 : x;
  doc.text(shown, left, y, { lineBreak: false });
}

/** A section title, moved to the next page with what follows when less than `keepWith` fits. */
export function heading(doc: Doc, text: string, keepWith = 40) {
  ensureSpace(doc, 28 + keepWith);
  const y = doc.y + 10;
  doc.font(FONT_BOLD).fontSize(12).fillColor(COLOR.text);
  doc.text(text, doc.page.margins.left, y, { lineBreak: false });
  doc.y = y + 18;
}

/** A paragraph that wraps within the content width. */
export function paragraph(doc: Doc, text: string, options: { bold?: boolean; size?: number } = {}) {
  doc
    .font(options.bold ? FONT_BOLD : FONT)
    .fontSize(options.size ?? 10)
    .fillColor(COLOR.text);
  doc.text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.moveDown(0.3);
}

export type Column = { header: string; width: number; align?: Align };

/**
 * A table of single-line cells. Rows that do not fit go to the next page, under a repeated header.
 * `boldFirstColumn` suits label/value tables (`boldColumns` names several label columns);
 * `header: false` leaves the header out.
 */
export function table(
  doc: Doc,
  columns: Column[],
  rows: string[][],
  options: {
    header?: boolean;
    boldFirstColumn?: boolean;
    boldColumns?: number[];
    fontSize?: number;
    rowHeight?: number;
  } = {},
) {
  const fontSize = options.fontSize ?? 9;
  const rowHeight = options.rowHeight ?? fontSize + 6;
  const left = doc.page.margins.left;
  const width = columns.reduce((sum, c) => sum + c.width, 0);
  const padding = 4;
  const textOffset = (rowHeight - fontSize) / 2 + 1;
  let y = doc.y;

  const drawRow = (values: string[], bold: (i: number) => boolean) => {
    let x = left;
    columns.forEach((column, i) => {
      doc.font(bold(i) ? FONT_BOLD : FONT);
      cell(
        doc,
        values[i] ?? "",
        x + padding,
        y + textOffset,
        column.width - 2 * padding,
        column.align,
      );
      x += column.width;
    });
    y += rowHeight;
  };
  const drawHeader = () => {
    if (options.header === false) return;
    doc.rect(left, y, width, rowHeight).fill(COLOR.headerFill);
    doc.fontSize(fontSize).fillColor(COLOR.text);
    drawRow(
      columns.map((c) => c.header),
      () => true,
    );
  };

  drawHeader();
  rows.forEach((row, index) => {
    if (y + rowHeight > bottomLimit(doc)) {
      doc.addPage();
      y = doc.page.margins.top;
      drawHeader();
    }
    if (index % 2 === 1) doc.rect(left, y, width, rowHeight).fill(COLOR.zebra);
    doc.fontSize(fontSize).fillColor(COLOR.text);
    drawRow(
      row,
      (i) => (options.boldFirstColumn === true && i === 0) || !!options.boldColumns?.includes(i),
    );
  });
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.5)
    .stroke(COLOR.rule);
  doc.x = left;
  doc.y = y + 8;
}

export type Box = { x: number; y: number; width: number; height: number };
const tickNumber = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

type Plot = Box & { band: number; xAt: (i: number) => number; yAt: (v: number) => number };

/**
 * Title, legend, plot frame, grid, y ticks and a few day labels under the x axis. Returns the plot
 * area with its scales; x positions are the centres of one band per day.
 */
function frame(
  doc: Doc,
  box: Box,
  title: string,
  days: string[],
  scale: Scale,
  legend: { label: string; color: string }[] = [],
): Plot {
  doc.font(FONT_BOLD).fontSize(10).fillColor(COLOR.text);
  doc.text(title, box.x, box.y, { lineBreak: false });
  doc.font(FONT).fontSize(8);
  let legendX = box.x + box.width;
  for (const item of [...legend].reverse()) {
    legendX -= doc.widthOfString(item.label) + 14;
    doc.rect(legendX, box.y + 1, 8, 8).fill(item.color);
    doc.fillColor(COLOR.text).text(item.label, legendX + 11, box.y + 1, { lineBreak: false });
    legendX -= 6;
  }

  const plot = { x: box.x + 44, y: box.y + 18, width: box.width - 50, height: box.height - 34 };
  const band = days.length > 0 ? plot.width / days.length : plot.width;
  const yAt = (v: number) =>
    plot.y + plot.height - ((v - scale.min) / (scale.max - scale.min)) * plot.height;
  const xAt = (i: number) => plot.x + band * (i + 0.5);

  doc.fontSize(7).fillColor(COLOR.muted);
  for (const tick of scale.ticks) {
    const y = yAt(tick);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.width, y)
      .lineWidth(0.5)
      .stroke(COLOR.grid);
    doc.fillColor(COLOR.muted);
    cell(doc, tickNumber.format(tick), box.x, y - 3, 40, "right");
  }
  const baseline = plot.y + plot.height;
  doc
    .moveTo(plot.x, plot.y)
    .lineTo(plot.x, baseline)
    .lineTo(plot.x + plot.width, baseline)
    .lineWidth(0.75)
    .stroke(COLOR.rule);

  const labels = Math.min(days.length, 6);
  for (let k = 0; k < labels; k++) {
    const i = labels === 1 ? 0 : Math.round((k * (days.length - 1)) / (labels - 1));
    const label = formatDay(days[i], "dd-MMM-yyyy");
    const w = doc.widthOfString(label);
    const x = Math.min(Math.max(xAt(i) - w / 2, plot.x), plot.x + plot.width - w);
    doc
      .moveTo(xAt(i), baseline)
      .lineTo(xAt(i), baseline + 3)
      .stroke(COLOR.rule);
    doc.fillColor(COLOR.muted).text(label, x, baseline + 5, { lineBreak: false });
  }
  return { ...plot, band, xAt, yAt };
}

function noData(doc: Doc, plot: Box) {
  doc.font(FONT).fontSize(9).fillColor(COLOR.muted);
  cell(doc, NO_DATA, plot.x, plot.y + plot.height / 2 - 5, plot.width, "center");
}

/** Goal per day as grey bars with the completed therapies drawn over them. */
export function goalBarChart(
  doc: Doc,
  box: Box,
  title: string,
  days: string[],
  goal: number[],
  completed: number[],
) {
  const top = Math.max(1, ...goal, ...completed);
  const scale = niceScale(0, top, 5, true);
  const plot = frame(doc, box, title, days, scale, [
    { label: "Goal", color: COLOR.goal },
    { label: "Completed", color: COLOR.completed },
  ]);
  if (!goal.some((g) => g > 0) && !completed.some((c) => c > 0)) return noData(doc, plot);

  const barWidth = Math.max(plot.band * 0.7, 0.3);
  const bars = (values: number[], color: string) => {
    let any = false;
    values.forEach((v, i) => {
      if (v <= 0) return;
      const y = plot.yAt(v);
      doc.rect(plot.xAt(i) - barWidth / 2, y, barWidth, plot.y + plot.height - y);
      any = true;
    });
    if (any) doc.fill(color);
  };
  bars(goal, COLOR.goal);
  bars(completed, COLOR.completed);
}

/**
 * One series as a line, broken where a value is null; a value alone between gaps is a dot.
 * `range` fixes the axis (e.g. 0..100 %); otherwise it fits the data (from 0 when `fromZero`).
 */
export function lineChart(
  doc: Doc,
  box: Box,
  title: string,
  days: string[],
  values: (number | null)[],
  options: { range?: [number, number]; fromZero?: boolean } = {},
) {
  const series = values.map((v) => (v !== null && Number.isFinite(v) ? v : null));
  const present = series.filter((v): v is number => v !== null);
  let scale: Scale;
  if (options.range) {
    const [min, max] = options.range;
    scale = { min, max, ticks: niceScale(min, max).ticks.filter((t) => t >= min && t <= max) };
  } else if (present.length > 0) {
    const lo = Math.min(...present);
    scale = niceScale(options.fromZero ? Math.min(0, lo) : lo, Math.max(...present));
  } else {
    scale = niceScale(0, 1);
  }
  const plot = frame(doc, box, title, days, scale);
  if (present.length === 0) return noData(doc, plot);

  const clamp = (v: number) => Math.min(Math.max(v, scale.min), scale.max);
  const dots: number[] = [];
  series.forEach((v, i) => {
    if (v === null) return;
    const before = i > 0 ? series[i - 1] : null;
    const after = i + 1 < series.length ? series[i + 1] : null;
    const y = plot.yAt(clamp(v));
    if (before !== null) doc.lineTo(plot.xAt(i), y);
    else if (after !== null) doc.moveTo(plot.xAt(i), y);
    else dots.push(i);
  });
  doc.lineWidth(1.2).lineJoin("round").stroke(COLOR.line);
  for (const i of dots) doc.circle(plot.xAt(i), plot.yAt(clamp(series[i] ?? 0)), 1.5);
  if (dots.length > 0) doc.fill(COLOR.line);
}

/** The reports' page margins, in points. */
export const MARGIN = { top: 40, bottom: 50, left: 40, right: 40 };

/**
 * An A4 portrait report with buffered pages (footers are drawn at the end), its title already
 * drawn at the top of page 1, and the promise of its bytes once `doc.end()` is called.
 */
export function openReport(title: string, info: PDFKit.DocumentInfo) {
  const doc = new PDFDocument({
    size: "A4",
    layout: "portrait",
    margins: MARGIN,
    bufferPages: true,
    info,
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font(FONT_BOLD).fontSize(18).fillColor("#212529");
  doc.text(title, MARGIN.left, MARGIN.top, { lineBreak: false });
  doc.y = MARGIN.top + 28;
  return { doc, finished };
}

/** Footer text and "Page N of M" on every buffered page; the bottom margin is lifted meanwhile. */
export function pageFooters(doc: Doc, text: string) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const { left, right, bottom } = doc.page.margins;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 30;
    doc.font(FONT).fontSize(8).fillColor(COLOR.muted);
    doc.text(text, left, y, { lineBreak: false });
    const page = `Page ${i + 1} of ${range.count}`;
    doc.text(page, doc.page.width - right - doc.widthOfString(page), y, { lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.flushPages();
}

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
