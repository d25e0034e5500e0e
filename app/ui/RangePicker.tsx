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

type Props = {
  range: RangeView;
  today: string;
  kinds: readonly PresetKind[];
  /** Parameters the From/To form carries along (the page's identity, its list). */
  keep: Record<string, string | null | undefined>;
  /** Parameters a new range clears (a page number, a drill-down). */
  reset?: string[];
  label?: string;
};

export function RangePicker(props: Props) {
  const hydrated = useHydrated();
  const { range } = props;
  // A new range from the server starts the form again from its days.
  const key = [range.kind, range.fromDay, range.toDay, range.typed?.from, range.typed?.to].join();
  return <RangeControls key={key} {...props} live={hydrated} />;
}

function RangeControls({
  range,
  today,
  kinds,
  keep,
  reset = [],
  label = "Range",
  live,
}: Props & {
  /** Whether React runs the page: the rules apply only then (the server's HTML stays enabled). */
  live: boolean;
}) {
  const location = useLocation();
  const cleared = Object.fromEntries(reset.map((k) => [k, null]));
  const custom = range.kind === "custom";
  const [days, setDays] = useState({
    from: range.typed?.from ?? (custom ? range.fromDay : ""),
    to: range.typed?.to ?? (custom ? range.toDay : ""),
  });
  // The live message waits for the user's first change: the server's alert already tells what was
  // wrong with a range it refused.
  const [edited, setEdited] = useState(false);
  const state = rangeFormState(days.from, days.to, today);
  const message = live && edited ? state.message : null;
  const idPrefix = label.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const messageId = `${idPrefix}-problem`;
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
          <DateRangeFields
            idPrefix={idPrefix}
            today={today}
            days={days}
            live={live}
            onChange={(d) => {
              setDays(d);
              setEdited(true);
            }}
            problem={message ? { id: messageId, flagged: state.flagged } : undefined}
          />
          <button
            type="submit"
            className="btn btn-sm btn-outline-primary"
            disabled={live ? state.applyDisabled : undefined}
          >
            Apply
          </button>
        </Form>
        <span className="small text-muted">
          {range.fromDay} to {range.toDay}
        </span>
      </div>
      {message ? (
        <p id={messageId} className="small text-danger mb-2">
          {message}
        </p>
      ) : null}
      {range.error ? (
        <div className="alert alert-warning" role="alert">
          {range.error}
        </div>
      ) : null}
    </>
  );
}

type Days = { from: string; to: string };

/**
 * The From/To date boxes of a range form. Once React runs the page (`live`) they follow the
 * range rules (rangeFormState): To disabled until From, not before it; the server's HTML leaves
 * both enabled. `problem` marks the boxes a shown message is about.
 */
export function DateRangeFields({
  idPrefix,
  today,
  days,
  live,
  onChange,
  problem,
  required,
}: {
  idPrefix: string;
  today: string;
  days: Days;
  live: boolean;
  onChange: (days: Days) => void;
  problem?: { id: string; flagged: { from: boolean; to: boolean } };
  required?: boolean;
}) {
  const state = rangeFormState(days.from, days.to, today);
  return (["from", "to"] as const).map((name) => {
    const invalid = problem?.flagged[name] ? true : undefined;
    return (
      <div key={name}>
        <label htmlFor={`${idPrefix}-${name}`} className="form-label small mb-0">
          {name === "from" ? "From" : "To"}
        </label>
        <input
          id={`${idPrefix}-${name}`}
          name={name}
          type="date"
          max={today}
          min={live && name === "to" ? state.toMin : undefined}
          disabled={live && name === "to" ? state.toDisabled : undefined}
          value={days[name]}
          onChange={(event) => onChange({ ...days, [name]: event.currentTarget.value })}
          required={required}
          aria-invalid={invalid}
          aria-describedby={problem?.id}
          className={`form-control form-control-sm${invalid ? " is-invalid" : ""}`}
        />
      </div>
    );
  });
}
