// The adherence maths (DESIGN.md §5) without a database: day adherence, the recency-weighted score
// with hand-computed vectors, goals over time, first pairings, time zones and DST days.
import { describe, expect, it } from "vitest";
import {
  addDays,
  buildDailyRows,
  countTherapiesByDay,
  dayAdherence,
  dayMapper,
  dayRange,
  dayStart,
  daysBetween,
  deviationShare,
  GOAL_EFFECTIVE_AFTER_DAYS,
  goalForDay,
  isGoalDay,
  missedStreak,
  parseGoalDays,
  scorePercent,
  weekdayOf,
  weightedScore,
  type DayCounts,
} from "~/domain/adherence/score";

const ALL = "mon,tue,wed,thu,fri,sat,sun";
const counts = (entries: Record<string, [therapies: number, completed: number]>) =>
  new Map<string, DayCounts>(
    Object.entries(entries).map(([day, [therapies, completed]]) => [day, { therapies, completed }]),
  );
const completedOnly = (entries: Record<string, number>) =>
  counts(Object.fromEntries(Object.entries(entries).map(([d, n]) => [d, [n, n]])));
const byDay = <T extends { day: string }>(rows: T[]) =>
  Object.fromEntries(rows.map((r) => [r.day, r]));

describe("calendar days", () => {
  it("computes weekdays from the date itself", () => {
    expect(weekdayOf("2026-03-01")).toBe("sun");
    expect(weekdayOf("2026-03-02")).toBe("mon");
    expect(weekdayOf("2026-11-21")).toBe("sat");
    expect(weekdayOf("2024-02-29")).toBe("thu");
  });

  it("adds and counts days across months, leap days and DST changes", () => {
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-03-08", 1)).toBe("2026-03-09");
    expect(addDays("2026-11-01", -1)).toBe("2026-10-31");
    expect(daysBetween("2026-03-07", "2026-03-14")).toBe(7);
    expect(dayRange("2026-10-31", "2026-11-02")).toEqual([
      "2026-10-31",
      "2026-11-01",
      "2026-11-02",
    ]);
    expect(dayRange("2026-11-02", "2026-11-01")).toEqual([]);
  });

  it("reads goal weekdays", () => {
    expect([...parseGoalDays("mon,wed,fri")]).toEqual(["mon", "wed", "fri"]);
    expect(parseGoalDays("").size).toBe(0);
    expect(isGoalDay("mon,wed,fri", "wed")).toBe(true);
    expect(isGoalDay("mon,wed,fri", "tue")).toBe(false);
    expect(isGoalDay(["Sat", "sun"], "sat")).toBe(true);
  });
});

describe("day adherence", () => {
  it("is completed / timesPerDay, capped at 1", () => {
    expect(dayAdherence(0, 2)).toBe(0);
    expect(dayAdherence(1, 2)).toBe(0.5);
    expect(dayAdherence(2, 3)).toBeCloseTo(2 / 3, 15);
    expect(dayAdherence(5, 2)).toBe(1);
  });
  it("has no value for a goal of no therapies", () => {
    expect(dayAdherence(1, 0)).toBeNull();
  });
});

describe("weighted score", () => {
  const week = (asOf: string, values: (number | null)[]) =>
    values.map((a, i) => ({
      day: addDays(asOf, i - 6),
      isGoalDay: a !== null,
      dayAdherence: a,
    }));

  it("weighs D by 7, D-1 by 6 … D-6 by 1", () => {
    // Σw = 28; Σw·a = .25 + 1 + 2.25 + 4 + 0 + 6 + 3.5 = 17
    const days = week("2026-03-14", [0.25, 0.5, 0.75, 1, 0, 1, 0.5]);
    expect(weightedScore(days, "2026-03-14")).toBeCloseTo(17 / 28, 15);
    expect(scorePercent(weightedScore(days, "2026-03-14"))).toBe(61);
    // alternating 1, 0 from D-6: Σw·a = 1 + 3 + 5 + 7 = 16
    expect(weightedScore(week("2026-03-14", [1, 0, 1, 0, 1, 0, 1]), "2026-03-14")).toBeCloseTo(
      16 / 28,
      15,
    );
  });

  it("counts goal days only", () => {
    // goal days D-3 (w 4, a .5) and D-1 (w 6, a 1): (2 + 6) / 10
    const days = week("2026-03-14", [null, null, null, 0.5, null, 1, null]);
    expect(weightedScore(days, "2026-03-14")).toBeCloseTo(0.8, 15);
    expect(
      weightedScore(week("2026-03-14", [null, null, null, null, null, null, 0.3]), "2026-03-14"),
    ).toBe(0.3);
    expect(
      weightedScore(week("2026-03-14", [0.3, null, null, null, null, null, null]), "2026-03-14"),
    ).toBe(0.3);
  });

  it("ignores days outside D-6..D", () => {
    const days = [
      { day: "2026-03-07", isGoalDay: true, dayAdherence: 1 }, // D-7
      { day: "2026-03-15", isGoalDay: true, dayAdherence: 1 }, // after D
      { day: "2026-03-10", isGoalDay: true, dayAdherence: 0 }, // D-4
    ];
    expect(weightedScore(days, "2026-03-14")).toBe(0);
  });

  it("has no score without goal days", () => {
    expect(
      weightedScore(week("2026-03-14", [null, null, null, null, null, null, null]), "2026-03-14"),
    ).toBeNull();
    expect(weightedScore([], "2026-03-14")).toBeNull();
    expect(scorePercent(null)).toBeNull();
  });
});

