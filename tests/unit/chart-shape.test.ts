// The chart rules of spec 3 §2.2, §2.4 and §9 as data: cycle bars and their colours, labels and
// tooltips, the 68 px calendar, the gauge's cap and "-", tick thinning and gaps in line charts.
import { describe, expect, it } from "vitest";
import { formatDayMonthYear } from "~/ui/charts/days";
import { addDays } from "~/domain/adherence/score";
import { formatDay } from "~/lib/time";
import {
  CHART_COLORS,
  formatDayMonth,
  pickTicks,
  shapeAdherenceCalendar,
  shapeAdherenceGauge,
  shapeCycleChart,
  shapeCycleTrendCharts,
  shapeHmrChart,
  shapeScoreHistory,
  shapeTrendCharts,
  type CycleChartInput,
} from "~/ui/charts/shape";

const { green, red, grey, blue } = CHART_COLORS;

const measurement = (n: number, over: Partial<NonNullable<CycleChartInput>["cycles"][0]> = {}) => ({
  n,
  peakInspP: 38,
  expVolume: 1200,
  peakFlow: 250,
  spo2: 97,
  oscillation: false,
  ...over,
});

const therapy = (over: Partial<NonNullable<CycleChartInput>> = {}): CycleChartInput => ({
  mode: "Auto",
  prescribedCycles: 5,
  cyclesDelivered: 3,
  settings: { pauseP: 5, inspP: 40, expP: -40, oscillation: false },
  cycles: [measurement(1), measurement(2), measurement(3)],
  ...over,
});

const days = (n: number, from = Date.UTC(2025, 0, 1)) =>
  Array.from({ length: n }, (_, i) => new Date(from + i * 86_400_000).toISOString().slice(0, 10));

