// The adherence maths of DESIGN.md §5, free of the database: calendar days, goals, day adherence,
// the recency-weighted 7-day score and the missed-days streak. app/domain/adherence/adherence.server.ts
// feeds it rows and writes what it returns to DailyAdherence.
//
// Days are "YYYY-MM-DD" calendar dates. Day arithmetic and weekdays are calendar maths on the
// date itself (Date.UTC), never an instant read in the server's zone; turning an instant into a
// day goes through @date-fns/tz (dayInZone) with the care site's zone.
import { TZDate } from "@date-fns/tz";
import { addDays, dayInZone } from "~/lib/time";

// Day arithmetic is calendar maths shared beyond this area: it lives in lib/time.ts.
export { addDays };

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The score looks back over D-6..D (spec 3 §9: 7 days, recency-weighted). */
export const SCORE_WINDOW_DAYS = 7;

/**
 * A goal set on day D governs the days from D + GOAL_EFFECTIVE_AFTER_DAYS on: from D itself
 * (docs/decisions.md, "Adherence days": a goal change updates adherence from that day on).
 */
export const GOAL_EFFECTIVE_AFTER_DAYS = 0;

/** Dashboard thresholds (spec 2 §9): adherence below 75, 50 and 25 %. */
export const ADHERENCE_THRESHOLDS = [0.75, 0.5, 0.25] as const;

