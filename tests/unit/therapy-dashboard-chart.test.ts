// The therapy dashboard's main graph (spec 3 §2.7, §9): the shape (axes, bands, bars, lines with
// gaps, markers, annotations, tooltips), its server-rendered SVG, and the adapter that hands the
// same page to the PDF report.
import { describe, expect, it } from "vitest";
import {
  CYCLE_CHART_LEGEND,
  CYCLE_COLOR,
  DASHBOARD_CHART,
  NO_GRAPH_DATA,
  shapeTherapyDashboardChart,
} from "~/domain/deviceLogs/chart";
import { therapyDashboardChartSvg } from "~/domain/deviceLogs/ui/chartSvg.server";
import type { GraphPage, MergedData } from "~/domain/deviceLogs/graph";
import { complianceSeries } from "~/domain/reports/complianceReport";
import { CYCLE_CHART_LEGEND as PDF_LEGEND } from "~/domain/reports/pdfCycleChart";

type Values = (number | null)[];
type Flags = (0 | 1 | null)[];

function page(
  xs: number[],
  values: {
    P_P: Values;
    I_P: Values;
    E_P: Values;
    o: Flags;
    P_F: Values;
    P_IP: Values;
    E_V: Values;
  },
  meta: { page: number; pages: number; points: number },
): GraphPage {
  const set = (y: Values) => ({ x: xs, y, o: values.o });
  return {
    ...meta,
    merged_data: {
      Cycle_P_P: set(values.P_P),
      Cycle_I_P: set(values.I_P),
      Cycle_E_P: set(values.E_P),
      P_F: { x: xs, y: values.P_F },
      P_IP: { x: xs, y: values.P_IP },
      E_V: { x: xs, y: values.E_V },
    },
    timeStamps: xs.map((_, i) => `2026-11-05 08:00:0${i}`),
  };
}

/** Points 301..305, the last page of two (305 points in all). */
const SMALL = page(
  [301, 302, 303, 304, 305],
  {
    P_P: [5, 5, 5, 5, 5],
    I_P: [40, null, 40, 40, 40],
    E_P: [-40, -40, 0, -40, -40],
    o: [1, 1, 0, null, 0],
    P_F: [250, 255, null, 260, 270],
    P_IP: [38, 39, null, 100, -100],
    E_V: [1500, null, 1520, null, 1540],
  },
  { page: 2, pages: 2, points: 305 },
);

const EMPTY = page(
  [],
  { P_P: [], I_P: [], E_P: [], o: [], P_F: [], P_IP: [], E_V: [] },
  { page: 1, pages: 0, points: 0 },
);

function fullPage() {
  const xs = Array.from({ length: 300 }, (_, i) => i + 1);
  const each = (f: (i: number) => number | null) => xs.map((_, i) => f(i));
  return page(
    xs,
    {
      P_P: each(() => 5),
      I_P: each(() => 40),
      E_P: each(() => -40),
      o: xs.map((_, i) => (i < 150 ? 1 : 0)),
      P_F: each((i) => (i % 10 === 3 ? null : 250)),
      P_IP: each(() => 38),
      E_V: each(() => 1500),
    },
    { page: 1, pages: 3, points: 750 },
  );
}

const LEGEND_LABELS = [
  "Set Pause Pressure",
  "Set Inspiratory Pressure",
  "Set Expiratory Pressure",
  "Peak Expiratory Flow",
  "Peak Inspiratory Pressure",
  "Expiratory Volume",
  "Oscillations Enabled",
  "Oscillations Disabled",
];

