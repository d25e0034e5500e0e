import { COUNTRIES, US_STATES } from "~/lib/validation";
import { useField } from "remix-validated-form";

/** Country as a select of country.json, state with the US states as suggestions (works without JS). */
export function CountryAndState() {
  const country = useField("country");
  const state = useField("state");
  return (
    <>
      <div className="col-md-6 mb-3">
        <label htmlFor="field-country" className="form-label">
          Country
        </label>
        <select
          id="field-country"
          className={`form-select ${country.error ? "is-invalid" : ""}`}
          {...country.getInputProps()}
        >
          <option value="">Select a country</option>
          {COUNTRIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        {country.error ? <div className="invalid-feedback">{country.error}</div> : null}
      </div>
      <div className="col-md-6 mb-3">
        <label htmlFor="field-state" className="form-label">
          State
        </label>
        <input
          id="field-state"
          list="us-states"
          autoComplete="address-level1"
          className={`form-control ${state.error ? "is-invalid" : ""}`}
          {...state.getInputProps()}
        />
        <datalist id="us-states">
          {US_STATES.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        {state.error ? <div className="invalid-feedback">{state.error}</div> : null}
        <div className="form-text">For the United States, pick a state from the list.</div>
      </div>
    </>
  );
}

/** A read-only labelled value (user info, read-only profile fields). */
export function ReadOnlyField({
  label,
  value,
  id,
}: {
  label: string;
  value: string | null;
  id: string;
}) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input id={id} className="form-control" value={value ?? ""} disabled readOnly />
    </div>
  );
}