/** "Missed 3 or more days" (spec 2 §9). */
export const MISSED_DAYS_THRESHOLD = 3;

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayToUtc(day: string) {
  const m = DAY_PATTERN.exec(day);
  if (!m) throw new Error(`not a YYYY-MM-DD day: ${day}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

function utcToDay(ms: number) {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string) {
  return Math.round((dayToUtc(to) - dayToUtc(from)) / DAY_MS);
}

/** Every day from `from` to `to`, both included (empty when `to` is earlier). */
export function dayRange(from: string, to: string) {
  const days: string[] = [];
  for (let ms = dayToUtc(from), end = dayToUtc(to); ms <= end; ms += DAY_MS)
    days.push(utcToDay(ms));
  return days;
}

/** The weekday of a calendar day, from the date itself. */
export function weekdayOf(day: string): Weekday {
  return WEEKDAYS[new Date(dayToUtc(day)).getUTCDay()];
}

/** The weekdays of a goal's `days` column ("mon,wed,fri"); unknown words are ignored. */
export function parseGoalDays(days: string | readonly string[]): Set<Weekday> {
  const words = typeof days === "string" ? days.split(",") : days;
  const set = new Set<Weekday>();
  for (const word of words) {
    const w = word.trim().toLowerCase().slice(0, 3);
    if ((WEEKDAYS as readonly string[]).includes(w)) set.add(w as Weekday);
  }
  return set;
}

export function isGoalDay(goalDays: string | readonly string[] | Set<Weekday>, weekday: Weekday) {
  const set = goalDays instanceof Set ? goalDays : parseGoalDays(goalDays);
  return set.has(weekday);
}

/** min(1, completed / timesPerDay); a goal of 0 therapies a day asks nothing, so no value. */
export function dayAdherence(completed: number, timesPerDay: number): number | null {
  if (!(timesPerDay > 0)) return null;
  return Math.min(1, Math.max(0, completed) / timesPerDay);
}

export type ScoredDay = { day: string; isGoalDay: boolean; dayAdherence: number | null };

/**
 * The adherence score as of `asOf`: Σ(w·a) / Σ(w) over the goal days among asOf-6..asOf, with
 * weight 7 for asOf, 6 for the day before … 1 for asOf-6. Days that are not given (before the
 * first pairing) or not goal days do not count. No goal day in the window: null ("-").
 */
export function weightedScore(days: readonly ScoredDay[], asOf: string): number | null {
  let weighted = 0;
  let weights = 0;
  for (const d of days) {
    if (!d.isGoalDay || d.dayAdherence === null) continue;
    const back = daysBetween(d.day, asOf);
    if (back < 0 || back >= SCORE_WINDOW_DAYS) continue;
    const w = SCORE_WINDOW_DAYS - back;
    weighted += w * d.dayAdherence;
    weights += w;
  }
  return weights === 0 ? null : weighted / weights;
}

/** A score as the whole percent the screens show (null stays null, shown as "-"). */
export function scorePercent(score: number | null) {
  return score === null ? null : Math.round(score * 100);
}

/**
 * How many of the most recent goal days up to `asOf` had no therapy at all, counted back to the
 * latest goal day that had one. "Missed 3 or more days" is missedStreak(...) >= 3.
 */
export function missedStreak(
  days: readonly { day: string; isGoalDay: boolean; therapies: number }[],
  asOf: string,
) {
  const goalDays = days.filter((d) => d.isGoalDay && d.day <= asOf);
  goalDays.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
  let streak = 0;
  for (const d of goalDays) {
    if (d.therapies > 0) break;
    streak++;
  }
  return streak;
}

/** Deviation percentage (DESIGN.md §5): deviating therapies / all therapies, as 0..1. */
export function deviationShare(stats: { therapies: number; deviatingTherapies: number }) {
  return stats.therapies === 0 ? 0 : stats.deviatingTherapies / stats.therapies;
}

// ---------------------------------------------------------------------------------------------
// Instants to days
// ---------------------------------------------------------------------------------------------

const mappers = new Map<string, (ms: number) => string>();

/**
 * instant (ms) → calendar day in `timeZone`. Each local day found is remembered as its interval
 * of instants [start of day, start of next day), keyed by the day's number; an instant's local
 * day is its UTC day or one either side, so three lookups find it without zone maths.
 */
export function dayMapper(timeZone: string) {
  let mapper = mappers.get(timeZone);
  if (mapper) return mapper;
  const intervals = new Map<number, { start: number; end: number; day: string }>();
  mapper = (ms: number) => {
    const utcDay = Math.floor(ms / DAY_MS);
    for (const k of [utcDay, utcDay - 1, utcDay + 1]) {
      const iv = intervals.get(k);
      if (iv && iv.start <= ms && ms < iv.end) return iv.day;
    }
    const day = dayInZone(new Date(ms), timeZone);
    const start = dayStart(day, timeZone);
    const end = dayStart(addDays(day, 1), timeZone);
    if (start <= ms && ms < end) {
      if (intervals.size > 100_000) intervals.clear();
      intervals.set(dayToUtc(day) / DAY_MS, { start, end, day });
    }
    return day;
  };
  mappers.set(timeZone, mapper);
  return mapper;
}

/** The instant (ms) a calendar day begins in a zone (its first existing minute on DST days). */
export function dayStart(day: string, timeZone: string) {
  const m = DAY_PATTERN.exec(day);
  if (!m) throw new Error(`not a YYYY-MM-DD day: ${day}`);
  return new TZDate(Number(m[1]), Number(m[2]) - 1, Number(m[3]), timeZone).getTime();
}

export type DayCounts = { therapies: number; completed: number };

/**
 * Therapies counted per calendar day: each therapy belongs to the day its startedAt falls on in
 * its own zone (the care site of the pairing it came through).
 */
export function countTherapiesByDay(
  therapies: readonly { startedAt: number | Date; completed: boolean; timeZone: string }[],
) {
  const counts = new Map<string, DayCounts>();
  for (const t of therapies) {
    const ms = typeof t.startedAt === "number" ? t.startedAt : t.startedAt.getTime();
    const day = dayMapper(t.timeZone)(ms);
    let c = counts.get(day);
    if (!c) counts.set(day, (c = { therapies: 0, completed: 0 }));
    c.therapies++;
    if (t.completed) c.completed++;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// DailyAdherence rows
// ---------------------------------------------------------------------------------------------

/** A therapy goal: the day it was set (in its care site's zone), how often, which weekdays. */
export type GoalInput = {
  createdDay: string;
  timesPerDay: number;
  days: string | readonly string[];
};

type ResolvedGoal = { from: string; timesPerDay: number; days: Set<Weekday> };

/** Goals in the order they were set (oldest first), with the first day each governs. */
function resolveGoals(goals: readonly GoalInput[]): ResolvedGoal[] {
  return goals.map((g) => ({
    from: addDays(g.createdDay, GOAL_EFFECTIVE_AFTER_DAYS),
    timesPerDay: g.timesPerDay,
    days: parseGoalDays(g.days),
  }));
}

/**
 * The goal in force on a day: the newest goal (in setting order) whose first day is on or before
 * it. Goals must be given oldest first.
 */
export function goalForDay<G extends GoalInput>(goals: readonly G[], day: string): G | null {
  let found: G | null = null;
  for (const g of goals) if (addDays(g.createdDay, GOAL_EFFECTIVE_AFTER_DAYS) <= day) found = g;
  return found;
}

export type DailyRow = {
  day: string;
  isGoalDay: boolean;
  timesPerDay: number | null; // the goal in force that day (null: no goal yet)
  therapies: number;
  completed: number;
  dayAdherence: number | null;
  score: number | null;
  maxHmr: number | null;
  /** goal days in a row up to this day with no therapy (missedStreak(...) of the days so far) */
  missedStreak: number;
};

export type DailyInput = {
  /** oldest first */
  goals: readonly GoalInput[];
  /** the day of the patient's first pairing; null: never paired, so no day counts */
  firstPairingDay: string | null;
  /** therapies per day; must cover fromDay-6..toDay for the scores */
  counts: ReadonlyMap<string, DayCounts>;
  /** the highest hour-meter reading transmitted per day */
  maxHmr?: ReadonlyMap<string, number>;
  fromDay: string;
  toDay: string;
  /** the missedStreak of the newest row before fromDay (0: none) */
  missedBefore?: number;
};

/**
 * The DailyAdherence rows of fromDay..toDay. Days before the first pairing get no row and do
 * not count toward any score; a day with no goal in force, or not one of the goal's weekdays,
 * is not a goal day.
 */
export function buildDailyRows(input: DailyInput): DailyRow[] {
  const { firstPairingDay, counts } = input;
  if (firstPairingDay === null) return [];
  const from = input.fromDay > firstPairingDay ? input.fromDay : firstPairingDay;
  if (from > input.toDay) return [];
  const goals = resolveGoals(input.goals);

  const windowStart = addDays(from, -(SCORE_WINDOW_DAYS - 1));
  const first = windowStart > firstPairingDay ? windowStart : firstPairingDay;
  const days: DailyRow[] = [];
  for (const day of dayRange(first, input.toDay)) {
    // Setting order decides: the newest goal whose first day has come.
    let goal: ResolvedGoal | null = null;
    for (let k = goals.length - 1; k >= 0; k--) {
      if (goals[k].from <= day) {
        goal = goals[k];
        break;
      }
    }
    const c = counts.get(day) ?? { therapies: 0, completed: 0 };
    const timesPerDay = goal ? goal.timesPerDay : null;
    const goalDay = goal !== null && goal.timesPerDay > 0 && goal.days.has(weekdayOf(day));
    days.push({
      day,
      isGoalDay: goalDay,
      timesPerDay,
      therapies: c.therapies,
      completed: c.completed,
      dayAdherence: goalDay ? dayAdherence(c.completed, goal!.timesPerDay) : null,
      score: null,
      maxHmr: input.maxHmr?.get(day) ?? null,
      missedStreak: 0,
    });
  }
  // weightedScore over consecutive days: the day k places back has weight 7 - k.
  const rows: DailyRow[] = [];
  let streak = input.missedBefore ?? 0;
  for (let i = 0; i < days.length; i++) {
    if (days[i].day < from) continue;
    if (days[i].isGoalDay) streak = days[i].therapies > 0 ? 0 : streak + 1;
    let weighted = 0;
    let weights = 0;
    for (let k = 0; k < SCORE_WINDOW_DAYS && i - k >= 0; k++) {
      const d = days[i - k];
      if (!d.isGoalDay || d.dayAdherence === null) continue;
      weighted += (SCORE_WINDOW_DAYS - k) * d.dayAdherence;
      weights += SCORE_WINDOW_DAYS - k;
    }
    rows.push({
      ...days[i],
      score: weights === 0 ? null : weighted / weights,
      missedStreak: streak,
    });
  }
  return rows;
}
