import { useField, useIsSubmitting } from "remix-validated-form";
import type { ReactNode } from "react";

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
};

/** A labelled Bootstrap input bound to remix-validated-form (server errors show without JS). */
export function TextField({ name, label, type = "text", hint, className, ...rest }: FieldProps) {
  const { error, getInputProps } = useField(name);
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
}: {
  children: ReactNode;
  className?: string;
  name?: string;
  value?: string;
  formNoValidate?: boolean;
  disabled?: boolean;
}) {
  const submitting = useIsSubmitting();
  return (
    <button
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
