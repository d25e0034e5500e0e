// Calendar days (YYYY-MM-DD) and local wall-clock times in a care site's zone, through
// @date-fns/tz as the app does (app/lib/time.ts).
import { TZDate } from "@date-fns/tz";
import { addDays, format } from "date-fns";
import { dayInZone } from "../../app/lib/time";

export const HOME_ZONE = "America/Chicago";
export const DAY_MS = 86_400_000;
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

const parts = (day: string) => day.split("-").map(Number) as [number, number, number];

/** The calendar day an instant (epoch ms) falls on in a zone. */
export const dayOf = (ms: number, timeZone: string) => dayInZone(new Date(ms), timeZone);

/** The day `n` days after (or before) a day. */
export function shiftDay(day: string, n: number) {
  const [y, m, d] = parts(day);
  return format(addDays(new Date(y, m - 1, d), n), "yyyy-MM-dd");
}

export function weekday(day: string) {
  const [y, m, d] = parts(day);
  return WEEKDAYS[new Date(y, m - 1, d).getDay()];
}

/** The instant (epoch ms) of a local wall-clock time, in whole minutes after midnight, on a day. */
export function at(day: string, minutes: number, timeZone: string) {
  const [y, m, d] = parts(day);
  return new TZDate(y, m - 1, d, Math.floor(minutes / 60), minutes % 60, timeZone).getTime();
}