describe("DailyAdherence rows", () => {
  it("without a goal: rows with therapies, no goal days, no score", () => {
    const rows = buildDailyRows({
      goals: [],
      firstPairingDay: "2026-03-01",
      counts: completedOnly({ "2026-03-02": 2 }),
      fromDay: "2026-03-01",
      toDay: "2026-03-03",
    });
    expect(rows).toEqual(
      ["2026-03-01", "2026-03-02", "2026-03-03"].map((day) => ({
        day,
        isGoalDay: false,
        timesPerDay: null,
        therapies: day === "2026-03-02" ? 2 : 0,
        completed: day === "2026-03-02" ? 2 : 0,
        dayAdherence: null,
        score: null,
        maxHmr: null,
        missedStreak: 0,
      })),
    );
  });

  it("never paired: no rows", () => {
    const rows = buildDailyRows({
      goals: [{ createdDay: "2026-02-01", timesPerDay: 1, days: ALL }],
      firstPairingDay: null,
      counts: completedOnly({ "2026-03-02": 1 }),
      fromDay: "2026-03-01",
      toDay: "2026-03-03",
    });
    expect(rows).toEqual([]);
  });

  it("a goal governs from the day it was set on", () => {
    expect(GOAL_EFFECTIVE_AFTER_DAYS).toBe(0);
    const goals = [{ createdDay: "2026-03-04", timesPerDay: 2, days: ALL }];
    expect(goalForDay(goals, "2026-03-03")).toBeNull();
    expect(goalForDay(goals, "2026-03-04")).toBe(goals[0]);
  });

  it("counts goal weekdays only", () => {
    // mon, wed, fri twice a day. Mar 2 Mon a=1, Mar 3 Tue (3 therapies, not a goal day),
    // Mar 4 Wed a=.5, Mar 6 Fri a=0.
    const rows = byDay(
      buildDailyRows({
        goals: [{ createdDay: "2026-02-28", timesPerDay: 2, days: "mon,wed,fri" }],
        firstPairingDay: "2026-02-20",
        counts: counts({ "2026-03-02": [2, 2], "2026-03-03": [3, 3], "2026-03-04": [2, 1] }),
        fromDay: "2026-03-01",
        toDay: "2026-03-08",
      }),
    );
    expect(rows["2026-03-03"]).toMatchObject({
      isGoalDay: false,
      timesPerDay: 2,
      therapies: 3,
      completed: 3,
      dayAdherence: null,
    });
    expect(rows["2026-03-04"]).toMatchObject({ isGoalDay: true, therapies: 2, dayAdherence: 0.5 });
    expect(rows["2026-03-06"]).toMatchObject({ isGoalDay: true, dayAdherence: 0 });
    expect(rows["2026-03-01"].score).toBeNull(); // Sun: no goal day yet in Feb 23..Mar 1
    expect(rows["2026-03-03"].score).toBe(1); // Mar 2 only (w 6)
    // Feb 28..Mar 6: Mar 2 (w 3, 1), Mar 4 (w 5, .5), Mar 6 (w 7, 0): 5.5 / 15
    expect(rows["2026-03-06"].score).toBeCloseTo(5.5 / 15, 15);
    // Mar 2..Mar 8: Mar 2 (w 1), Mar 4 (w 3), Mar 6 (w 5): 2.5 / 9
    expect(rows["2026-03-08"].score).toBeCloseTo(2.5 / 9, 15);
  });

  it("judges each day by its own goal when the goal changes inside the window", () => {
    // once a day until Mar 4, twice a day from Mar 5; one therapy every day
    const rows = byDay(
      buildDailyRows({
        goals: [
          { createdDay: "2026-02-20", timesPerDay: 1, days: ALL },
          { createdDay: "2026-03-05", timesPerDay: 2, days: ALL },
        ],
        firstPairingDay: "2026-02-20",
        counts: completedOnly(
          Object.fromEntries(dayRange("2026-03-01", "2026-03-07").map((d) => [d, 1])),
        ),
        fromDay: "2026-03-01",
        toDay: "2026-03-07",
      }),
    );
    expect(rows["2026-03-04"]).toMatchObject({ timesPerDay: 1, dayAdherence: 1 });
    expect(rows["2026-03-05"]).toMatchObject({ timesPerDay: 2, dayAdherence: 0.5 });
    // (1 + 2 + 3 + 4) + .5 (5 + 6 + 7) = 19; / 28
    expect(rows["2026-03-07"].score).toBeCloseTo(19 / 28, 15);
    expect(scorePercent(rows["2026-03-07"].score)).toBe(68);
  });

  it("does not count days before the first pairing", () => {
    const rows = buildDailyRows({
      goals: [{ createdDay: "2026-02-20", timesPerDay: 1, days: ALL }],
      firstPairingDay: "2026-03-05",
      counts: completedOnly({ "2026-03-02": 1, "2026-03-03": 1, "2026-03-06": 1, "2026-03-07": 1 }),
      fromDay: "2026-03-01",
      toDay: "2026-03-07",
    });
    expect(rows.map((r) => r.day)).toEqual(["2026-03-05", "2026-03-06", "2026-03-07"]);
    expect(rows[0].score).toBe(0); // Mar 5 alone, a = 0
    // Mar 5 (w 5, 0), Mar 6 (w 6, 1), Mar 7 (w 7, 1): 13 / 18; Mar 2, 3 do not count
    expect(rows[2].score).toBeCloseTo(13 / 18, 15);
  });

  it("caps a day at 1 when more therapies than the goal were completed", () => {
    const [row] = buildDailyRows({
      goals: [{ createdDay: "2026-03-02", timesPerDay: 2, days: ALL }],
      firstPairingDay: "2026-03-01",
      counts: counts({ "2026-03-02": [6, 5] }),
      fromDay: "2026-03-02",
      toDay: "2026-03-02",
    });
    expect(row).toMatchObject({ therapies: 6, completed: 5, dayAdherence: 1, score: 1 });
  });

  it("scores the first day of a range from the 6 days before it", () => {
    const input = {
      goals: [{ createdDay: "2026-02-01", timesPerDay: 2, days: "mon,tue,thu,sat" }],
      firstPairingDay: "2026-02-01",
      counts: counts({
        "2026-03-01": [1, 1],
        "2026-03-03": [2, 2],
        "2026-03-05": [3, 1],
        "2026-03-07": [1, 0],
      }),
      maxHmr: new Map([["2026-03-05", 12.5]]),
    };
    const whole = buildDailyRows({ ...input, fromDay: "2026-02-01", toDay: "2026-03-10" });
    const part = buildDailyRows({ ...input, fromDay: "2026-03-04", toDay: "2026-03-10" });
    expect(part).toEqual(whole.filter((r) => r.day >= "2026-03-04"));
    expect(byDay(part)["2026-03-05"].maxHmr).toBe(12.5);
    // and every score is weightedScore over the rows themselves
    for (const row of whole) expect(row.score).toBe(weightedScore(whole, row.day));
  });
});

