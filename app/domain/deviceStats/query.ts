// The page's query (spec 3 §2.9, §9): a time range in the portal's zone (the last 10 minutes by
// default), a device search, the page and its size. Pure.
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { DEFAULT_TIME_ZONE } from "~/lib/time";

/** The page's path (its cookies are scoped to it). */
export const DEVICE_STATS_PATH = "/deviceStats";

export const PAGE_SIZES = [10, 50, 100, 200, 500, 1000] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** The default range: the last 10 minutes (spec 3 §9). */
export const DEFAULT_RANGE_MS = 600_000;
export const RANGE_MESSAGE = "End Date Time should be greater than Start Date and Time";

export type StatsFilter = { start: Date; end: Date; q: string };

const LOCAL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A datetime-local value (YYYY-MM-DDTHH:mm) read in the portal's zone, or null. */
export function parseLocalMinute(value: string | null, timeZone = DEFAULT_TIME_ZONE) {
  const m = value ? LOCAL_MINUTE.exec(value) : null;
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const date = new TZDate(y, mo - 1, d, h, mi, 0, timeZone);
  if (Number.isNaN(date.getTime()) || date.getMonth() !== mo - 1) return null;
  return new Date(date.getTime());
}

/** The datetime-local value of an instant in the portal's zone. */
export function toLocalMinute(instant: Date, timeZone = DEFAULT_TIME_ZONE) {
  return format(new TZDate(instant, timeZone), "yyyy-MM-dd'T'HH:mm");
}

export type StatsQuery = {
  filter: StatsFilter;
  /** Whether the range is the default one (the last 10 minutes, moving with each load). */
  defaultRange: boolean;
  rangeError: string | null;
  page: number;
  size: number;
};

/**
 * Reads start, end (datetime-local, the portal's zone), q, page and size. No range, or a range
 * whose end is not after its start (with the spec's message), gives the last 10 minutes.
 */
export function readStatsQuery(search: URLSearchParams, now = new Date()): StatsQuery {
  const start = parseLocalMinute(search.get("start"));
  const end = parseLocalMinute(search.get("end"));
  const given = search.has("start") || search.has("end");
  const valid = start !== null && end !== null && end > start;
  const size = Number(search.get("size"));
  const page = Number.parseInt(search.get("page") ?? "1", 10);
  return {
    filter: {
      start: valid ? start : new Date(now.getTime() - DEFAULT_RANGE_MS),
      end: valid ? end : now,
      q: (search.get("q") ?? "").trim().slice(0, 100),
    },
    defaultRange: !valid,
    rangeError: given && !valid ? RANGE_MESSAGE : null,
    page: Number.isFinite(page) && page > 0 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}
