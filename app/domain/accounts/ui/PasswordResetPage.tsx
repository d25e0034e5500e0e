import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ValidatedForm, type Validator } from "remix-validated-form";
import { useRootFlash } from "~/ui/rootData";
import {
  accountMessages,
  forgotByEmailValidator,
  forgotByPhoneValidator,
  resetPasswordValidator,
  verificationCodeValidator,
} from "~/domain/accounts/schema";
import { CodeEntry } from "./CodeEntry";
import { Flash } from "../../../ui/Flash";
import {
  FieldErrorsAlert,
  FormError,
  PasswordField,
  SubmitButton,
  TextField,
} from "../../../ui/forms";
import { PublicPage } from "../../../ui/PublicPage";

type Step =
  | { step: "request" }
  | { step: "code"; sentTo: string; expiresAt: string; expiresAtText: string }
  | { step: "password" }
  | { step: "done" };

/** The page of /restorepasswordwithemail and /restorepasswordwithphone (spec 1 §2.5, §4.2). */
export function PasswordResetPage({ channel }: { channel: "email" | "sms" }) {
  const loaderData = useLoaderData() as Step;
  const actionData = useActionData() as { formError?: string } | undefined;
  const formError = actionData?.formError ?? null;
  const flash = useRootFlash();
  const byEmail = channel === "email";

  if (loaderData.step === "done") {
    return (
      <PublicPage title="Create New Password">
        {/* §8 "Password reset success", then the panel of §2.5. */}
        <p className="alert alert-success" role="status">
          {accountMessages.passwordResetSuccess}
        </p>
        <p className="h5 text-success">{accountMessages.passwordResetDone}</p>
        <Link to="/" className="btn btn-primary">
          Please Login
        </Link>
      </PublicPage>
    );
  }

  return (
    <PublicPage
      title={loaderData.step === "password" ? "Create New Password" : "Forgot your password?"}
    >
      <Flash flash={flash} />
      {loaderData.step === "request" ? (
        <>
          <p>
            {byEmail
              ? "Enter the email address of your account. We will send you a 4-digit code."
              : "Enter the mobile number of your account. We will text you a 4-digit code."}
          </p>
          <FormError message={formError} />
          <ValidatedForm
            validator={
              (byEmail ? forgotByEmailValidator : forgotByPhoneValidator) as Validator<
                Record<string, string>
              >
            }
            method="post"
            noValidate
          >
            <input type="hidden" name="intent" value="request" />
            {byEmail ? (
              <TextField name="email" label="Email" type="email" autoComplete="email" />
            ) : (
              <TextField
                name="phonenumber"
                label="Phone number"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
              />
            )}
            <div className="d-flex justify-content-between align-items-center">
              <SubmitButton>Send code</SubmitButton>
              <Link to="/forgotpassword">
                {byEmail ? "Use my phone instead" : "Use my email instead"}
              </Link>
            </div>
            {/* §5.2: invalid inputs. */}
            <FieldErrorsAlert message={accountMessages.formErrorInputErros} />
          </ValidatedForm>
        </>
      ) : null}
      {loaderData.step === "code" ? (
        <CodeEntry
          sentTo={loaderData.sentTo}
          expiresAt={loaderData.expiresAt}
          expiresAtText={loaderData.expiresAtText}
          formError={formError}
          validator={verificationCodeValidator}
          cancelLabel="Start again"
        />
      ) : null}
      {loaderData.step === "password" ? (
        <>
          <FormError message={formError} />
          <ValidatedForm validator={resetPasswordValidator} method="post" noValidate>
            <input type="hidden" name="intent" value="password" />
            <PasswordField name="password" label="New password" autoComplete="new-password" />
            <PasswordField
              name="confirmPassword"
              label="Confirm password"
              autoComplete="new-password"
              hint="At least 8 characters with an uppercase letter, a lowercase letter, a digit and one of -+_!@#$%^&*.,?"
            />
            <SubmitButton>Save</SubmitButton>
            <FieldErrorsAlert message={accountMessages.formErrorInputErros} />
          </ValidatedForm>
        </>
      ) : null}
      <p className="mt-4 mb-0">
        <Link to="/">Back to sign in</Link>
      </p>
    </PublicPage>
  );
}
