import { useActionData } from "@remix-run/react";
import { useField, useFormContext, useIsSubmitting } from "remix-validated-form";
import type { ReactNode, Ref } from "react";
import { COUNTRIES, US_STATES } from "~/lib/validation";
import { useImageCrop } from "./ImageCrop";

type FieldProps = {
  name: string;
  label: string;
  type?: string;
  autoComplete?: string;
  inputMode?: "numeric" | "text" | "email" | "tel";
  maxLength?: number;
  autoFocus?: boolean;
  className?: string;
  hint?: ReactNode;
  /**
   * With JavaScript, when the box checks itself (default: on blur, then as typed once the form was
   * submitted). A box that has the focus on arrival (the code boxes) checks only on Submit:
   * leaving it empty to press a button beside it would otherwise show a message that moves that
   * button from under the pointer, and the click would be lost.
   */
  checkOnSubmitOnly?: boolean;
};

/** A labelled Bootstrap input bound to remix-validated-form (server errors show without JS). */
const ON_SUBMIT = {
  initial: "onSubmit",
  whenTouched: "onSubmit",
  whenSubmitted: "onChange",
} as const;

export function TextField({
  name,
  label,
  type = "text",
  hint,
  className,
  checkOnSubmitOnly,
  ...rest
}: FieldProps) {
  const { error, getInputProps } = useField(name, {
    validationBehavior: checkOnSubmitOnly ? ON_SUBMIT : undefined,
  });
  const id = `field-${name}`;
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        id={id}
        className={`form-control ${error ? "is-invalid" : ""} ${className ?? ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...getInputProps({ type, ...rest })}
      />
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback">
          {error}
        </div>
      ) : null}
      {hint ? <div className="form-text">{hint}</div> : null}
    </div>
  );
}

export function SubmitButton({
  children,
  className = "btn btn-primary",
  name,
  value,
  formNoValidate,
  disabled,
  buttonRef,
}: {
  children: ReactNode;
  className?: string;
  name?: string;
  value?: string;
  formNoValidate?: boolean;
  disabled?: boolean;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  const submitting = useIsSubmitting();
  return (
    <button
      ref={buttonRef}
      type="submit"
      className={className}
      name={name}
      value={value}
      disabled={submitting || disabled}
      formNoValidate={formNoValidate}
    >
      {submitting ? <span className="spinner-border spinner-border-sm me-2" aria-hidden /> : null}
      {children}
    </button>
  );
}

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div className="alert alert-danger" role="alert">
      {message}
    </div>
  );
}

/**
 * A form-level message once a Submit of the surrounding ValidatedForm was refused, by the server
 * (without JavaScript) or by the browser's check (with it), while a field still has an error:
 * "Please fix the inputs with errors", "Profile was not updated…". Put it after the Submit
 * button: appearing or going away on a field's blur, it then never moves the button from under
 * the pointer between press and release (the click would be lost).
 */
export function FieldErrorsAlert({ message }: { message: string }) {
  const { fieldErrors, hasBeenSubmitted } = useFormContext();
  const reply = useActionData() as { fieldErrors?: Record<string, unknown> } | undefined;
  const hasErrors = Object.values(fieldErrors).some(Boolean);
  const refusedByServer = Object.values(reply?.fieldErrors ?? {}).some(Boolean);
  if (!hasErrors || (!hasBeenSubmitted && !refusedByServer)) return null;
  return (
    <div className="mt-3">
      <FormError message={message} />
    </div>
  );
}

/**
 * A plain date input (no remix-validated-form) with its server-side message, for GET filters and
 * small forms; `min`/`max` as YYYY-MM-DD.
 */
export function DateInput({
  name,
  label,
  value,
  error,
  min,
  max,
  small,
}: {
  name: string;
  label: string;
  value: string;
  error: string | null;
  min?: string | null;
  max?: string | null;
  small?: boolean;
}) {
  const id = `date-${name}`;
  return (
    <div>
      <label htmlFor={id} className={small ? "form-label small mb-0" : "form-label"}>
        {label}
      </label>
      <input
        id={id}
        type="date"
        name={name}
        defaultValue={value}
        min={min ?? undefined}
        max={max ?? undefined}
        className={`form-control${small ? " form-control-sm" : ""}${error ? " is-invalid" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      ) : null}
    </div>
  );
}

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
          <CountryOptions />
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

/** A password box (inside a ValidatedForm): its value is never sent back into the page. */
export function PasswordField({
  name,
  label,
  autoComplete = "current-password",
  hint,
}: {
  name: string;
  label: string;
  autoComplete?: "current-password" | "new-password";
  hint?: ReactNode;
}) {
  return (
    <TextField name={name} label={label} type="password" autoComplete={autoComplete} hint={hint} />
  );
}

/** The options of a country select: a blank choice, then country.json. */
export function CountryOptions() {
  return (
    <>
      <option value="">Select a country</option>
      {COUNTRIES.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </>
  );
}

type Address = {
  addressLine1: string | null;
  addressLine2: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  zip: string | null;
};

/** An address as read-only field rows ([id, label, value]), ids prefixed, in the forms' order. */
export function addressRows(address: Address, idPrefix = ""): [string, string, string | null][] {
  return [
    [`${idPrefix}addressLine1`, "Address line 1", address.addressLine1],
    [`${idPrefix}addressLine2`, "Address line 2", address.addressLine2],
    [`${idPrefix}country`, "Country", address.country],
    [`${idPrefix}state`, "State", address.state],
    [`${idPrefix}city`, "City", address.city],
    [`${idPrefix}zip`, "Zip", address.zip],
  ];
}

/** Read-only fields, two to a row. */
export function ReadOnlyFields({ fields }: { fields: [string, string, string | null][] }) {
  return (
    <div className="row">
      {fields.map(([id, label, value]) => (
        <div className="col-md-6" key={id}>
          <ReadOnlyField id={id} label={label} value={value} />
        </div>
      ))}
    </div>
  );
}

/** A picture's file box, its error and its upload button (inside a multipart form). */
export function ImageUploadFields({
  id,
  name,
  label,
  error,
  button,
}: {
  id: string;
  name: string;
  label: string;
  error?: string | null;
  button: string;
}) {
  // With JavaScript the user chooses the square (ui/ImageCrop.tsx); without, the centre is kept.
  const crop = useImageCrop(label);
  return (
    <>
      <label htmlFor={id} className="form-label">
        {label} (JPEG, PNG, GIF or WebP, at most 5 MB; cropped square)
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept="image/jpeg,image/png,image/gif,image/webp"
        className={`form-control mb-2 ${error ? "is-invalid" : ""}`}
        onChange={crop.onFileChange}
      />
      {error ? <div className="invalid-feedback">{error}</div> : null}
      {crop.view}
      <button type="submit" className="btn btn-outline-primary btn-sm">
        {button}
      </button>
    </>
  );
}
