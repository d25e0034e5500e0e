import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { ValidatedForm } from "remix-validated-form";
import type { RegistrationPageData } from "~/domain/accounts/registrationFlow.server";
import { ROLE_NAMES } from "~/domain/roles";
import { useRootFlash } from "~/ui/rootData";
import { useHydrated } from "~/ui/hydration";
import {
  accountMessages,
  registrationValidator,
  verificationCodeValidator,
} from "~/domain/accounts/schema";
import { NameFields } from "./ProfileFields";
import { CodeField, CodeSent, IntentButton } from "./CodeEntry";
import { Flash } from "../../../ui/Flash";
import { FormError, PasswordField, SubmitButton, TextField } from "../../../ui/forms";

/** The registration page (spec 1 §2.10, §4.3) of /signup, /app/signup and /acceptinvite. */
export function RegistrationPage() {
  const page = useLoaderData() as RegistrationPageData;
  const actionData = useActionData() as { formError?: string } | undefined;
  const formError = actionData?.formError ?? null;
  const flash = useRootFlash();

  switch (page.state) {
    case "expired":
      return (
        <div className="text-center">
          <p className="h5 text-danger" role="alert">
            {accountMessages.linkExpired}
          </p>
          <p>Ask the person who invited you to send the invitation again.</p>
          <Link to="/">Go to sign in</Link>
        </div>
      );
    case "existingAccount":
      return (
        <div>
          <p>
            This invitation{page.careSiteName ? ` from ${page.careSiteName}` : ""} is for an email
            address that already has an ARC Connect account. Sign in and accept it under
            Invitations.
          </p>
          <Link to="/" className="btn btn-primary">
            Please Login
          </Link>
        </div>
      );
    case "done":
      return (
        <div className="text-center">
          <p className="h5 text-success" role="status">
            {accountMessages.registered}
          </p>
          <Link to="/" className="btn btn-primary mt-2">
            Please Login
          </Link>
        </div>
      );
    case "code":
      return <CodeStep page={page} formError={formError} flash={flash} />;
    case "form":
      return (
        <RegistrationForm invitation={page.invitation} values={page.values} formError={formError} />
      );
  }
}

function RegistrationForm({
  invitation,
  values,
  formError,
}: {
  invitation: Extract<RegistrationPageData, { state: "form" }>["invitation"];
  values?: Record<string, string>;
  formError: string | null;
}) {
  const role = invitation?.role ?? "clinician";
  return (
    <>
      {invitation ? (
        <p className="text-success fw-semibold" role="status">
          ✓ {accountMessages.linkVerified}
          {invitation.careSiteName ? ` — you are invited to ${invitation.careSiteName}` : ""}
        </p>
      ) : null}
      <FormError message={formError} />
      <ValidatedForm
        validator={registrationValidator}
        method="post"
        noValidate
        defaultValues={{
          phoneCountry: "1",
          ...values,
          email: invitation?.email ?? values?.email ?? "",
        }}
      >
        <div className="row">
          <div className="col-md-6">
            <AvailabilityField name="username" label="Username" autoComplete="username" />
          </div>
          <div className="col-md-6">
            {invitation ? (
              <div className="mb-3">
                <label htmlFor="field-email" className="form-label">
                  Email
                </label>
                <input
                  id="field-email"
                  name="email"
                  className="form-control"
                  value={invitation.email}
                  readOnly
                />
              </div>
            ) : (
              <AvailabilityField name="email" label="Email" type="email" autoComplete="email" />
            )}
          </div>
          <div className="col-md-6">
            <PasswordField name="password" label="Password" autoComplete="new-password" />
          </div>
          <div className="col-md-6">
            <PasswordField
              name="confirmPassword"
              label="Confirm password"
              autoComplete="new-password"
            />
          </div>
          <NameFields />
          <div className="col-4 col-md-2">
            <TextField name="phoneCountry" label="Code" inputMode="numeric" maxLength={3} />
          </div>
          <div className="col-8 col-md-4">
            <TextField
              name="phone"
              label="Mobile phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
            />
          </div>
          <div className="col-md-6 mb-3">
            <label htmlFor="field-role" className="form-label">
              Role
            </label>
            <select id="field-role" className="form-select" disabled value={role}>
              <option value={role}>{ROLE_NAMES[role] ?? role}</option>
            </select>
          </div>
        </div>
        <p className="form-text">
          Passwords need at least 8 characters with an uppercase letter, a lowercase letter, a digit
          and one of -+_!@#$%^&*.,? . We text a 4-digit code to your mobile to verify it.
        </p>
        <input type="hidden" name="intent" value="next" />
        <SubmitButton>{invitation ? "Verify Phone Number" : "Next"}</SubmitButton>
      </ValidatedForm>
    </>
  );
}

