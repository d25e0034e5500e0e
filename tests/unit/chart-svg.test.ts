// The server-rendered chart markup (app/ui/charts/svg.server.tsx): one accessible <svg> per
// chart, the bars and colours the shaping asked for, native <title> tooltips, "No data" frames.
import { describe, expect, it } from "vitest";
import { CHART_COLORS, type CycleChartInput } from "~/ui/charts/shape";
import {
  adherenceCalendarSvg,
  adherenceGaugeSvg,
  cycleChartSvg,
  cycleTrendChartsSvg,
  finishSvgRoot,
  hmrChartSvg,
  scoreHistorySvg,
  trendChartsSvg,
} from "~/ui/charts/svg.server";

const count = (haystack: string, needle: string | RegExp) =>
  typeof needle === "string"
    ? haystack.split(needle).length - 1
    : (haystack.match(new RegExp(needle.source, "g")) ?? []).length;

/** nivo writes bar fills as rgba(); the calendar and gauge keep the palette's hex. */
const rgba = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, 1)`;
};

/** The fill of every nivo bar, in document order (keys first, then cycles). */
const barFills = (svg: string) =>
  [...svg.matchAll(/<rect [^>]*fill="([^"]+)"[^>]*data-testid="bar\.item\.(\w+)\.(\d+)"/g)].map(
    (m) => ({ fill: m[1], key: m[2], index: Number(m[3]) }),
  );

function expectAccessibleSvg(svg: string, titlePart: string) {
  expect(svg.startsWith("<svg")).toBe(true);
  expect(svg.endsWith("</svg>")).toBe(true);
  expect(count(svg, "<svg")).toBe(1);
  expect(svg).toMatch(/^<svg [^>]*role="img"/);
  expect(svg).toMatch(/^<svg [^>]*aria-label="[^"]+"/);
  expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
  // The <title> is the root's first child, so it names the whole chart.
  expect(svg).toMatch(new RegExp(`^<svg [^>]*><title>[^<]*${titlePart}`));
  expect(svg).not.toMatch(/<script|<div|<foreignObject|\bid="|href=/i);
}

const oneTherapy: CycleChartInput = {
  mode: "Auto",
  prescribedCycles: 6,
  cyclesDelivered: 4,
  settings: { pauseP: 5, inspP: 40, expP: -40, oscillation: false },
  cycles: [1, 2, 3, 5].map((n) => ({
    n,
    peakInspP: 38,
    expVolume: 1200 + n,
    peakFlow: 250,
    spo2: n === 2 ? null : 97,
    oscillation: n === 1,
  })),
};

describe("cycle chart svg", () => {
  const { svg, caption, details } = cycleChartSvg(oneTherapy);

  it("is one accessible svg with the caption drawn in it", () => {
    expectAccessibleSvg(svg, "Therapy Mode: Auto");
    expect(caption).toBe("Therapy Mode: Auto");
    expect(svg).toContain(">Therapy Mode: Auto</text>");
  });

  it("draws three bars per cycle, coloured when completed and grey otherwise", () => {
    const fills = barFills(svg);
    expect(fills).toHaveLength(6 * 3);
    const colourOf = (key: string, index: number) =>
      fills.find((f) => f.key === key && f.index === index)?.fill;
    for (const i of [0, 1, 2, 3]) {
      expect(colourOf("pauseP", i)).toBe(rgba(CHART_COLORS.blue));
      expect(colourOf("inspP", i)).toBe(rgba(CHART_COLORS.green));
      expect(colourOf("expP", i)).toBe(rgba(CHART_COLORS.red));
    }
    for (const i of [4, 5])
      for (const key of ["pauseP", "inspP", "expP"])
        expect(colourOf(key, i)).toBe(rgba(CHART_COLORS.grey));
  });

  it("labels every cycle and strikes through those without measurements", () => {
    for (const n of [1, 2, 3, 4, 5, 6]) expect(svg).toContain(`>Cycle ${n}</text>`);
    expect(count(svg, 'class="cycle-label cycle-label--struck"')).toBe(2);
    expect(svg).toMatch(/cycle-label--struck"[^>]*>Cycle 4</);
    expect(svg).toMatch(/cycle-label--struck"[^>]*>Cycle 6</);
    expect(svg).not.toMatch(/cycle-label--struck"[^>]*>Cycle [1235]</);
  });

  it("gives each completed measured cycle a native tooltip with its details", () => {
    expect(details.map((d) => d.n)).toEqual([1, 2, 3]);
    expect(count(svg, 'class="cycle-tooltip"')).toBe(3);
    expect(svg).toContain(
      "<title>Cycle 1\nPIP: 38 cmH2O\nEx Vol: 1201 ml\nPFlow: 250 lpm\nSpo2: 97\nOSC: On</title>",
    );
    expect(svg).toContain(
      "<title>Cycle 2\nPIP: 38 cmH2O\nEx Vol: 1202 ml\nPFlow: 250 lpm\nSpo2: NA\nOSC: Off</title>",
    );
    // On the hover band over the bars and on the info icon under the label.
    for (const n of [1, 2, 3]) {
      expect(svg).toMatch(new RegExp(`class="cycle-tooltip"><title>Cycle ${n}\nPIP`));
      expect(svg).toMatch(new RegExp(`class="cycle-info"><title>Cycle ${n}\nPIP`));
    }
    // Cycle 5 has measurements but was not completed.
    expect(svg).not.toContain("<title>Cycle 5");
  });

  it("fixes the pressure axis at -70..70 in steps of 10", () => {
    for (let v = -70; v <= 70; v += 10) expect(svg).toMatch(new RegExp(`>${v}</text>`));
    expect(svg).not.toMatch(/>(-?80|75)<\/text>/);
  });

  it("draws the wave under completed cycles only when the first cycle oscillates", () => {
    expect(count(svg, 'class="cycle-wave"')).toBe(4);
    const noOscillation = cycleChartSvg({
      ...oneTherapy!,
      cycles: oneTherapy!.cycles.map((c) => ({ ...c, oscillation: false })),
    });
    expect(count(noOscillation.svg, 'class="cycle-wave"')).toBe(0);
  });

  it("without data draws five zero-height bar groups", () => {
    const empty = cycleChartSvg(null);
    expectAccessibleSvg(empty.svg, "Therapy Mode: -");
    const fills = barFills(empty.svg);
    expect(fills).toHaveLength(15);
    expect(new Set(fills.map((f) => f.index))).toEqual(new Set([0, 1, 2, 3, 4]));
    const heights = [...empty.svg.matchAll(/<rect [^>]*height="([^"]+)"[^>]*data-testid="bar/g)];
    expect(heights.map((m) => Number(m[1]))).toEqual(Array(15).fill(0));
    expect(empty.details).toEqual([]);
    expect(empty.svg).not.toContain("cycle-label--struck");
  });

  it("escapes a mode from the device", () => {
    const { svg: odd } = cycleChartSvg({ ...oneTherapy!, mode: 'A<b>&"c' });
    expect(odd).toContain("Therapy Mode: A&lt;b&gt;&amp;");
    expect(odd).not.toContain("<b>");
  });
});

describe("adherence calendar svg", () => {
  const week = ["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-04", "2025-01-05"]
    .concat(["2025-01-06", "2025-01-07"])
    .map((day, i) => ({
      day,
      isGoalDay: i !== 5,
      timesPerDay: 3,
      completed: [0, 1, 2, 3, 4, 0, 0][i],
    }));
  const svg = adherenceCalendarSvg(week);
  const bars = [...svg.matchAll(/<rect class="calendar-bar"([^>]*)>/g)].map((m) => ({
    height: Number(/height="([^"]+)"/.exec(m[1])![1]),
    fill: /fill="([^"]+)"/.exec(m[1])![1],
  }));

  it("draws seven bars with 68 px × ratio heights and the rule's colours", () => {
    expectAccessibleSvg(svg, "last 7 days");
    expect(bars).toHaveLength(7);
    expect(bars.map((b) => b.height)).toEqual([4, 22.67, 45.33, 68, 68, 4, 4]);
    const { red, green, grey } = CHART_COLORS;
    expect(bars.map((b) => b.fill)).toEqual([red, green, green, green, green, grey, red]);
  });

  it("labels weekdays and days of month, with a tooltip per day", () => {
    for (const name of ["Wed", "Thu", "Fri", "Sat", "Sun", "Mon", "Tue"])
      expect(svg).toContain(`>${name}</text>`);
    expect(svg).toContain(">7</text>");
    expect(svg).toContain("<title>Thu 2: 1 of 3 therapies</title>");
  });

  it('shows "No data" without days', () => {
    const empty = adherenceCalendarSvg([]);
    expectAccessibleSvg(empty, "no data");
    expect(empty).toContain(">No data</text>");
    expect(empty).not.toContain("calendar-bar");
  });
});

describe("adherence gauge svg", () => {
  const dash = (svg: string) => {
    const m = /stroke-dasharray="([\d.]+) /.exec(svg);
    return m ? Number(m[1]) : 0;
  };
  const circumference = 2 * Math.PI * 63;

  it("shows the whole percent and fills that share of the ring", () => {
    const svg = adherenceGaugeSvg(0.853);
    expectAccessibleSvg(svg, "85%");
    expect(svg).toContain(">85%</text>");
    expect(dash(svg)).toBeCloseTo(circumference * 0.85, 1);
  });

  it("caps at 100 %", () => {
    const svg = adherenceGaugeSvg(1.4);
    expect(svg).toContain(">100%</text>");
    expect(dash(svg)).toBeCloseTo(circumference, 1);
  });

  it('shows "-" and an empty ring without a score', () => {
    const svg = adherenceGaugeSvg(null);
    expect(svg).toContain(">-</text>");
    expect(svg).not.toContain("gauge-arc");
    expect(svg).toContain("no score");
  });
});

describe("line chart svgs", () => {
  const days = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
    );
  const tickLabels = (svg: string) => [...svg.matchAll(/>(\d{2}-[A-Z][a-z]{2})<\/text>/g)];
  /** The drawn line: nivo's path for the series, one "M" per run of known values. */
  const linePath = (svg: string) =>
    /<path d="(M[^"]*)" fill="none" stroke-width="2"/.exec(svg)?.[1];

  it("draws three accessible trend charts with the units", () => {
    const charts = trendChartsSvg(
      days(30).map((day, i) => ({
        day,
        peakFlow: 240 + i,
        expVolume: 1100,
        peakInspP: 38,
      })),
    );
    expectAccessibleSvg(charts.peakFlow, "Peak expiratory flow");
    expectAccessibleSvg(charts.expVolume, "Expiratory volume");
    expectAccessibleSvg(charts.peakInspP, "Peak inspiratory pressure");
    expect(charts.peakFlow).toContain(">L/min</text>");
    expect(charts.expVolume).toContain(">ml</text>");
    expect(charts.peakInspP).toContain(">cmH2O</text>");
    expect(tickLabels(charts.peakFlow)).toHaveLength(15);
    expect(count(linePath(charts.peakFlow)!, "M")).toBe(1);
  });

  it("puts at most 15 date labels on a year", () => {
    const { peakFlow } = trendChartsSvg(
      days(365).map((day) => ({ day, peakFlow: 250, expVolume: 1, peakInspP: 1 })),
    );
    const labels = tickLabels(peakFlow);
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.length).toBeLessThanOrEqual(15);
    expect(labels[0][1]).toBe("01-Jan");
  });

  it("breaks the line at days without a value", () => {
    const { peakFlow } = trendChartsSvg(
      days(6).map((day, i) => ({
        day,
        peakFlow: i === 2 || i === 3 ? null : 250 + i,
        expVolume: 1,
        peakInspP: 1,
      })),
    );
    expect(count(linePath(peakFlow)!, "M")).toBe(2);
  });

  it("draws the cycle drill-down with the cycles' times", () => {
    const charts = cycleTrendChartsSvg([
      { time: "08:15", peakFlow: 200, expVolume: 1000, peakInspP: 30 },
      { time: "08:16", peakFlow: 210, expVolume: 1010, peakInspP: 31 },
    ]);
    expectAccessibleSvg(charts.peakFlow, "per cycle");
    expect(charts.peakFlow).toContain(">08:15</text>");
    expect(charts.peakFlow).toContain(">08:16</text>");
  });

  it("draws HMR in hours and the score history in percent up to 100", () => {
    const hmr = hmrChartSvg(days(10).map((day, i) => ({ day, maxHmr: 100 + i })));
    expectAccessibleSvg(hmr, "HMR");
    expect(hmr).toContain(">hours</text>");
    const score = scoreHistorySvg(days(10).map((day, i) => ({ day, score: i / 9 })));
    expectAccessibleSvg(score, "Adherence score history");
    expect(score).toContain(">100</text>");
    expect(score).not.toMatch(/>1[1-9]0<\/text>/);
    expect(score).toContain(`stroke="${CHART_COLORS.green}"`);
  });

  it('shows "No data" frames for empty inputs and never throws', () => {
    for (const svg of [
      hmrChartSvg([]),
      scoreHistorySvg([{ day: "2025-01-01", score: null }]),
      ...Object.values(trendChartsSvg([])),
      ...Object.values(cycleTrendChartsSvg([])),
    ]) {
      expectAccessibleSvg(svg, "no data");
      expect(svg).toContain(">No data</text>");
    }
  });
});

describe("finishSvgRoot", () => {
  it("adds a title, a viewBox and the scale-down style once", () => {
    const done = finishSvgRoot('<svg width="10" height="20"><g></g></svg>', "A & B");
    expect(done).toBe(
      '<svg style="max-width:100%;height:auto" viewBox="0 0 10 20" width="10" height="20"><title>A &amp; B</title><g></g></svg>',
    );
    expect(finishSvgRoot(done, "other")).toBe(done);
  });

  it("refuses markup that is not a bare svg (nivo's wrapper div came back)", () => {
    expect(() => finishSvgRoot('<div style="position:relative"><svg></svg></div>', "x")).toThrow();
  });
});
