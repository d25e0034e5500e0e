// The therapy dashboard's view constants (spec 3 §2.7): the preview's zoom steps, the
// annotation's length and the From/To rule (§5). Pure: the page, its script and the server share
// them.
import { rangeMessages } from "~/lib/dateRange";

export const ZOOM_STEP = 0.2;
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 3;
export const ANNOTATION_MAX = 200;

/** A link to the dashboard with some of its query parameters changed (null removes one). */
export type DashboardHref = (changes: Record<string, string | null>) => string;

/** Spec 3 §5: 'Date must be between {first} and {last}', the log's DD-MM-YYYY dates. */
export const outsideRangeMessage = (firstDmy: string | null, lastDmy: string | null) =>
  `Date must be between ${firstDmy} and ${lastDmy}`;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dashboard's From/To rule (spec 3 §5), for the server and the page's script alike: a typed
 * date must lie within the first and last therapy days (YYYY-MM-DD); both in range and From after
 * To gives the spec's two messages. Empty fields are no error (the log's own bounds stand in).
 */
export function dashboardRangeErrors(
  typed: { from: string; to: string },
  bounds: { first: string | null; last: string | null; outside: string },
) {
  const { first, last, outside } = bounds;
  const check = (text: string) =>
    !ISO_DAY.test(text) || !first || !last || text < first || text > last ? outside : null;
  const errors: { from: string | null; to: string | null } = {
    from: typed.from ? check(typed.from) : null,
    to: typed.to ? check(typed.to) : null,
  };
  if (!errors.from && !errors.to && typed.from && typed.to && typed.from > typed.to) {
    errors.from = rangeMessages.fromAfterTo;
    errors.to = rangeMessages.toBeforeFrom;
  }
  return errors;
}