describe("instants to days in a care site's zone", () => {
  const chicago = "America/Chicago";
  const day = (iso: string, zone: string) => dayMapper(zone)(Date.parse(iso));

  it("maps both 01:30s of 1 Nov 2026 (DST ends) in Chicago to 1 Nov", () => {
    expect(day("2026-11-01T06:30:00Z", chicago)).toBe("2026-11-01"); // 01:30 CDT
    expect(day("2026-11-01T07:30:00Z", chicago)).toBe("2026-11-01"); // 01:30 CST
    expect(day("2026-11-02T05:59:59Z", chicago)).toBe("2026-11-01"); // 23:59 CST
    expect(day("2026-11-02T06:00:00Z", chicago)).toBe("2026-11-02");
    const c = countTherapiesByDay([
      { startedAt: new Date("2026-11-01T06:30:00Z"), completed: true, timeZone: chicago },
      { startedAt: new Date("2026-11-01T07:30:00Z"), completed: false, timeZone: chicago },
    ]);
    expect(c.get("2026-11-01")).toEqual({ therapies: 2, completed: 1 });
    // a 25-hour day
    expect(dayStart("2026-11-02", chicago) - dayStart("2026-11-01", chicago)).toBe(25 * 3_600_000);
  });

  it("maps 8 Mar 2026 (DST starts, a 23-hour day) in Chicago", () => {
    expect(day("2026-03-08T05:59:00Z", chicago)).toBe("2026-03-07"); // 23:59 CST
    expect(day("2026-03-08T06:00:00Z", chicago)).toBe("2026-03-08"); // 00:00 CST
    expect(day("2026-03-08T07:59:00Z", chicago)).toBe("2026-03-08"); // 01:59 CST
    expect(day("2026-03-08T08:00:00Z", chicago)).toBe("2026-03-08"); // 03:00 CDT
    expect(day("2026-03-09T04:59:00Z", chicago)).toBe("2026-03-08"); // 23:59 CDT
    expect(day("2026-03-09T05:00:00Z", chicago)).toBe("2026-03-09");
    expect(dayStart("2026-03-09", chicago) - dayStart("2026-03-08", chicago)).toBe(23 * 3_600_000);
    expect(weekdayOf("2026-03-08")).toBe("sun");
  });

  it("follows Denver and Honolulu", () => {
    // 08:30Z on 10 May: 03:30 in Chicago, 02:30 in Denver, 22:30 on 9 May in Honolulu
    expect(day("2026-05-10T08:30:00Z", chicago)).toBe("2026-05-10");
    expect(day("2026-05-10T08:30:00Z", "America/Denver")).toBe("2026-05-10");
    expect(day("2026-05-10T08:30:00Z", "Pacific/Honolulu")).toBe("2026-05-09");
    expect(day("2026-05-10T05:59:00Z", "America/Denver")).toBe("2026-05-09"); // 23:59 MDT
    expect(day("2026-05-10T06:00:00Z", "America/Denver")).toBe("2026-05-10");
    // Denver's own DST end: 01:30 MDT and 01:30 MST are both 1 Nov
    expect(day("2026-11-01T07:30:00Z", "America/Denver")).toBe("2026-11-01");
    expect(day("2026-11-01T08:30:00Z", "America/Denver")).toBe("2026-11-01");
    // Honolulu has no DST: midnight is 10:00Z all year
    expect(dayStart("2026-03-08", "Pacific/Honolulu")).toBe(Date.parse("2026-03-08T10:00:00Z"));
    expect(dayStart("2026-11-01", "Pacific/Honolulu")).toBe(Date.parse("2026-11-01T10:00:00Z"));
  });

  it("gives the same therapies different days, hence scores, in Chicago and Honolulu", () => {
    const instants = ["2026-05-10T08:30:00Z", "2026-05-10T12:00:00Z"];
    const build = (timeZone: string) =>
      byDay(
        buildDailyRows({
          goals: [{ createdDay: "2026-05-01", timesPerDay: 1, days: ALL }],
          firstPairingDay: "2026-05-01",
          counts: countTherapiesByDay(
            instants.map((iso) => ({ startedAt: Date.parse(iso), completed: true, timeZone })),
          ),
          fromDay: "2026-05-09",
          toDay: "2026-05-10",
        }),
      );
    const chicagoRows = build(chicago);
    expect(chicagoRows["2026-05-09"]).toMatchObject({ therapies: 0, dayAdherence: 0 });
    expect(chicagoRows["2026-05-10"]).toMatchObject({ therapies: 2, dayAdherence: 1 });
    const honolulu = build("Pacific/Honolulu");
    expect(honolulu["2026-05-09"]).toMatchObject({ therapies: 1, dayAdherence: 1 });
    expect(honolulu["2026-05-10"]).toMatchObject({ therapies: 1, dayAdherence: 1 });
    // Chicago on May 10: May 4..9 none (w 1..6), May 10 done (w 7): 7 / 28
    expect(chicagoRows["2026-05-10"].score).toBeCloseTo(7 / 28, 15);
    // Honolulu: May 9 (w 6) and May 10 (w 7) done: 13 / 28
    expect(honolulu["2026-05-10"].score).toBeCloseTo(13 / 28, 15);
  });
});

