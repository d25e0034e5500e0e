// Drawing helpers for the PDF reports: paged tables and vector charts on pdfkit's path API.
// Text is placed with lineBreak: false at computed positions, which skips pdfkit's line wrapper:
// that keeps a 730-row table fast and stops pdfkit from adding pages on its own.
import { formatDay } from "~/lib/time";

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
 * `boldFirstColumn` suits label/value tables; `header: false` leaves the header out.
 */
export function table(
  doc: Doc,
  columns: Column[],
  rows: string[][],
  options: {
    header?: boolean;
    boldFirstColumn?: boolean;
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
    drawRow(row, (i) => options.boldFirstColumn === true && i === 0);
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
type Scale = { min: number; max: number; ticks: number[] };

/** Round axis bounds and about `count` ticks covering lo..hi. */
export function niceScale(lo: number, hi: number, count = 5, integer = false): Scale {
  if (!(hi > lo)) {
    const pad = Math.abs(lo) * 0.1 || 1;
    lo -= pad;
    hi += pad;
  }
  const rough = (hi - lo) / (count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  if (integer) step = Math.max(1, Math.ceil(step));
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let t = min; t <= max + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return { min, max, ticks };
}

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