describe("cycle chart", () => {
  it("without data shows five zero bars, cycles 1 to 5, grey and not struck", () => {
    const shape = shapeCycleChart(null);
    expect(shape.noData).toBe(true);
    expect(shape.bars.map((b) => b.label)).toEqual([
      "Cycle 1",
      "Cycle 2",
      "Cycle 3",
      "Cycle 4",
      "Cycle 5",
    ]);
    for (const bar of shape.bars) {
      expect(bar.values).toEqual({ pauseP: 0, inspP: 0, expP: 0 });
      expect(bar.completed).toBe(false);
      expect(bar.struck).toBe(false);
      expect(bar.detail).toBeNull();
    }
    expect(shape.details).toEqual([]);
    expect(shape.caption).toBe("Therapy Mode: -");
  });

  it("a therapy with no cycles at all also shows five zero bars", () => {
    const shape = shapeCycleChart(therapy({ prescribedCycles: 0, cyclesDelivered: 0, cycles: [] }));
    expect(shape.bars).toHaveLength(5);
    expect(shape.bars.every((b) => b.values.inspP === 0)).toBe(true);
    expect(shape.caption).toBe("Therapy Mode: Auto");
  });

  it("has a bar group per cycle up to max(prescribed, delivered), settings repeated", () => {
    expect(shapeCycleChart(therapy({ prescribedCycles: 4, cyclesDelivered: 6 })).bars).toHaveLength(
      6,
    );
    const shape = shapeCycleChart(therapy({ prescribedCycles: 5, cyclesDelivered: 3 }));
    expect(shape.bars.map((b) => b.n)).toEqual([1, 2, 3, 4, 5]);
    for (const bar of shape.bars) expect(bar.values).toEqual({ pauseP: 5, inspP: 40, expP: -40 });
    expect(shape.caption).toBe("Therapy Mode: Auto");
  });

  it("colours completed cycles in three distinct colours and the others grey", () => {
    const shape = shapeCycleChart(therapy({ prescribedCycles: 5, cyclesDelivered: 3 }));
    const [first, , third, fourth, fifth] = shape.bars;
    expect(first.completed).toBe(true);
    expect(third.completed).toBe(true);
    expect(new Set(Object.values(first.colors)).size).toBe(3);
    expect(Object.values(first.colors)).not.toContain(grey);
    expect(first.colors).toEqual({ pauseP: blue, inspP: green, expP: red });
    expect(fourth.completed).toBe(false);
    expect(fourth.colors).toEqual({ pauseP: grey, inspP: grey, expP: grey });
    expect(fifth.colors).toEqual({ pauseP: grey, inspP: grey, expP: grey });
  });

  it("strikes through the labels of cycles without a measurement row", () => {
    const shape = shapeCycleChart(
      therapy({
        prescribedCycles: 6,
        cyclesDelivered: 5,
        cycles: [measurement(1), measurement(2), measurement(3), measurement(5)],
      }),
    );
    expect(shape.bars.filter((b) => b.struck).map((b) => b.n)).toEqual([4, 6]);
  });

  it("gives completed measured cycles a 'Cycle N' detail; Spo2 NA, OSC On/Off", () => {
    const shape = shapeCycleChart(
      therapy({
        prescribedCycles: 4,
        cyclesDelivered: 2,
        cycles: [
          measurement(1, {
            peakInspP: 38.25,
            expVolume: 1210,
            peakFlow: 251.04,
            oscillation: true,
          }),
          measurement(2, { spo2: null }),
          measurement(3),
        ],
      }),
    );
    // Cycle 3 has a row but was not completed: no tooltip.
    expect(shape.details.map((d) => d.n)).toEqual([1, 2]);
    expect(shape.details[0]).toEqual({
      n: 1,
      title: "Cycle 1",
      lines: ["PIP: 38.3 cmH2O", "Ex Vol: 1210 ml", "PFlow: 251 lpm", "Spo2: 97", "OSC: On"],
    });
    expect(shape.details[1].lines).toContain("Spo2: NA");
    expect(shape.details[1].lines).toContain("OSC: Off");
    expect(shape.bars[2].detail).toBeNull();
  });

  it("fixes the pressure axis at -70..70 in steps of 10 and clamps settings to it", () => {
    const shape = shapeCycleChart(
      therapy({ settings: { pauseP: 0, inspP: 85, expP: -90, oscillation: false } }),
    );
    expect(shape.axis.min).toBe(-70);
    expect(shape.axis.max).toBe(70);
    expect(shape.axis.ticks).toEqual([
      -70, -60, -50, -40, -30, -20, -10, 0, 10, 20, 30, 40, 50, 60, 70,
    ]);
    expect(shape.bars[0].values).toEqual({ pauseP: 0, inspP: 70, expP: -70 });
  });

  it("draws the wave under completed cycles only when the first cycle oscillates", () => {
    const on = shapeCycleChart(
      therapy({ cycles: [measurement(1, { oscillation: true }), measurement(2)] }),
    );
    expect(on.bars.map((b) => b.wave)).toEqual([true, true, true, false, false]);
    const off = shapeCycleChart(
      therapy({
        settings: { pauseP: 5, inspP: 40, expP: -40, oscillation: true },
        cycles: [measurement(1, { oscillation: false }), measurement(2, { oscillation: true })],
      }),
    );
    expect(off.bars.some((b) => b.wave)).toBe(false);
    // No row for cycle 1: the therapy's setting decides.
    const fromSettings = shapeCycleChart(
      therapy({ settings: { pauseP: 5, inspP: 40, expP: -40, oscillation: true }, cycles: [] }),
    );
    expect(fromSettings.bars.map((b) => b.wave)).toEqual([true, true, true, false, false]);
  });
});

