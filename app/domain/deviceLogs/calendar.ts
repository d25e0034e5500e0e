// Calendar helpers for device-log dates. A device writes local wall-clock time with no zone, so
// dates are handled as their digits (and Date.UTC for day arithmetic), never as instants.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isRealDate(year: number, month: number, day: number) {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= lengths[month - 1];
}

export function isRealTime(hour: number, minute: number, second: number) {
  return hour <= 23 && minute <= 59 && second <= 59;
}

/**
 * A `YYYY-MM-DD HH:mm:ss` time stamp packed as the number yyyymmddhhmmss (at most 14 digits, so
 * exact in a double): one number per row instead of a string, ordered like the text.
 */
export function packStamp(timeStamp: string) {
  return (
    Number(timeStamp.slice(0, 4) + timeStamp.slice(5, 7) + timeStamp.slice(8, 10)) * 1e6 +
    Number(timeStamp.slice(11, 13) + timeStamp.slice(14, 16) + timeStamp.slice(17, 19))
  );
}

/** The date part of a packed stamp as yyyymmdd. */
export const stampDay = (stamp: number) => Math.floor(stamp / 1e6);

export const dayYear = (day: number) => Math.floor(day / 10_000);

function dayParts(day: number) {
  return [dayYear(day), Math.floor(day / 100) % 100, day % 100] as const;
}

export function isRealDay(day: number) {
  const [y, m, d] = dayParts(day);
  return isRealDate(y, m, d);
}

export function isRealStamp(stamp: number) {
  const time = stamp % 1e6;
  return (
    isRealDay(stampDay(stamp)) &&
    isRealTime(Math.floor(time / 10_000), Math.floor(time / 100) % 100, time % 100)
  );
}

/** Days since 1970-01-01 for a real yyyymmdd day. */
export function dayNumber(day: number) {
  const [y, m, d] = dayParts(day);
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** yyyymmdd as DD-MM-YYYY (the summary's date form). */
export function formatDayDmy(day: number) {
  const [y, m, d] = dayParts(day);
  return `${pad(d)}-${pad(m)}-${pad(y, 4)}`;
}

/** A packed stamp as `YYYY-MM-DD HH:mm:ss`, as the device wrote it. */
export function formatStampIso(stamp: number) {
  const [y, m, d] = dayParts(stampDay(stamp));
  const time = stamp % 1e6;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)} ${pad(Math.floor(time / 10_000))}:${pad(Math.floor(time / 100) % 100)}:${pad(time % 100)}`;
}

/** The therapy table's form, MMM-DD-YYYY HH:mm:ss, or 'Invalid Date' (spec 3 §2.7). */
export function formatStampTable(stamp: number) {
  if (!isRealStamp(stamp)) return "Invalid Date";
  const [y, m, d] = dayParts(stampDay(stamp));
  return `${MONTHS[m - 1]}-${pad(d)}-${pad(y, 4)} ${formatStampIso(stamp).slice(11)}`;
}

/** "YYYY-MM-DD" (a real date) as yyyymmdd; throws a RangeError on anything else. */
export function parseIsoDay(text: string) {
  const m = ISO_DAY.exec(text);
  if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3])))
    throw new RangeError(`not a YYYY-MM-DD date: ${text}`);
  return Number(m[1] + m[2] + m[3]);
}

export type DayRange = { from?: string; to?: string };

/** The range as inclusive yyyymmdd bounds; a missing end is open. */
export function dayBounds(range: DayRange = {}) {
  return {
    from: range.from ? parseIsoDay(range.from) : -Infinity,
    to: range.to ? parseIsoDay(range.to) : Infinity,
  };
}
