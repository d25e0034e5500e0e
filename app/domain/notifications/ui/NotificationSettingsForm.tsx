// The notification settings form (spec 2 "Notification settings"). One form holds the whole state
// being edited, so it works without JavaScript: the days are checkboxes drawn as toggle buttons,
// each recipient chip carries a hidden input, Add and × are submit buttons that re-render the form
// (nothing saved yet), ON/OFF are radio pairs, and Save writes it all. A clinician gets the same
// page read-only: disabled controls, no Add, no ×, no Save.
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Flash, type FlashMessage } from "~/ui/Flash";
import {
  THRESHOLD_MAX,
  THRESHOLD_MIN,
  WEEKDAY_NAMES,
  type NotificationFormErrors,
  type NotificationFormValues,
} from "~/domain/notifications/schema";

export type NotificationSettingsFormProps = {
  careSiteId: string;
  careSiteName: string;
  values: NotificationFormValues;
  errors?: NotificationFormErrors;
  /**
   * The answer's message: "Error occured! couldn't save data" or the Nochange notice. With
   * JavaScript it hides after the screen's snackbar delay (app/ui/delays.ts); a new object for
   * each answer, so a repeated answer shows it again.
   */
  message?: FlashMessage | null;
  canEdit: boolean;
};

const dayLabel = (day: string) => day[0].toUpperCase() + day.slice(1);

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function NotificationSettingsForm(props: NotificationSettingsFormProps) {
  const { careSiteId, careSiteName, values, errors = {}, canEdit } = props;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // Save needs a care site name and at least one recipient (spec 2 §5).
  const canSave = canEdit && careSiteName.length > 0 && values.recipients.length > 0;
  return (
    <Form method="post" noValidate className="notification-settings" aria-busy={busy}>
      <input type="hidden" name="careSiteId" value={careSiteId} />
      <Flash flash={props.message} role={props.message?.kind === "danger" ? "alert" : "status"} />
      <fieldset disabled={!canEdit} className="d-grid gap-3">
        <section className="card">
          <div className="card-body">
            <label htmlFor="notification-care-site" className="form-label">
              Care Site
            </label>
            <select
              id="notification-care-site"
              className="form-select"
              style={{ maxWidth: "24rem" }}
              disabled
              defaultValue={careSiteId}
            >
              <option value={careSiteId}>{careSiteName}</option>
            </select>
          </div>
        </section>

        <section className="card" aria-labelledby="notification-schedule">
          <div className="card-body">
            <h2 className="h5" id="notification-schedule">
              Notification Schedule
            </h2>
            <div className="weekday-toggles" role="group" aria-labelledby="notification-schedule">
              {WEEKDAY_NAMES.map((day) => (
                <div key={day}>
                  <input
                    type="checkbox"
                    className="btn-check"
                    id={`day-${day}`}
                    name="days"
                    value={day}
                    defaultChecked={values.days.includes(day)}
                    autoComplete="off"
                  />
                  <label className="btn btn-outline-primary" htmlFor={`day-${day}`}>
                    {dayLabel(day)}
                  </label>
                </div>
              ))}
            </div>
            {errors.days ? <div className="text-danger small mt-1">{errors.days}</div> : null}
            <p className="mt-2 mb-0 text-muted">The email goes out at 7:00 am Central Time.</p>
          </div>
        </section>

        <section className="card" aria-labelledby="notification-recipients">
          <div className="card-body">
            <h2 className="h5" id="notification-recipients">
              Notification Recipients
            </h2>
            {canEdit ? (
              <>
                <label htmlFor="newRecipient" className="form-label">
                  Email
                </label>
                <div className="input-group has-validation" style={{ maxWidth: "28rem" }}>
                  <input
                    id="newRecipient"
                    name="newRecipient"
                    type="text"
                    inputMode="email"
                    autoComplete="email"
                    className={`form-control ${errors.newRecipient ? "is-invalid" : ""}`}
                    defaultValue={values.newRecipient}
                    aria-invalid={errors.newRecipient ? true : undefined}
                    aria-describedby={errors.newRecipient ? "newRecipient-error" : undefined}
                  />
                  {/* First submit button of the form: Enter in the email box adds it. */}
                  <button
                    type="submit"
                    name="intent"
                    value="addRecipient"
                    className="btn btn-outline-primary"
                  >
                    Add
                  </button>
                  {errors.newRecipient ? (
                    <div id="newRecipient-error" className="invalid-feedback">
                      {errors.newRecipient}
                    </div>
                  ) : null}
                </div>
              </>
            ) : null}
            {values.recipients.length === 0 ? (
              <p className="text-muted mt-2 mb-0">No recipients yet.</p>
            ) : (
              <ul className="recipient-chips" aria-label="Recipients">
                {values.recipients.map((email) => (
                  <li key={email} className="recipient-chip">
                    <input type="hidden" name="recipients" value={email} />
                    <span>{email}</span>
                    {canEdit ? (
                      <button
                        type="submit"
                        name="removeRecipient"
                        value={email}
                        className="recipient-chip-remove"
                        aria-label={`Remove ${email}`}
                        title="Remove"
                      >
                        ×
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
            {errors.recipients ? (
              <div className="text-danger small mt-1" role="alert">
                {errors.recipients}
              </div>
            ) : null}
          </div>
        </section>

        <div className="row g-3">
          <div className="col-md-4">
            <ThresholdCard
              name="adherence"
              title="Adherence"
              on={values.adherenceOn}
              value={values.adherence}
              error={errors.adherence}
            />
          </div>
          <div className="col-md-4">
            <ThresholdCard
              name="spo2"
              title="SpO2"
              on={values.spo2On}
              value={values.spo2}
              error={errors.spo2}
            />
          </div>
          <div className="col-md-4">
            <section className="card h-100" aria-labelledby="therapyAdjustment-title">
              <div className="card-body">
                <h2 className="h5" id="therapyAdjustment-title">
                  Therapy Adjustments
                </h2>
                <OnOff
                  field="therapyAdjustment"
                  title="Therapy Adjustments"
                  on={values.therapyAdjustment}
                />
                <p className="small text-muted mt-2 mb-0">
                  When ON, you are notified if a patient changes their therapy protocol.
                </p>
              </div>
            </section>
          </div>
        </div>

        {canEdit ? (
          <div>
            <button
              type="submit"
              name="intent"
              value="save"
              className="btn btn-primary px-4"
              disabled={!canSave || busy}
            >
              {busy && navigation.formData?.get("intent") === "save" ? (
                <span className="spinner-border spinner-border-sm me-2" aria-hidden />
              ) : null}
              Save
            </button>
          </div>
        ) : null}
      </fieldset>
    </Form>
  );
}

/** ON/OFF as two radio buttons (a real choice without JavaScript). */
function OnOff({ field, title, on }: { field: string; title: string; on: boolean }) {
  const id = field;
  return (
    <div className="btn-group" role="radiogroup" aria-label={`${title} ON/OFF`}>
      <input
        type="radio"
        className="btn-check"
        name={id}
        id={`${id}-on`}
        value="on"
        defaultChecked={on}
        autoComplete="off"
      />
      <label className="btn btn-outline-success" htmlFor={`${id}-on`}>
        ON
      </label>
      <input
        type="radio"
        className="btn-check"
        name={id}
        id={`${id}-off`}
        value="off"
        defaultChecked={!on}
        autoComplete="off"
      />
      <label className="btn btn-outline-secondary" htmlFor={`${id}-off`}>
        OFF
      </label>
    </div>
  );
}

/**
 * A threshold: ON/OFF and the range "0 - N%" with N typed in a number box (OFF stores 0). With
 * JavaScript a slider moves N too; without it the number box alone does the job.
 */
function ThresholdCard({
  name,
  title,
  on,
  value,
  error,
}: {
  name: "adherence" | "spo2";
  title: string;
  on: boolean;
  value: string;
  error?: string;
}) {
  const hydrated = useHydrated();
  const [current, setCurrent] = useState(value);
  useEffect(() => setCurrent(value), [value]);
  const inputId = `${name}-threshold`;
  const numeric = Number(current);
  const sliderValue = Number.isFinite(numeric)
    ? Math.min(THRESHOLD_MAX, Math.max(THRESHOLD_MIN, numeric))
    : THRESHOLD_MIN;
  return (
    <section className="card h-100" aria-labelledby={`${name}-title`}>
      <div className="card-body">
        <h2 className="h5" id={`${name}-title`}>
          {title}
        </h2>
        <OnOff field={`${name}On`} title={title} on={on} />
        <div className="d-flex align-items-center gap-2 mt-3">
          <span aria-hidden>0 -</span>
          <input
            id={inputId}
            name={name}
            type="number"
            min={THRESHOLD_MIN}
            max={THRESHOLD_MAX}
            step={1}
            inputMode="numeric"
            className={`form-control form-control-sm threshold-input ${error ? "is-invalid" : ""}`}
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            aria-label={`${title} threshold (0 - N%)`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
          />
          <span aria-hidden>%</span>
        </div>
        {hydrated ? (
          <input
            type="range"
            className="form-range threshold-slider mt-2"
            min={THRESHOLD_MIN}
            max={THRESHOLD_MAX}
            step={1}
            value={sliderValue}
            onChange={(e) => setCurrent(e.target.value)}
            aria-label={`${title} range 0 - ${sliderValue}%`}
          />
        ) : null}
        {error ? (
          <div id={`${inputId}-error`} className="text-danger small mt-1">
            {error}
          </div>
        ) : null}
      </div>
    </section>
  );
}
