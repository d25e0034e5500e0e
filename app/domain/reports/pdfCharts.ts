// The patient report's day charts on pdfkit's path API: one band per day, with a titled frame,
// grid, y ticks and a few day labels (goal bars, and lines broken at the days without a value).
import { formatDay } from "~/lib/time";
import { pickTicks } from "~/ui/charts/lineShape";
import { niceScale, valueScale, type Scale, type ValueAxisOptions } from "~/ui/charts/scale";
import { cell, COLOR, FONT, FONT_BOLD, NO_DATA, tickNumber, type Box, type Doc } from "./pdfLayout";

const DAY_LABEL = "dd-MMM-yyyy";
const LABEL_GAP = 8;

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

  // Every day while the labels fit side by side (a week always does), else every k-th from the
  // first: the page's rule (lineShape pickTicks), with as many as the width holds.
  const labelWidth = doc.widthOfString(formatDay("2026-11-28", DAY_LABEL)) + LABEL_GAP;
  const fit = Math.max(1, Math.floor(plot.width / labelWidth));
  for (const i of pickTicks(
    days.map((_, i) => i),
    fit,
  )) {
    const label = formatDay(days[i], DAY_LABEL);
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
 * One series as a line, broken where a value is null; a value alone between gaps is a dot. The
 * value axis follows the page's chart of the same data (scale.ts valueScale with its options).
 */
export function lineChart(
  doc: Doc,
  box: Box,
  title: string,
  days: string[],
  values: (number | null)[],
  axis: ValueAxisOptions = {},
) {
  const series = values.map((v) => (v !== null && Number.isFinite(v) ? v : null));
  const present = series.filter((v): v is number => v !== null);
  const scale: Scale = valueScale(series, axis);
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