describe("shapeTherapyDashboardChart", () => {
  const notes = [
    { x: 302, y: 40, text: "Weak cough" },
    { x: 12, y: 0, text: "On page 1" },
    { x: 303, y: 10, text: "   " },
  ];
  const shape = shapeTherapyDashboardChart(SMALL, notes);
  const { plot } = shape;
  const bottom = plot.y + plot.height;

  it("fixes the pressure axis at -90..90 cm H2O, labelled every 30", () => {
    expect([shape.pressure.min, shape.pressure.max]).toEqual([-90, 90]);
    expect(shape.pressure.unit).toBe("cm H2O");
    expect(shape.pressure.ticks.map((t) => t.value)).toEqual([-90, -60, -30, 0, 30, 60, 90]);
    expect(shape.pressure.ticks[0].pos).toBeCloseTo(bottom, 1);
    expect(shape.pressure.ticks[3].pos).toBeCloseTo(plot.y + plot.height / 2, 1);
    expect(shape.pressure.ticks[6].pos).toBeCloseTo(plot.y, 1);
  });

  it("fits the flow and volume axes to the data, from zero", () => {
    expect(shape.flow.unit).toBe("L/min");
    expect(shape.flow.ticks.map((t) => t.value)).toEqual([0, 50, 100, 150, 200, 250, 300]);
    expect(shape.volume.unit).toBe("ml");
    expect(shape.volume.ticks.map((t) => t.value)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(shape.flow.ticks[6].pos).toBeCloseTo(plot.y, 1);
    expect(shape.volume.ticks[0].pos).toBeCloseTo(bottom, 1);
  });

  it("gives every point one band, in order, with its number on the x axis", () => {
    expect(shape.points.map((p) => p.n)).toEqual([301, 302, 303, 304, 305]);
    expect(shape.width).toBe(960);
    expect(shape.band).toBeCloseTo(plot.width / 5, 1);
    shape.points.forEach((p, i) => {
      expect(p.left).toBeCloseTo(plot.x + i * shape.band, 1);
      expect(p.center).toBeCloseTo(p.left + shape.band / 2, 1);
    });
    expect(shape.xTicks.map((t) => t.value)).toEqual([301, 302, 303, 304, 305]);
    expect(shape.message).toBeNull();
    expect(shape.title).toContain("page 2 of 2: points 301 to 305 of 305");
  });

  it("draws set pressures as bars from zero, leaving out missing and zero values", () => {
    const [pause, insp, exp] = shape.bars;
    expect(shape.bars.map((b) => [b.key, b.color])).toEqual([
      ["P_P", CYCLE_COLOR.P_P],
      ["I_P", CYCLE_COLOR.I_P],
      ["E_P", CYCLE_COLOR.E_P],
    ]);
    expect(pause.rects.map((r) => r.n)).toEqual([301, 302, 303, 304, 305]);
    expect(insp.rects.map((r) => r.n)).toEqual([301, 303, 304, 305]);
    expect(exp.rects.map((r) => r.n)).toEqual([301, 302, 304, 305]);
    const zero = plot.y + plot.height / 2;
    expect(insp.rects[0].y + insp.rects[0].height).toBeCloseTo(zero, 1);
    expect(insp.rects[0].height).toBeCloseTo((40 / 180) * plot.height, 1);
    expect(exp.rects[0].y).toBeCloseTo(zero, 1);
    // Side by side within the band: pause, inspiratory, expiratory.
    expect(pause.rects[0].x).toBeLessThan(insp.rects[0].x);
    expect(insp.rects[0].x).toBeLessThan(exp.rects[0].x);
  });

  it("breaks the lines at nulls and turns a value alone into a dot", () => {
    const flow = shape.lines.find((l) => l.key === "P_F");
    const volume = shape.lines.find((l) => l.key === "E_V");
    expect(flow?.color).toBe(CYCLE_COLOR.P_F);
    expect(flow?.segments.map((s) => s.map((p) => p.n))).toEqual([
      [301, 302],
      [304, 305],
    ]);
    expect(flow?.dots).toEqual([]);
    expect(volume?.segments).toEqual([]);
    expect(volume?.dots.map((p) => p.n)).toEqual([301, 303, 305]);
    expect(flow?.segments[0][0].x).toBeCloseTo(shape.points[0].center, 1);
  });

  it("puts peak inspiratory pressure markers on the pressure axis, clamped to it", () => {
    expect(shape.markers.color).toBe(CYCLE_COLOR.P_IP);
    expect(shape.markers.positions.map((p) => p.n)).toEqual([301, 302, 304, 305]);
    expect(shape.markers.positions[2].y).toBeCloseTo(plot.y, 1);
    expect(shape.markers.positions[3].y).toBeCloseTo(bottom, 1);
  });

  it("keeps only annotations on this page that have text", () => {
    expect(shape.annotations.map((a) => a.text)).toEqual(["Weak cough"]);
    const [note] = shape.annotations;
    expect(note.x).toBeCloseTo(shape.points[1].center, 1);
    expect(note.y).toBeCloseTo(plot.y + (50 / 180) * plot.height, 1);
    expect(note.box.x).toBeGreaterThanOrEqual(plot.x);
    expect(note.box.x + note.box.width).toBeLessThanOrEqual(plot.x + plot.width);
  });

  it("lists each point's details for its tooltip and the pressure an annotation starts at", () => {
    expect(shape.points[1].tooltip).toEqual([
      "Point 302",
      "Time: 2026-11-05 08:00:01",
      "Set Pause Pressure: 5 cm H2O",
      "Set Inspiratory Pressure: N/A",
      "Set Expiratory Pressure: -40 cm H2O",
      "Peak Inspiratory Pressure: 39 cm H2O",
      "Peak Expiratory Flow: 255 L/min",
      "Expiratory Volume: N/A",
      "Oscillation: On",
    ]);
    expect(shape.points[2].tooltip.at(-1)).toBe("Oscillation: Off");
    expect(shape.points[3].tooltip.at(-1)).toBe("Oscillation: N/A");
    expect(shape.points.map((p) => p.oscillation)).toEqual([1, 1, 0, null, 0]);
    // P_IP when measured, otherwise the set inspiratory pressure.
    expect(shape.points.map((p) => p.annotationY)).toEqual([38, 39, 40, 100, -100]);
  });

  it("fits a 300-point page in its fixed width (the page scales the SVG to its box)", () => {
    const full = shapeTherapyDashboardChart(fullPage(), []);
    expect(full.points).toHaveLength(300);
    expect(full.width).toBe(DASHBOARD_CHART.width);
    expect(full.band).toBeGreaterThanOrEqual(2.5);
    expect(full.points.at(-1)!.left + full.band).toBeCloseTo(full.plot.x + full.plot.width, 1);
    expect(full.lines.find((l) => l.key === "P_F")?.segments).toHaveLength(31);
  });

  it("shows an empty frame with 'No data available' for a page without points", () => {
    const empty = shapeTherapyDashboardChart(EMPTY, [{ x: 1, y: 0, text: "lost" }]);
    expect(empty.message).toBe(NO_GRAPH_DATA);
    expect(NO_GRAPH_DATA).toBe("No data available");
    expect(empty.points).toEqual([]);
    expect(empty.bars).toEqual([]);
    expect(empty.lines).toEqual([]);
    expect(empty.annotations).toEqual([]);
    expect(empty.markers.positions).toEqual([]);
    expect(empty.xTicks).toEqual([]);
    expect(empty.pressure.ticks).toHaveLength(7);
    expect(empty.width).toBe(DASHBOARD_CHART.width);
  });

  it("uses the PDF chart's legend, in one table", () => {
    expect(CYCLE_CHART_LEGEND.map((l) => l.label)).toEqual(LEGEND_LABELS);
    expect(PDF_LEGEND).toBe(CYCLE_CHART_LEGEND);
  });
});

describe("therapyDashboardChartSvg", () => {
  const svg = therapyDashboardChartSvg(SMALL, [
    { x: 303, y: 20, text: "Weak <cough>" },
    { x: 12, y: 0, text: "On page 1" },
  ]);
  const graphPoints = [...svg.matchAll(/<rect class="graph-point"[^>]*>/g)].map((m) => m[0]);

  it("is one accessible svg with no script, id or external resource", () => {
    expect(svg).toMatch(/^<svg [^>]*role="img"/);
    expect(svg).toMatch(/^<svg [^>]*aria-label="Therapy dashboard graph, page 2 of 2/);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 960 420"/);
    expect(svg).toMatch(/^<svg [^>]*><title>Therapy dashboard graph/);
    expect(svg.split("<svg").length - 1).toBe(1);
    expect(svg).not.toMatch(/<script|<div|<foreignObject|\bid="|href=|url\(/i);
  });

  it("writes every legend label and the axis units", () => {
    for (const label of LEGEND_LABELS) expect(svg).toContain(`>${label}</text>`);
    for (const unit of ["cm H2O", "L/min", "ml"]) expect(svg).toContain(`>${unit}</text>`);
    for (const color of Object.values(CYCLE_COLOR)) expect(svg).toContain(`fill="${color}"`);
  });

  it("has one graph-point per point with its number, a pressure and a tooltip", () => {
    expect(graphPoints).toHaveLength(5);
    expect(graphPoints.map((r) => /data-x="(\d+)"/.exec(r)?.[1])).toEqual([
      "301",
      "302",
      "303",
      "304",
      "305",
    ]);
    expect(graphPoints.map((r) => /data-y="(-?\d+)"/.exec(r)?.[1])).toEqual([
      "38",
      "39",
      "40",
      "100",
      "-100",
    ]);
    expect(svg).toMatch(
      /<rect class="graph-point" data-x="302"[^>]*><title>Point 302\nTime: 2026-11-05 08:00:01\n/,
    );
  });

  it("draws only this page's annotations, escaped", () => {
    expect(svg).toContain("Weak &lt;cough&gt;");
    expect(svg).not.toContain("On page 1");
  });

  it("renders a 300-point page with 300 graph-points", () => {
    const full = therapyDashboardChartSvg(fullPage());
    expect(full.split('class="graph-point"').length - 1).toBe(300);
    expect(full).toContain('data-x="300"');
    expect(full).not.toContain('data-x="301"');
  });

  it("renders an empty page as a frame with 'No data available'", () => {
    const empty = therapyDashboardChartSvg(EMPTY);
    expect(empty).toContain(">No data available</text>");
    expect(empty).not.toContain('class="graph-point"');
    expect(empty).toMatch(/^<svg [^>]*role="img"/);
  });
});

describe("complianceSeries", () => {
  it("turns merged_data's columns into the report chart's point lists", () => {
    const merged: MergedData = {
      Cycle_P_P: { x: [7, 8], y: [5, null], o: [1, 0] },
      Cycle_I_P: { x: [7, 8], y: [40, 41], o: [1, null] },
      Cycle_E_P: { x: [7, 8], y: [-40, -41], o: [1, 0] },
      P_F: { x: [7, 8], y: [250, null] },
      P_IP: { x: [7, 8], y: [null, 39] },
      E_V: { x: [7, 8], y: [1500, 1510] },
    };
    expect(complianceSeries(merged)).toEqual({
      P_P: [
        { x: 7, y: 5, o: 1 },
        { x: 8, y: null, o: 0 },
      ],
      I_P: [
        { x: 7, y: 40, o: 1 },
        { x: 8, y: 41, o: null },
      ],
      E_P: [
        { x: 7, y: -40, o: 1 },
        { x: 8, y: -41, o: 0 },
      ],
      P_F: [
        { x: 7, y: 250 },
        { x: 8, y: null },
      ],
      P_IP: [
        { x: 7, y: null },
        { x: 8, y: 39 },
      ],
      E_V: [
        { x: 7, y: 1500 },
        { x: 8, y: 1510 },
      ],
    });
  });

  it("gives an empty page empty lists", () => {
    expect(complianceSeries(EMPTY.merged_data)).toEqual({
      P_P: [],
      I_P: [],
      E_P: [],
      P_F: [],
      P_IP: [],
      E_V: [],
    });
  });
});
