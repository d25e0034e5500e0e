// The panels of Password and Security (spec 1 §2.6, §4.4, §5.4), one shown at a time. Each form
// posts its panel and intent; the page's action answers with post/redirect/get.
import { Form } from "@remix-run/react";
import { ValidatedForm, type Validator } from "remix-validated-form";
import { useEffect, useRef, type ReactNode } from "react";
import {
  changeEmailValidator,
  changePasswordValidator,
  changePhoneValidator,
  confirmCurrentPasswordValidator,
  securityCodeValidator,
} from "~/domain/accounts/schema";
import type { ContactStep, SecurityPanel } from "~/domain/accounts/security.server";
import { CodeField, CodeSent, IntentButton } from "./CodeEntry";
import { FormError, PasswordField, SubmitButton, TextField } from "~/ui/forms";
import { FORM_CLEAR_MS } from "~/ui/delays";
import { useRootFlash } from "~/ui/rootData";

export const PANEL_BUTTONS: Record<SecurityPanel, string> = {
  email: "Change email address",
  phone: "Change phone number",
  password: "Change password",
  units: "Change Measuring units",
};

/** One step's form: the panel and intent as hidden fields, then the step's fields and button. */
function PanelForm<T extends { [fieldName: string]: unknown }>({
  panel,
  intent,
  validator,
  clearAfterSuccess,
  children,
}: {
  panel: SecurityPanel;
  intent: string;
  validator: Validator<T>;
  /** The form keeps its values after a success (the email and phone steps move on instead). */
  clearAfterSuccess?: boolean;
  children: ReactNode;
}) {
  const form = useClearAfterSuccess(clearAfterSuccess ?? false);
  return (
    <ValidatedForm validator={validator} method="post" noValidate formRef={form}>
      <input type="hidden" name="panel" value={panel} />
      <input type="hidden" name="intent" value={intent} />
      {children}
    </ValidatedForm>
  );
}

/**
 * With JavaScript a form keeps what was typed for FORM_CLEAR_MS after a success (the page's
 * "updated successfully" popup), then clears (spec 1 §2.6). Without JavaScript the page after the
 * post is already empty.
 */
function useClearAfterSuccess(enabled: boolean) {
  const form = useRef<HTMLFormElement>(null);
  const flash = useRootFlash();
  useEffect(() => {
    if (!enabled || flash?.kind !== "success") return;
    const timer = setTimeout(() => form.current?.reset(), FORM_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [enabled, flash]);
  return form;
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section style={{ maxWidth: "28rem" }}>
      <h2 className="h5">{title}</h2>
      {children}
    </section>
  );
}

/** Email or phone: current password, then the new value, then the code sent to it. */
export function ContactPanel({
  panel,
  step,
  formError,
}: {
  panel: "email" | "phone";
  step: ContactStep;
  formError: string | null;
}) {
  return (
    <Panel title={PANEL_BUTTONS[panel]}>
      <FormError message={formError} />
      {step.step === "confirm" ? (
        <PanelForm panel={panel} intent="confirm" validator={confirmCurrentPasswordValidator}>
          <PasswordField name="currentPassword" label="Current password" />
          <SubmitButton>Continue</SubmitButton>
        </PanelForm>
      ) : null}
      {step.step === "new" && panel === "email" ? (
        <PanelForm panel={panel} intent="newValue" validator={changeEmailValidator}>
          <TextField name="newEmail" label="New email address" type="email" autoComplete="email" />
          <SubmitButton>Send code</SubmitButton>
        </PanelForm>
      ) : null}
      {step.step === "new" && panel === "phone" ? (
        <PanelForm panel={panel} intent="newValue" validator={changePhoneValidator}>
          <TextField
            name="newPhone"
            label="New phone number (with country code)"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
          />
          <SubmitButton>Send code</SubmitButton>
        </PanelForm>
      ) : null}
      {step.step === "code" ? (
        <>
          <CodeSent
            sentTo={step.sentTo}
            expiresAt={step.expiresAt}
            expiresAtText={step.expiresAtText}
          />
          <PanelForm panel={panel} intent="code" validator={securityCodeValidator}>
            <CodeField />
            <SubmitButton>Save</SubmitButton>
          </PanelForm>
        </>
      ) : null}
      {step.step !== "confirm" ? (
        <div className="d-flex flex-wrap gap-3 mt-2">
          {step.step === "code" ? (
            <IntentButton intent="resend" hidden={{ panel }}>
              Resend Verification code
            </IntentButton>
          ) : null}
          <IntentButton intent="cancel" hidden={{ panel }}>
            Start again
          </IntentButton>
        </div>
      ) : null}
    </Panel>
  );
}

export function PasswordPanel({ formError }: { formError: string | null }) {
  return (
    <Panel title="Change password">
      <FormError message={formError} />
      <PanelForm
        panel="password"
        intent="password"
        validator={changePasswordValidator}
        clearAfterSuccess
      >
        <PasswordField name="oldPassword" label="Old password" />
        <PasswordField name="newPassword" label="New password" autoComplete="new-password" />
        <PasswordField
          name="confirmPassword"
          label="Confirm new password"
          autoComplete="new-password"
        />
        <SubmitButton>Save</SubmitButton>
      </PanelForm>
    </Panel>
  );
}

const UNITS = [
  ["Imperial", "Imperial (ft, lbs)"],
  ["Metric", "Metric (cm, kg)"],
] as const;

export function UnitsPanel({ measuringUnit }: { measuringUnit: string | null }) {
  return (
    <Panel title="Select the measuring units">
      <Form method="post">
        <input type="hidden" name="panel" value="units" />
        {UNITS.map(([value, label]) => (
          <div className="form-check" key={value}>
            <input
              className="form-check-input"
              type="radio"
              name="mu"
              id={`mu-${value}`}
              value={value}
              defaultChecked={measuringUnit === value}
            />
            <label className="form-check-label" htmlFor={`mu-${value}`}>
              {label}
            </label>
          </div>
        ))}
        <button type="submit" name="intent" value="units" className="btn btn-primary mt-3">
          Save
        </button>
      </Form>
    </Panel>
  );
}