describe("adherence calendar", () => {
  const week = days(7);
  const calendar = shapeAdherenceCalendar([
    { day: week[0], isGoalDay: true, timesPerDay: 3, completed: 0 },
    { day: week[1], isGoalDay: true, timesPerDay: 3, completed: 1 },
    { day: week[2], isGoalDay: true, timesPerDay: 3, completed: 2 },
    { day: week[3], isGoalDay: true, timesPerDay: 3, completed: 3 },
    { day: week[4], isGoalDay: true, timesPerDay: 2, completed: 5 },
    { day: week[5], isGoalDay: false, timesPerDay: 3, completed: 0 },
    { day: week[6], isGoalDay: true, timesPerDay: null, completed: 2 },
  ]);

  it("scales the bar as 68 px times completed over times_per_day, capped at 68", () => {
    expect(calendar[1].height).toBeCloseTo(68 / 3, 6);
    expect(calendar[2].height).toBeCloseTo((68 * 2) / 3, 6);
    expect(calendar[3].height).toBe(68);
    expect(calendar[4].height).toBe(68);
  });

  it("is red with a 4 px bar when a goal day has nothing completed", () => {
    expect(calendar[0]).toMatchObject({ status: "missed", color: red, height: 4 });
  });

  it("is green when the goal is met and for partial days", () => {
    expect(calendar[3]).toMatchObject({ status: "complete", color: green });
    expect(calendar[4]).toMatchObject({ status: "complete", color: green });
    expect(calendar[1]).toMatchObject({ status: "partial", color: green });
  });

  it("is grey and 4 px on a day without a goal", () => {
    expect(calendar[5]).toMatchObject({ status: "noGoal", color: grey, height: 4 });
    expect(calendar[6]).toMatchObject({ status: "noGoal", color: grey, height: 4 });
  });

  it("labels each day with its weekday and day of month, oldest first", () => {
    // 2025-01-01 was a Wednesday.
    expect(calendar.map((b) => `${b.weekday} ${b.dayOfMonth}`)).toEqual([
      "Wed 1",
      "Thu 2",
      "Fri 3",
      "Sat 4",
      "Sun 5",
      "Mon 6",
      "Tue 7",
    ]);
    const shuffled = shapeAdherenceCalendar([
      { day: "2025-03-10", isGoalDay: false, timesPerDay: null, completed: 0 },
      { day: "2025-03-09", isGoalDay: false, timesPerDay: null, completed: 0 },
    ]);
    expect(shuffled.map((b) => b.day)).toEqual(["2025-03-09", "2025-03-10"]);
    expect(calendar[1].title).toBe("Thu 2: 1 of 3 therapies");
  });
});

describe("adherence calendar: today (issue 22 item 12)", () => {
  const [yesterday, today] = days(2);
  const shape = (completed: number, timesPerDay = 2) =>
    shapeAdherenceCalendar([
      { day: yesterday, isGoalDay: true, timesPerDay, completed: 0 },
      { day: today, isGoalDay: true, timesPerDay, completed, today: true },
    ]);

  it("shows today's goal in progress (neither red nor green) until it is met", () => {
    const [past, now] = shape(0);
    expect(past).toMatchObject({ status: "missed", color: red });
    expect(now).toMatchObject({ status: "inProgress", height: 4 });
    expect([red, green, grey]).not.toContain(now.color);
    expect(now.title).toBe("Thu 2: in progress, 0 of 2 therapies so far");
    expect(shape(1)[1]).toMatchObject({ status: "inProgress", height: 34 });
  });

  it("shows today complete once the goal is met, and words one therapy in the singular", () => {
    expect(shape(2)[1]).toMatchObject({ status: "complete", color: green });
    expect(shape(1, 1)[1].title).toBe("Thu 2: 1 of 1 therapy");
    expect(shape(0, 1)[1].title).toBe("Thu 2: in progress, 0 of 1 therapy so far");
  });
});

describe("adherence gauge", () => {
  it("shows the whole percent", () => {
    expect(shapeAdherenceGauge(0.853)).toEqual({ percent: 85, text: "85%", fraction: 0.85 });
    expect(shapeAdherenceGauge(0)).toEqual({ percent: 0, text: "0%", fraction: 0 });
  });

  it("caps at 100", () => {
    expect(shapeAdherenceGauge(1.37)).toEqual({ percent: 100, text: "100%", fraction: 1 });
  });

  it('shows "-" without a score', () => {
    expect(shapeAdherenceGauge(null)).toEqual({ percent: null, text: "-", fraction: 0 });
    expect(shapeAdherenceGauge(Number.NaN).text).toBe("-");
  });
});

