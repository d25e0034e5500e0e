// Calendar days in a care site's time zone (DESIGN.md §5: store UTC, compute days in the zone).
import { TZDate } from "@date-fns/tz";
import { format, subDays } from "date-fns";

export const DEFAULT_TIME_ZONE = "America/Chicago";

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayInZone(instant: Date, timeZone = DEFAULT_TIME_ZONE) {
  return format(new TZDate(instant, timeZone), "yyyy-MM-dd");
}

/** "Yesterday" as seen in a zone (dashboards show data as of this day). */
export function yesterdayInZone(now = new Date(), timeZone = DEFAULT_TIME_ZONE) {
  return format(subDays(new TZDate(now, timeZone), 1), "yyyy-MM-dd");
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar day n days after (n < 0: before) a YYYY-MM-DD day: calendar maths, no zone. */
export function addDays(day: string, n: number) {
  const m = DAY_PATTERN.exec(day);
  if (!m) throw new Error(`not a YYYY-MM-DD day: ${day}`);
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + n);
  return new Date(utc).toISOString().slice(0, 10);
}

/** DD MMM YYYY for a YYYY-MM-DD day, e.g. 20 Nov 2026. */
export function formatDay(day: string, pattern = "dd MMM yyyy") {
  const [y, m, d] = day.split("-").map(Number);
  return format(new Date(y, m - 1, d), pattern);
}

const clockTime = new Intl.DateTimeFormat("en-US", {
  timeZone: DEFAULT_TIME_ZONE,
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
  timeZoneName: "short",
});

/** A clock time in the product's reference zone, e.g. "4:05:30 AM CST" (code expiry texts). */
export function formatClockTime(instant: Date) {
  return clockTime.format(instant);
}

/** A chat message's time, D MMM H:mm:s in the product's reference zone (spec 3 §9), e.g. 5 Nov 9:07:3. */
export function formatChatTime(instant: Date, timeZone = DEFAULT_TIME_ZONE) {
  return format(new TZDate(instant, timeZone), "d MMM H:mm:s");
}
