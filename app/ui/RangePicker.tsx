// The range control of the dashboards and the patient profile's graphs (spec 2 §2, spec 3 §2.2):
// preset links (Day / Week / Month) and a GET form for From/To that keeps the page's other
// parameters. Plain links and a GET form: it works without JavaScript, where the server refuses
// a wrong range (readRange). Once React runs the page, the spec's rules (2 §5 "Other") apply as the
// user types (rangeFormState): nothing is disabled in the server's HTML, so the form posts without
// JavaScript and the first render in the browser matches it.
import { Form, Link, useLocation } from "@remix-run/react";
import { useState } from "react";
import { rangeFormState, type PresetKind } from "~/lib/dateRange";
import { withParams } from "~/lib/listParams";
import { useHydrated } from "~/ui/hydration";

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
  const hydrated = useHydrated();
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
        <RangeForm
          // A new range from the server starts the form again from its values.
          key={`${range.kind}:${range.fromDay}:${range.toDay}:${range.typed?.from}:${range.typed?.to}`}
          initial={{
            from: range.typed?.from ?? (custom ? range.fromDay : ""),
            to: range.typed?.to ?? (custom ? range.toDay : ""),
          }}
          today={today}
          keep={keep}
          live={hydrated}
          idPrefix={label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}
        />
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

function RangeForm({
  initial,
  today,
  keep,
  live: hydrated,
  idPrefix,
}: {
  initial: { from: string; to: string };
  today: string;
  keep: Record<string, string | null | undefined>;
  /** Whether React runs the page: the rules apply only then (the server's HTML stays enabled). */
  live: boolean;
  idPrefix: string;
}) {
  const [days, setDays] = useState(initial);
  // The live message waits for the user's first change: the server's alert already tells what was
  // wrong with the range it refused.
  const [edited, setEdited] = useState(false);
  const state = rangeFormState(days.from, days.to, today);
  const message = hydrated && edited ? state.message : null;
  const messageId = `${idPrefix}-problem`;
  return (
    <Form method="get" className="d-flex flex-wrap gap-2 align-items-end" preventScrollReset>
      {Object.entries(keep).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      {(["from", "to"] as const).map((name) => (
        <div key={name}>
          <label htmlFor={`${idPrefix}-${name}`} className="form-label small mb-0">
            {name === "from" ? "From" : "To"}
          </label>
          <input
            id={`${idPrefix}-${name}`}
            name={name}
            type="date"
            max={today}
            min={hydrated && name === "to" ? state.toMin : undefined}
            disabled={hydrated && name === "to" ? state.toDisabled : undefined}
            value={days[name]}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setDays((d) => ({ ...d, [name]: value }));
              setEdited(true);
            }}
            aria-invalid={message && state.flagged[name] ? true : undefined}
            aria-describedby={message ? messageId : undefined}
            className={`form-control form-control-sm${message && state.flagged[name] ? " is-invalid" : ""}`}
          />
        </div>
      ))}
      <button
        type="submit"
        className="btn btn-sm btn-outline-primary"
        disabled={hydrated ? state.applyDisabled : undefined}
      >
        Apply
      </button>
      {message ? (
        <p id={messageId} className="w-100 small text-danger mb-0">
          {message}
        </p>
      ) : null}
    </Form>
  );
}
