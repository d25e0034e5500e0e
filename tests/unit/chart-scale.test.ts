// The one value-axis rule of the page's charts and the PDF's (app/ui/charts/scale.ts): d3-scale's
// nice() and ticks(), with a padded flat series and whole-number axes for counts and hours.
import { describe, expect, it } from "vitest";
import { formatTick, niceScale, valueScale } from "~/ui/charts/scale";

const step = (ticks: number[]) => ticks[1] - ticks[0];

function expectSensible(
  scale: { min: number; max: number; ticks: number[] },
  lo: number,
  hi: number,
) {
  expect(scale.min).toBeLessThanOrEqual(lo);
  expect(scale.max).toBeGreaterThanOrEqual(hi);
  expect(scale.ticks.length).toBeGreaterThanOrEqual(2);
  expect(scale.ticks.length).toBeLessThanOrEqual(8);
  expect(scale.ticks[0]).toBeGreaterThanOrEqual(scale.min);
  expect(scale.ticks[scale.ticks.length - 1]).toBeLessThanOrEqual(scale.max);
  // Evenly spaced, and every label different.
  const gaps = scale.ticks.slice(1).map((t, i) => +(t - scale.ticks[i]).toFixed(9));
  expect(new Set(gaps).size).toBe(1);
  expect(new Set(scale.ticks.map(formatTick)).size).toBe(scale.ticks.length);
}

describe("niceScale", () => {
  it("rounds the bounds out to d3's nice ticks", () => {
    expect(niceScale(0, 252)).toEqual({
      min: 0,
      max: 300,
      ticks: [0, 50, 100, 150, 200, 250, 300],
    });
    expect(niceScale(3, 97)).toEqual({ min: 0, max: 100, ticks: [0, 20, 40, 60, 80, 100] });
  });

  it("gives a flat series room around its value, never a hair-thin axis", () => {
    const hmr = niceScale(775.15, 775.15);
    expectSensible(hmr, 775.15, 775.15);
    expect(step(hmr.ticks)).toBeGreaterThanOrEqual(0.5);
    expect(niceScale(775.15, 775.15, 5, true)).toEqual({
      min: 774,
      max: 777,
      ticks: [774, 775, 776, 777],
    });
    expect(niceScale(0, 0)).toEqual({ min: -1, max: 1, ticks: [-1, -0.5, 0, 0.5, 1] });
    // A small value keeps its own size: 0.05 reads on 0..0.1.
    expectSensible(niceScale(0.05, 0.05), 0.05, 0.05);
    expect(niceScale(0.05, 0.05).min).toBe(0);
  });

  it("keeps a tiny range readable", () => {
    const tiny = niceScale(775.1, 775.2);
    expectSensible(tiny, 775.1, 775.2);
    expect(tiny.ticks.every((t) => Number.isFinite(t) && String(t).length <= 6)).toBe(true);
  });

  it("handles negative ranges", () => {
    expect(niceScale(-37.5, 12)).toEqual({
      min: -40,
      max: 20,
      ticks: [-40, -30, -20, -10, 0, 10, 20],
    });
    expectSensible(niceScale(-3, -3), -3, -3);
    expect(niceScale(-0.4, 0).ticks.map(formatTick)).not.toContain("-0");
  });

  it("gives integer axes whole-number ticks, at least 1 apart", () => {
    const hours = niceScale(775.1, 775.2, 5, true);
    expect(hours).toEqual({ min: 775, max: 776, ticks: [775, 776] });
    const counts = niceScale(0, 3, 5, true);
    expect(counts.ticks).toEqual([0, 1, 2, 3]);
    expect(niceScale(0, 33, 5, true).ticks.every(Number.isInteger)).toBe(true);
    expectSensible(niceScale(684.4, 685.2, 5, true), 684.4, 685.2);
  });
});

describe("valueScale", () => {
  it("fits the values, from zero when asked, leaving gaps out", () => {
    expect(valueScale([250, null, 254], { fromZero: true })).toEqual(niceScale(0, 254));
    expect(valueScale([193, 199], { integer: true }).ticks).toEqual([
      193, 194, 195, 196, 197, 198, 199,
    ]);
  });

  it("keeps a fixed range as given, with nice ticks inside", () => {
    expect(valueScale([12, 50], { range: [0, 100] })).toEqual({
      min: 0,
      max: 100,
      ticks: [0, 20, 40, 60, 80, 100],
    });
  });

  it("reads 0..1 when there is no value", () => {
    expect(valueScale([null, null])).toEqual(niceScale(0, 1));
  });
});
