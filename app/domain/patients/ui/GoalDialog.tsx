// Set new therapy goals (spec 3 §2.3, §4, §5): the weekdays, the per-day count with its minus and
// plus buttons, and Submit. Enter submits the goal (the form's first submit button is a hidden
// twin of Submit). Without JavaScript minus and plus are submit buttons that come back with the
// new count, nothing is disabled in the server's HTML (a count typed into the box reaches Submit)
// and the server refuses what the rules refuse. Once React runs the page, minus and plus step the
// box in the browser, a non-digit keystroke is ignored, and Submit (with its twin) is disabled
// while the count is 0 or empty or no weekday is ticked.
import { Form } from "@remix-run/react";
import { useState } from "react";
import { Dialog } from "~/ui/Dialog";
import { useHydrated } from "~/ui/hydration";
import {
  cleanCount,
  GOAL_WEEKDAYS,
  MAX_THERAPIES_PER_DAY,
  stepCount,
  WEEKDAY_LABELS,
} from "~/domain/patients/schema";

export type GoalFormState = { days: string[]; count: string; error: string | null };

export function GoalDialog({ closeHref, state }: { closeHref: string; state: GoalFormState }) {
  const live = useHydrated();
  const [days, setDays] = useState<string[]>(state.days);
  const [count, setCount] = useState(state.count);
  const n = count === "" ? 0 : Number(count);
  const cannotSubmit = live && (n < 1 || days.length === 0);
  const submit = { type: "submit" as const, name: "intent", value: "goal", disabled: cannotSubmit };
  const step = (by: -1 | 1) =>
    live
      ? { type: "button" as const, onClick: () => setCount((c) => stepCount(c, by)) }
      : { type: "submit" as const, name: "intent", value: by < 0 ? "goal-minus" : "goal-plus" };
  return (
    <Dialog title="Set new therapy goals" closeHref={closeHref}>
      <Form method="post" preventScrollReset>
        {/* The form's default button (Enter in the box or on a weekday): the goal, not minus. */}
        <button {...submit} className="d-none" tabIndex={-1} aria-hidden="true" />
        <fieldset className="mb-3">
          <legend className="fs-6">Select the days therapy should be performed</legend>
          <div className="d-flex flex-wrap gap-3">
            {GOAL_WEEKDAYS.map((d) => (
              <div className="form-check" key={d}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  name="days"
                  value={d}
                  id={`goal-${d}`}
                  checked={days.includes(d)}
                  onChange={(event) => {
                    const ticked = event.currentTarget.checked;
                    setDays((all) =>
                      GOAL_WEEKDAYS.filter((w) => (w === d ? ticked : all.includes(w))),
                    );
                  }}
                />
                <label className="form-check-label" htmlFor={`goal-${d}`}>
                  {WEEKDAY_LABELS[d]}
                </label>
              </div>
            ))}
          </div>
        </fieldset>
        <label htmlFor="goal-count" className="form-label">
          Number of therapies per day
        </label>
        <div className="input-group mb-2" style={{ maxWidth: "12rem" }}>
          <button
            {...step(-1)}
            className="btn btn-outline-secondary"
            aria-label="Fewer therapies per day"
            disabled={live && n <= 0}
          >
            −
          </button>
          <input
            id="goal-count"
            name="count"
            inputMode="numeric"
            maxLength={3}
            value={count}
            onChange={(event) => setCount(cleanCount(event.currentTarget.value))}
            className={`form-control text-center ${state.error ? "is-invalid" : ""}`}
            aria-describedby={state.error ? "goal-error" : undefined}
          />
          <button
            {...step(1)}
            className="btn btn-outline-secondary"
            aria-label="More therapies per day"
            disabled={live && n >= MAX_THERAPIES_PER_DAY}
          >
            +
          </button>
        </div>
        {state.error ? (
          <div id="goal-error" className="text-danger small mb-2" role="alert">
            {state.error}
          </div>
        ) : null}
        <button
          {...submit}
          className="btn btn-primary"
          style={cannotSubmit ? { opacity: 0.5 } : undefined}
        >
          Submit
        </button>
      </Form>
    </Dialog>
  );
}
