// Date ranges of the dashboards and the patient profile's graphs (spec 2 §2, spec 3 §2.2, §5):
// day (yesterday), week (the 7 days to yesterday, the default), month (a month to yesterday) or a
// From/To range with the spec's rules. Pure: the pages' links and the loaders share it.
import { addDays } from "~/lib/time";

export const RANGES = ["day", "week", "month"] as const;
export type PresetKind = (typeof RANGES)[number];
export type RangeKind = PresetKind | "custom";
export type DateRange = ReturnType<typeof readRange>;

export const rangeMessages = {
  fromAfterTo: '"From" date cannot be after "To" date.',
  toBeforeFrom: '"To" date cannot be before "From" date.',
  // Ours: the spec only says no dates after today can be picked.
  future: "Dates after today cannot be chosen.",
  invalid: "Please choose a From and a To date.",
};

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a From/To range (the server's refusal), null when it can be applied. */
export function rangeProblem(from: string, to: string, today: string) {
  if (!DAY_RE.test(from) || !DAY_RE.test(to)) return rangeMessages.invalid;
  if (from > to) return rangeMessages.toBeforeFrom;
  if (to > today) return rangeMessages.future;
  return null;
}

/**
 * The From/To form's live state as the user types (spec 2 §5 "Other"): To stays disabled until
 * From has a day and may not be before it; no day after today; Apply waits for a range the server
 * would accept. `message` flags what is wrong once there is something to flag (a From after today,
 * or both days typed): the server's own texts, so the page says the same with and without JS.
 */
export function rangeFormState(from: string, to: string, today: string) {
  const fromSet = DAY_RE.test(from);
  const problem = rangeProblem(from, to, today);
  let message: string | null = null;
  if (fromSet && DAY_RE.test(to)) message = problem;
  else if (fromSet && from > today) message = rangeMessages.future;
  const toSet = DAY_RE.test(to);
  return {
    toDisabled: !fromSet,
    toMin: fromSet ? from : undefined,
    applyDisabled: problem !== null,
    message,
    /** The fields the message is about: a day after today, a To before From. */
    flagged: {
      from: message !== null && from > today,
      to: message !== null && toSet && (to < from || to > today),
    },
  };
}

/**
 * The range a page's `range`, `from` and `to` parameters ask for (`kinds`: the presets it offers);
 * an invalid From/To gives week and its error, with the typed values to show again.
 */
export function readRange(
  search: URLSearchParams,
  yesterday: string,
  today: string,
  kinds: readonly PresetKind[] = RANGES,
) {
  const from = search.get("from") ?? "";
  const to = search.get("to") ?? "";
  if (from || to) {
    const error = rangeProblem(from, to, today);
    if (!error) return { kind: "custom" as RangeKind, fromDay: from, toDay: to, error: null };
    return { ...presetRange("week", yesterday), error, typed: { from, to } };
  }
  const kind = (kinds as readonly string[]).includes(search.get("range") ?? "")
    ? (search.get("range") as PresetKind)
    : "week";
  return { ...presetRange(kind, yesterday), error: null };
}

function presetRange(kind: PresetKind, yesterday: string) {
  if (kind === "day") return { kind: kind as RangeKind, fromDay: yesterday, toDay: yesterday };
  if (kind === "week")
    return { kind: kind as RangeKind, fromDay: addDays(yesterday, -6), toDay: yesterday };
  const [y, m, d] = yesterday.split("-").map(Number);
  const monthAgo = new Date(Date.UTC(y, m - 2, d));
  const fromDay = addDays(monthAgo.toISOString().slice(0, 10), 1);
  return { kind: kind as RangeKind, fromDay, toDay: yesterday };
}
