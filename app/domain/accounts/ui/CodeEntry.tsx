import { Form } from "@remix-run/react";
import { ValidatedForm, type Validator } from "remix-validated-form";
import { CodeExpiry } from "./CodeExpiry";
import { FormError, SubmitButton, TextField } from "../../../ui/forms";

/** Where a code went and until when it works. */
export function CodeSent({
  sentTo,
  expiresAt,
  expiresAtText,
}: {
  sentTo: string;
  expiresAt: string;
  expiresAtText: string;
}) {
  return (
    <>
      <p>
        We sent a 4-digit verification code to <span className="fw-semibold">{sentTo}</span>.
      </p>
      <CodeExpiry expiresAt={expiresAt} expiresAtText={expiresAtText} />
    </>
  );
}

/** The 4-digit code box (inside a ValidatedForm). */
export function CodeField() {
  return (
    <TextField
      name="code"
      label="Verification code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={4}
      // The step has this one field: the cursor is where the code is typed next.
      // eslint-disable-next-line jsx-a11y/no-autofocus
      autoFocus
      checkOnSubmitOnly
      className="code-input"
    />
  );
}

/**
 * A link-styled button in a form of its own, posting one intent (Resend Verification code, a
 * start-over): a separate form, so it works without JavaScript beside the code form.
 */
export function IntentButton({
  intent,
  children,
  action,
  hidden,
}: {
  intent: "resend" | "cancel";
  children: string;
  action?: string;
  hidden?: Record<string, string>;
}) {
  return (
    <Form method="post" action={action}>
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" name="intent" value={intent} className="btn btn-link p-0">
        {children}
      </button>
    </Form>
  );
}

/**
 * The 4-digit code step shared by sign-in, forgotten password and registration: where the code
 * went, until when it works, the code box, and the resend and start-over buttons (separate forms,
 * so each works without JavaScript).
 */
export function CodeEntry({
  sentTo,
  expiresAt,
  expiresAtText,
  formError,
  validator,
  submitLabel = "Verify",
  cancelLabel,
  action,
}: {
  sentTo: string;
  expiresAt: string;
  expiresAtText: string;
  formError?: string | null;
  validator: Validator<{ code: string }>;
  submitLabel?: string;
  cancelLabel?: string;
  action?: string;
}) {
  return (
    <>
      <CodeSent sentTo={sentTo} expiresAt={expiresAt} expiresAtText={expiresAtText} />
      <FormError message={formError} />
      <ValidatedForm validator={validator} method="post" action={action} noValidate>
        <input type="hidden" name="intent" value="code" />
        <CodeField />
        <SubmitButton>{submitLabel}</SubmitButton>
      </ValidatedForm>
      <div className="d-flex flex-wrap gap-3 mt-3">
        <IntentButton intent="resend" action={action}>
          Resend Verification code
        </IntentButton>
        {cancelLabel ? (
          <IntentButton intent="cancel" action={action}>
            {cancelLabel}
          </IntentButton>
        ) : null}
      </div>
    </>
  );
}
