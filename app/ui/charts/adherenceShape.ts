// The patient profile's adherence charts as plain data: the 7-day calendar's bars (spec 3 §2.4)
// and the score gauge (§2.2, §9). AdherenceCalendar.tsx and AdherenceGauge.tsx draw exactly this.
import { CHART_COLORS } from "./colors";
import { dayParts, WEEKDAY_NAMES } from "./days";

/* ------------------------------------------------------------------------------------------ */
/* 7-day adherence calendar (§2.4 last bullet)                                                 */
/* ------------------------------------------------------------------------------------------ */

export type AdherenceDayInput = {
  day: string;
  isGoalDay: boolean;
  timesPerDay: number | null;
  completed: number;
  /** The care site's today: a goal not met yet is in progress, not missed, until the day ends. */
  today?: boolean;
};

/** §2.4: a day's bar is 68 px times cycles over times_per_day. */
export const CALENDAR_BAR_MAX = 68;
/** Days with nothing to scale (missed, or no goal) still get a bar that can be seen. */
export const CALENDAR_BAR_MIN = 4;

export type CalendarStatus = "noGoal" | "missed" | "partial" | "complete" | "inProgress";

export type CalendarBar = {
  day: string;
  weekday: string;
  dayOfMonth: string;
  height: number;
  color: string;
  status: CalendarStatus;
  title: string;
};

export function shapeAdherenceCalendar(days: readonly AdherenceDayInput[]): CalendarBar[] {
  return [...days]
    .sort((a, b) => a.day.localeCompare(b.day))
    .map((d) => {
      const p = dayParts(d.day);
      const weekday = p ? WEEKDAY_NAMES[p.weekday] : "";
      const dayOfMonth = p ? String(p.date) : d.day;
      const goal =
        d.isGoalDay && d.timesPerDay !== null && d.timesPerDay > 0 ? d.timesPerDay : null;
      const completed = Math.max(0, d.completed);
      const name = `${weekday} ${dayOfMonth}`.trim();
      if (goal === null) {
        return {
          day: d.day,
          weekday,
          dayOfMonth,
          height: CALENDAR_BAR_MIN,
          color: CHART_COLORS.grey,
          status: "noGoal",
          title: `${name}: no therapy goal, ${completed} completed`,
        };
      }
      const ratio = Math.min(1, completed / goal);
      const therapies = goal === 1 ? "therapy" : "therapies";
      if (d.today && completed < goal) {
        return {
          day: d.day,
          weekday,
          dayOfMonth,
          height: Math.max(CALENDAR_BAR_MIN, CALENDAR_BAR_MAX * ratio),
          color: CHART_COLORS.inProgress,
          status: "inProgress",
          title: `${name}: in progress, ${completed} of ${goal} ${therapies} so far`,
        };
      }
      const status: CalendarStatus =
        completed === 0 ? "missed" : completed >= goal ? "complete" : "partial";
      return {
        day: d.day,
        weekday,
        dayOfMonth,
        height: status === "missed" ? CALENDAR_BAR_MIN : CALENDAR_BAR_MAX * ratio,
        color: status === "missed" ? CHART_COLORS.red : CHART_COLORS.green,
        status,
        title: `${name}: ${completed} of ${goal} ${therapies}`,
      };
    });
}

/* ------------------------------------------------------------------------------------------ */
/* Adherence gauge (§2.2, §9)                                                                  */
/* ------------------------------------------------------------------------------------------ */

export type GaugeShape = {
  /** Whole percent capped at 100; null when there is no score. */
  percent: number | null;
  /** "85%", or "-" without a score (§9). */
  text: string;
  /** The share of the ring that is filled, 0..1. */
  fraction: number;
};

export function shapeAdherenceGauge(score: number | null): GaugeShape {
  // The whole percent of a 0..1 score, rounded as the adherence maths does (adherence/score.ts
  // scorePercent; both are pinned by their unit tests).
  const whole = score === null || !Number.isFinite(score) ? null : Math.round(score * 100);
  if (whole === null) return { percent: null, text: "-", fraction: 0 };
  const percent = Math.min(100, Math.max(0, whole));
  return { percent, text: `${percent}%`, fraction: percent / 100 };
}
