// Calendar days as the charts label them. Days are "YYYY-MM-DD" calendar dates; names of weekdays
// and months come from the date itself (Date.UTC), never from the server's zone.
export const WEEKDAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTH_NAMES = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function dayParts(day: string) {
  const m = DAY_PATTERN.exec(day);
  if (!m) return null;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return null;
  return { year, month, date, weekday: new Date(Date.UTC(year, month - 1, date)).getUTCDay() };
}

/** "2025-01-05" → "05-Jan" (the trend charts' DD-MMM). */
export function formatDayMonth(day: string) {
  const p = dayParts(day);
  return p ? `${String(p.date).padStart(2, "0")}-${MONTH_NAMES[p.month - 1]}` : day;
}

/**
 * "2025-01-05" → "05-Jan-2025" (the profile's dates), the same text as date-fns'
 * format(…, "dd-MMM-yyyy") for a valid day, without building a Date: two years of trend days are
 * 730 of them per page.
 */
export function formatDayMonthYear(day: string) {
  const p = dayParts(day);
  return p ? `${formatDayMonth(day)}-${String(p.year).padStart(4, "0")}` : day;
}