describe("line charts", () => {
  it("never puts more than 15 ticks on a 365-day trend, evenly spaced from the first day", () => {
    const year = days(365);
    const trends = shapeTrendCharts(
      year.map((day) => ({ day, peakFlow: 250, expVolume: 1200, peakInspP: 38 })),
    );
    const ticks = trends.peakFlow.ticks;
    expect(ticks.length).toBeLessThanOrEqual(15);
    expect(ticks.length).toBeGreaterThanOrEqual(12);
    expect(ticks[0]).toEqual({ value: "2025-01-01", label: "01-Jan" });
    const gaps = ticks.slice(1).map((t, i) => year.indexOf(t.value) - year.indexOf(ticks[i].value));
    expect(new Set(gaps).size).toBe(1);
    expect(trends.peakFlow.points).toHaveLength(365);
  });

  it("keeps every tick when there are 15 days or fewer", () => {
    expect(pickTicks(days(15))).toHaveLength(15);
    expect(pickTicks(days(16)).length).toBeLessThanOrEqual(15);
    expect(pickTicks(days(30))).toHaveLength(15);
  });

  it("formats days as DD-MMM", () => {
    expect(formatDayMonth("2025-01-05")).toBe("05-Jan");
    expect(formatDayMonth("2024-12-31")).toBe("31-Dec");
  });

  it("formats days as DD-MMM-YYYY exactly as formatDay(day, 'dd-MMM-yyyy') does", () => {
    expect(formatDayMonthYear("2025-01-05")).toBe("05-Jan-2025");
    // Every day of three years, leap day included.
    for (let i = 0, day = "2023-01-01"; i < 3 * 366; i++, day = addDays(day, 1)) {
      expect(formatDayMonthYear(day)).toBe(formatDay(day, "dd-MMM-yyyy"));
    }
  });

  it("keeps null days as gaps and marks values with no neighbour as isolated", () => {
    const [d1, d2, d3, d4, d5] = days(5);
    const trends = shapeTrendCharts([
      { day: d1, peakFlow: 240, expVolume: null, peakInspP: 30 },
      { day: d2, peakFlow: 250, expVolume: 1100, peakInspP: null },
      { day: d3, peakFlow: null, expVolume: null, peakInspP: null },
      { day: d4, peakFlow: 260, expVolume: null, peakInspP: 32 },
      { day: d5, peakFlow: null, expVolume: null, peakInspP: null },
    ]);
    expect(trends.peakFlow.points.map((p) => p.y)).toEqual([240, 250, null, 260, null]);
    expect(trends.peakFlow.points.map((p) => p.isolated)).toEqual([
      false,
      false,
      false,
      true,
      false,
    ]);
    expect(trends.expVolume.points.map((p) => p.y)).toEqual([null, 1100, null, null, null]);
    expect(trends.peakInspP.unit).toBe("cmH2O");
    expect(trends.peakFlow.unit).toBe("L/min");
    expect(trends.expVolume.unit).toBe("ml");
    expect(trends.peakFlow.empty).toBe(false);
  });

  it("is empty when no value is known", () => {
    expect(shapeTrendCharts([]).peakFlow.empty).toBe(true);
    const allNull = shapeHmrChart(days(3).map((day) => ({ day, maxHmr: null })));
    expect(allNull.empty).toBe(true);
    expect(shapeHmrChart([{ day: "2025-01-01", maxHmr: 12.5 }]).empty).toBe(false);
  });

  it("keys the cycle drill-down by position and labels each therapy's time once", () => {
    const trends = shapeCycleTrendCharts([
      { time: "08:15", peakFlow: 200, expVolume: 1000, peakInspP: 30 },
      { time: "08:15", peakFlow: 210, expVolume: null, peakInspP: 31 },
      { time: "08:15", peakFlow: 205, expVolume: 1010, peakInspP: 30 },
      { time: "19:40", peakFlow: 220, expVolume: 1020, peakInspP: 32 },
      { time: "19:40", peakFlow: 230, expVolume: 1030, peakInspP: 33 },
    ]);
    expect(trends.peakFlow.points.map((p) => [p.x, p.y])).toEqual([
      ["1", 200],
      ["2", 210],
      ["3", 205],
      ["4", 220],
      ["5", 230],
    ]);
    // One label per therapy, at its first cycle: never the same time twice on the axis.
    expect(trends.peakFlow.ticks).toEqual([
      { value: "1", label: "08:15" },
      { value: "4", label: "19:40" },
    ]);
    expect(trends.expVolume.points.map((p) => p.y)).toEqual([1000, null, 1010, 1020, 1030]);
  });

  it("shows the score history in whole percent, 0 to 100, with gaps", () => {
    const [d1, d2, d3] = days(3);
    const shape = shapeScoreHistory([
      { day: d1, score: 0.456 },
      { day: d2, score: null },
      { day: d3, score: 1.2 },
    ]);
    expect(shape.points.map((p) => p.y)).toEqual([46, null, 100]);
    expect(shape.y.min).toBe(0);
    expect(shape.y.max).toBe(100);
    expect(shape.y.ticks).toEqual([0, 20, 40, 60, 80, 100]);
  });
});