describe("missed streak", () => {
  const d = (day: string, isGoalDay: boolean, therapies: number) => ({ day, isGoalDay, therapies });

  it("counts the latest goal days without any therapy", () => {
    const days = [
      d("2026-03-01", true, 1),
      d("2026-03-02", true, 0),
      d("2026-03-03", false, 2), // not a goal day: neither breaks nor extends the streak
      d("2026-03-04", true, 0),
      d("2026-03-05", true, 0),
    ];
    expect(missedStreak(days, "2026-03-05")).toBe(3);
    expect(missedStreak(days, "2026-03-04")).toBe(2);
    expect(missedStreak(days, "2026-03-01")).toBe(0);
    expect(missedStreak([...days].reverse(), "2026-03-05")).toBe(3);
  });

  it("a therapy that did not complete still breaks the streak", () => {
    expect(missedStreak([d("2026-03-01", true, 0), d("2026-03-02", true, 1)], "2026-03-02")).toBe(
      0,
    );
    expect(missedStreak([], "2026-03-02")).toBe(0);
  });
});

describe("deviation share", () => {
  it("is deviating therapies over all therapies", () => {
    expect(deviationShare({ therapies: 3, deviatingTherapies: 1 })).toBeCloseTo(1 / 3, 15);
    expect(deviationShare({ therapies: 0, deviatingTherapies: 0 })).toBe(0);
  });
});
