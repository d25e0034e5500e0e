// Axis arithmetic shared by the web charts and the PDF reports: pure, so the browser-side shape
// modules can use it without pulling pdfkit in.

export type Scale = { min: number; max: number; ticks: number[] };

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