/**
 * A field whose uniqueness is checked as the user types (with JavaScript) as well as on submit.
 * A plain fetch, not a fetcher: a failed check must stay a missing hint, never an error page.
 */
function AvailabilityField(props: {
  name: "username" | "email";
  label: string;
  type?: string;
  autoComplete?: string;
}) {
  const [value, setValue] = useState("");
  const [taken, setTaken] = useState<string | null>(null);
  useEffect(() => {
    setTaken(null);
    const ready =
      props.name === "username" ? value.length >= 6 : /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(value);
    if (!ready) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/availability?${props.name}=${encodeURIComponent(value)}`, {
        signal: controller.signal,
      })
        .then((response) => (response.ok ? response.json() : null))
        .then((body: Record<string, string | null> | null) => setTaken(body?.[props.name] ?? null))
        .catch(() => undefined);
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value, props.name]);
  return (
    <div onInput={(e) => setValue((e.target as HTMLInputElement).value)}>
      <TextField
        {...props}
        hint={taken ? <span className="text-danger">{taken}</span> : undefined}
      />
    </div>
  );
}

function CodeStep({
  page,
  formError,
  flash,
}: {
  page: Extract<RegistrationPageData, { state: "code" }>;
  formError: string | null;
  flash: ReturnType<typeof useRootFlash>;
}) {
  return (
    <>
      <Flash flash={flash} />
      <p>
        Registering <span className="fw-semibold">{page.username}</span> ({page.email}).
      </p>
      {page.verified ? (
        <p className="text-success fw-semibold" role="status">
          <span aria-hidden>✓ </span>
          <span>{accountMessages.mobileVerified}</span>
        </p>
      ) : (
        <>
          <CodeSent
            sentTo={page.maskedPhone}
            expiresAt={page.expiresAt}
            expiresAtText={page.expiresAtText}
          />
        </>
      )}
      <FormError message={formError} />
      {!page.verified && page.invited ? <InvitedCodeForm /> : null}
      {!page.verified && !page.invited ? (
        // Self-registration: the code and Submit go together.
        <ValidatedForm validator={verificationCodeValidator} method="post" noValidate>
          <CodeField />
          <SubmitButton name="intent" value="register">
            Submit
          </SubmitButton>
        </ValidatedForm>
      ) : null}
      {page.invited ? (
        // A plain form: Submit must reach the server even before the code is verified, to be
        // told to verify first (spec 1 §5.3).
        <Form method="post" className="mt-3">
          <input type="hidden" name="phone" value={page.phone} />
          <button type="submit" name="intent" value="register" className="btn btn-primary">
            Submit
          </button>
        </Form>
      ) : null}
      <div className="d-flex flex-wrap gap-3 mt-3">
        {!page.verified ? (
          <IntentButton intent="resend">Resend Verification code</IntentButton>
        ) : null}
        <IntentButton intent="cancel">Change my details</IntentButton>
      </div>
    </>
  );
}

/**
 * Invited: the code is verified as soon as 4 digits are typed (spec 1 §4.3), then Submit. Without
 * JavaScript the Verify button does it; with JavaScript the button is hidden and typing the 4th
 * digit submits it.
 */
function InvitedCodeForm() {
  const form = useRef<HTMLFormElement>(null);
  const verify = useRef<HTMLButtonElement>(null);
  const hydrated = useHydrated();
  const verifyWhenComplete = (event: FormEvent<HTMLFormElement>) => {
    const input = event.target as HTMLInputElement;
    if (input.name === "code" && /^\d{4}$/.test(input.value.trim())) {
      form.current?.requestSubmit(verify.current);
    }
  };
  return (
    <ValidatedForm
      validator={verificationCodeValidator}
      method="post"
      noValidate
      formRef={form}
      onChange={verifyWhenComplete}
    >
      <CodeField />
      <SubmitButton
        name="intent"
        value="verify"
        className={`btn btn-outline-primary ${hydrated ? "d-none" : ""}`}
        buttonRef={verify}
      >
        Verify
      </SubmitButton>
    </ValidatedForm>
  );
}
