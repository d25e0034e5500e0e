// Axis arithmetic shared by the web charts and the PDF reports: one rule, d3-scale's nice() and
// ticks(), so a value axis reads the same on the page and in the PDF. Pure, so the browser-side
// shape modules can use it without pulling pdfkit in.
import { scaleLinear } from "d3-scale";

export type Scale = { min: number; max: number; ticks: number[] };

/**
 * Round axis bounds and about `count` ticks covering lo..hi (d3-scale's nice(count) and
 * ticks(count)). `integer` axes (counts, hours) get whole-number ticks only, at least 1 apart.
 *
 * A flat series (lo === hi) gets room around its value: ±1 (so 775.15 every day reads 774..777
 * with whole ticks), or ±the value itself when it is below 1 in size (0.05 reads 0..0.1), and
 * -1..1 for zero. Never a hair-thin range with ticks 0.01 apart.
 */
export function niceScale(lo: number, hi: number, count = 5, integer = false): Scale {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (lo > hi) [lo, hi] = [hi, lo];
  if (lo === hi) {
    const size = Math.abs(lo);
    const pad = integer || size >= 1 || size === 0 ? 1 : size;
    lo -= pad;
    hi += pad;
  }
  if (integer) {
    lo = Math.floor(lo);
    hi = Math.ceil(hi);
  }
  const scale = scaleLinear().domain([lo, hi]).nice(count);
  let [min, max] = scale.domain();
  let ticks = scale.ticks(count);
  if (integer) {
    ticks = ticks.filter((t) => Number.isInteger(t));
    min = Math.floor(min);
    max = Math.ceil(max);
    if (ticks.length < 2) ticks = [min, max];
  }
  // d3 keeps ticks inside the domain; -0 reads "-0" in some formatters.
  return { min, max, ticks: ticks.map((t) => (Object.is(t, -0) ? 0 : t)) };
}

export type ValueAxisOptions = {
  /** A fixed axis (e.g. 0..100 %): its bounds as given, nice ticks inside them. */
  range?: [number, number];
  /** The axis starts at zero (or below, for negative values). */
  fromZero?: boolean;
  /** Whole-number ticks (counts, hours). */
  integer?: boolean;
  count?: number;
};

/** A chart's value axis for its values (nulls and non-finite values left out): page and PDF. */
export function valueScale(values: readonly (number | null)[], options: ValueAxisOptions = {}) {
  const count = options.count ?? 5;
  if (options.range) {
    const [min, max] = options.range;
    const ticks = niceScale(min, max, count, options.integer).ticks;
    return { min, max, ticks: ticks.filter((t) => t >= min && t <= max) };
  }
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (present.length === 0) return niceScale(0, 1, count, options.integer);
  let lo = Math.min(...present);
  const hi = Math.max(...present);
  if (options.fromZero) lo = Math.min(0, lo);
  return niceScale(lo, hi, count, options.integer);
}

const TICK_FORMAT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
/** A tick's text, the same on the page and in the PDF: "1,500", "774.5". */
export const formatTick = (value: number) => TICK_FORMAT.format(value);
