// The range control of the dashboards and the patient profile's graphs (spec 2 §2, spec 3 §2.2):
// preset links (Day / Week / Month) and a GET form for From/To that keeps the page's other
// parameters. Plain links and a GET form: it works without JavaScript.
import { Form, Link, useLocation } from "@remix-run/react";
import type { PresetKind } from "~/lib/dateRange";
import { withParams } from "~/lib/listParams";

export type RangeView = {
  kind: string;
  fromDay: string;
  toDay: string;
  error: string | null;
  typed?: { from: string; to: string };
};

export function RangePicker({
  range,
  today,
  kinds,
  keep,
  reset = [],
  label = "Range",
}: {
  range: RangeView;
  today: string;
  kinds: readonly PresetKind[];
  /** Parameters the From/To form carries along (the page's identity, its list). */
  keep: Record<string, string | null | undefined>;
  /** Parameters a new range clears (a page number, a drill-down). */
  reset?: string[];
  label?: string;
}) {
  const location = useLocation();
  const cleared = Object.fromEntries(reset.map((k) => [k, null]));
  const custom = range.kind === "custom";
  return (
    <>
      <div className="d-flex flex-wrap gap-2 align-items-end mb-2">
        <nav className="btn-group" aria-label={label}>
          {kinds.map((k) => (
            <Link
              key={k}
              to={withParams(location.search, { ...cleared, range: k, from: null, to: null })}
              className={`btn btn-sm ${range.kind === k ? "btn-primary" : "btn-outline-primary"}`}
              aria-current={range.kind === k ? "true" : undefined}
              preventScrollReset
            >
              {k[0].toUpperCase() + k.slice(1)}
            </Link>
          ))}
        </nav>
        <Form method="get" className="d-flex gap-2 align-items-end" preventScrollReset>
          {Object.entries(keep).map(([name, value]) =>
            value ? <input key={name} type="hidden" name={name} value={value} /> : null,
          )}
          {(["from", "to"] as const).map((name) => (
            <div key={name}>
              <label htmlFor={`${label}-${name}`} className="form-label small mb-0">
                {name === "from" ? "From" : "To"}
              </label>
              <input
                id={`${label}-${name}`}
                name={name}
                type="date"
                max={today}
                defaultValue={range.typed?.[name] ?? (custom ? range[`${name}Day`] : "")}
                className="form-control form-control-sm"
              />
            </div>
          ))}
          <button type="submit" className="btn btn-sm btn-outline-primary">
            Apply
          </button>
        </Form>
        <span className="small text-muted">
          {range.fromDay} to {range.toDay}
        </span>
      </div>
      {range.error ? (
        <div className="alert alert-warning" role="alert">
          {range.error}
        </div>
      ) : null}
    </>
  );
}
