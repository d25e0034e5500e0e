// The patient profile's charts as SVG strings, rendered in loaders (docs/decisions.md: charts are
// drawn on the server, so they show without JavaScript and nivo never reaches the browser).
// Routes put the strings into the page with dangerouslySetInnerHTML; every string is one <svg>
// element with role="img", an aria-label and a <title>, and no script, id or external resource.
//
// Rendering a nivo chart costs milliseconds (two years of days: tens of them), so every chart is
// kept once drawn, keyed by a hash of the exact data it draws (its shape): the same patient, range
// and data give the same key, and any new value (a transmission, a goal, another range) gives a
// new one. Nothing is ever stale; the least recently used charts leave when the cache is full.
import { createHash } from "node:crypto";
import type { ReactElement } from "react";
import { BoundedCache } from "~/lib/boundedCache";
import { renderToStaticMarkup } from "react-dom/server";
import { AdherenceCalendar } from "./AdherenceCalendar";
import { AdherenceGauge } from "./AdherenceGauge";
import {
  shapeAdherenceCalendar,
  shapeAdherenceGauge,
  type AdherenceDayInput,
} from "./adherenceShape";
import { CycleChart } from "./CycleChart";
import { shapeCycleChart, type CycleChartInput, type CycleDetail } from "./cycleShape";
import { LineChart } from "./LineChart";
import {
  shapeCycleTrendCharts,
  shapeHmrChart,
  shapeScoreHistory,
  shapeTrendCharts,
  type CycleTrendInput,
  type HmrDayInput,
  type LineChartShape,
  type ScoreDayInput,
  type TrendChartsShape,
  type TrendDayInput,
} from "./lineShape";

export type TrendChartsSvg = { peakFlow: string; expVolume: string; peakInspP: string };

const SCALE_DOWN = "max-width:100%;height:auto";

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * nivo's SvgWrapper has no <title> child (a <title> drawn in a layer would name a <g>, not the
 * chart) and no viewBox; both go into the root element here, with a style that lets the chart
 * shrink to a narrow screen (the viewBox keeps it sharp and in proportion).
 */
export function finishSvgRoot(svg: string, title: string) {
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) throw new Error("chart markup does not start with <svg>");
  let tag = open[0];
  const width = /\swidth="(\d+(?:\.\d+)?)"/.exec(tag)?.[1];
  const height = /\sheight="(\d+(?:\.\d+)?)"/.exec(tag)?.[1];
  if (!/\sviewBox=/.test(tag) && width && height) {
    tag = tag.replace(/^<svg\b/, `<svg viewBox="0 0 ${width} ${height}"`);
  }
  if (!/\sstyle=/.test(tag)) tag = tag.replace(/^<svg\b/, `<svg style="${SCALE_DOWN}"`);
  const rest = svg.slice(open[0].length);
  return rest.startsWith("<title>")
    ? tag + rest
    : `${tag}<title>${escapeXml(title)}</title>${rest}`;
}

/** At most this many characters of chart markup are kept (a two-year trend chart is about 25,000). */
export const CHART_CACHE_CHARS = 8_000_000;
export const chartSvgCache = new BoundedCache<string>(
  { maxEntries: 2_000, maxWeight: CHART_CACHE_CHARS },
  (svg) => svg.length,
);

/** The chart of `kind` for exactly this shape: drawn once, then read from the cache. */
function cachedChart(kind: string, shape: unknown, draw: () => string) {
  const key = `${kind}:${createHash("sha1").update(JSON.stringify(shape)).digest("base64url")}`;
  return chartSvgCache.getOrSet(key, draw);
}

/**
 * One chart component's markup as a finished <svg> string (an area's own charts render through it
 * too, e.g. domain/deviceLogs/ui/chartSvg.server.tsx). `title` is used only when the component
 * did not draw its own.
 */
export function renderChartSvg(element: ReactElement, title: string) {
  return finishSvgRoot(renderToStaticMarkup(element), title);
}

export function cycleChartSvg(input: CycleChartInput): {
  svg: string;
  caption: string;
  details: CycleDetail[];
} {
  const shape = shapeCycleChart(input);
  return {
    svg: cachedChart("cycle", shape, () =>
      renderChartSvg(<CycleChart shape={shape} />, `Therapy cycle chart. ${shape.caption}`),
    ),
    caption: shape.caption,
    details: shape.details,
  };
}

export function adherenceCalendarSvg(days: readonly AdherenceDayInput[]): string {
  const bars = shapeAdherenceCalendar(days);
  return cachedChart("calendar", bars, () =>
    renderChartSvg(<AdherenceCalendar bars={bars} />, "Adherence calendar"),
  );
}

export function adherenceGaugeSvg(score: number | null): string {
  const gauge = shapeAdherenceGauge(score);
  return cachedChart("gauge", gauge, () =>
    renderChartSvg(<AdherenceGauge gauge={gauge} />, "Adherence score"),
  );
}

export function lineChartSvg(shape: LineChartShape): string {
  return cachedChart("line", shape, () => renderChartSvg(<LineChart shape={shape} />, shape.title));
}

function trendSvgs(charts: TrendChartsShape): TrendChartsSvg {
  return {
    peakFlow: lineChartSvg(charts.peakFlow),
    expVolume: lineChartSvg(charts.expVolume),
    peakInspP: lineChartSvg(charts.peakInspP),
  };
}

/**
 * The trend charts of each series of days already drawn: the profile's series are shared,
 * never-changed values of a cache (domain/patients/profileQueries.server.ts trendCache, one per
 * patient, range and transmission version), so the same series object draws the same charts, and
 * shaping and hashing two years of days again on every view (a tenth of the page's CPU) is skipped.
 * Weak: a series that leaves its cache takes its charts along.
 */
const trendChartsOf = new WeakMap<readonly TrendDayInput[], TrendChartsSvg>();

/** `days` must not change after the call (the charts drawn from it are kept with it). */
export function trendChartsSvg(days: readonly TrendDayInput[]): TrendChartsSvg {
  let charts = trendChartsOf.get(days);
  if (!charts) {
    charts = trendSvgs(shapeTrendCharts(days));
    trendChartsOf.set(days, charts);
  }
  // A copy: a page load makes the caller's object's strings non-enumerable (hydration.server.ts).
  return { ...charts };
}

export function cycleTrendChartsSvg(cycles: readonly CycleTrendInput[]): TrendChartsSvg {
  return trendSvgs(shapeCycleTrendCharts(cycles));
}

export function hmrChartSvg(days: readonly HmrDayInput[]): string {
  return lineChartSvg(shapeHmrChart(days));
}

export function scoreHistorySvg(days: readonly ScoreDayInput[]): string {
  return lineChartSvg(shapeScoreHistory(days));
}
