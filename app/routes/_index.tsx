// "/" : the landing page with the two sign-in steps (spec 1 §1, §2.4, §4.1, §8).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { CodeEntry } from "~/domain/accounts/ui/CodeEntry";
import { DecryptLogDialog } from "~/domain/deviceLogs/ui/DecryptLogDialog";
import { Flash } from "~/ui/Flash";
import { FormError, PasswordField, SubmitButton, TextField } from "~/ui/forms";
import { readForm } from "~/lib/formBody.server";
import { formReply, parseForm } from "~/lib/form.server";
import { authenticator, requireAnonymous } from "~/domain/accounts/auth.server";
import { decryptDialogHref } from "~/domain/deviceLogs/decryptDialog";
import { clientIp } from "~/lib/http.server";
import { maskPhone } from "~/domain/roles";
import { formatClockTime } from "~/lib/time";
import { commitSession, flash, getSession, startUserSession } from "~/lib/session.server";
import {
  describeChallenge,
  finishSignIn,
  resendSignInCode,
  SignInError,
} from "~/domain/accounts/signIn.server";
import { loadDecryptDialog } from "~/domain/deviceLogs/deviceLog.server";
import { useRootFlash, type RouteHandle } from "~/ui/rootData";
import {
  codeValidator,
  credentialsSchema,
  credentialsValidator,
} from "~/domain/accounts/signInSchema";
import { verificationCodeSchema } from "~/domain/accounts/schema";

// Measured (docs/performance.md): hydrating this page cost ~117 KB of gzipped JavaScript for a
// two-field form. It works as plain HTML; the code countdown is a small script of its own.
export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Sign in | ARC Connect" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const decrypt = await loadDecryptDialog(new URL(request.url).searchParams);
  const session = await getSession(request);
  const challenge = session.get("challenge");
  const pending = challenge ? await describeChallenge(challenge) : null;
  if (challenge && !pending) {
    session.unset("challenge");
    return data(
      { step: "credentials" as const, decrypt },
      { headers: { "Set-Cookie": await commitSession(session) } },
    );
  }
  if (!pending) return { step: "credentials" as const, decrypt };
  return {
    decrypt,
    step: "code" as const,
    maskedPhone: maskPhone(pending.phone),
    expiresAt: pending.expiresAt.toISOString(),
    expiresAtText: formatClockTime(pending.expiresAt),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  // A copy: the credentials strategy reads the body again.
  const form = await readForm(request.clone());
  const intent = form.get("intent");
  const session = await getSession(request);
  const ip = clientIp(request);
  const withSession = async () => ({ headers: { "Set-Cookie": await commitSession(session) } });

  switch (intent) {
    case "credentials": {
      const result = await parseForm(form, credentialsSchema);
      if (!result.ok) return result.reply;
      try {
        const challenge = await authenticator.authenticate("credentials", request);
        session.set("challenge", challenge);
        return redirect("/", await withSession());
      } catch (error) {
        if (!(error instanceof SignInError)) throw error;
        return formReply({}, result.values, { formError: error.message, status: error.status });
      }
    }
    case "code": {
      const challenge = session.get("challenge");
      if (!challenge) return redirect("/");
      const result = await parseForm(form, verificationCodeSchema);
      if (!result.ok) return result.reply;
      const outcome = await finishSignIn(challenge, result.data.code, ip);
      if (!outcome.ok) {
        if (outcome.restart) {
          session.unset("challenge");
          flash(session, "danger", outcome.message);
          return redirect("/", await withSession());
        }
        return formReply({}, result.values, {
          formError: outcome.message,
          status: outcome.status,
        });
      }
      return redirect(outcome.redirectTo, {
        headers: { "Set-Cookie": await startUserSession(session, outcome.userId) },
      });
    }
    case "resend": {
      const challenge = session.get("challenge");
      if (!challenge) return redirect("/");
      const outcome = await resendSignInCode(challenge, ip);
      flash(session, outcome.ok ? "success" : "danger", outcome.message);
      return redirect("/", await withSession());
    }
    case "cancel": {
      session.unset("challenge");
      return redirect("/", await withSession());
    }
    default:
      throw new Response("Unknown intent", { status: 400 });
  }
}

export default function Landing() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const flashMessage = useRootFlash();
  const formError = actionData && "formError" in actionData ? (actionData.formError ?? null) : null;

  return (
    <main className="public-page d-flex align-items-center py-5">
      <div className="container">
        <div className="row g-4 align-items-center justify-content-center">
          <div className="col-lg-5 text-white">
            <h1 className="display-6 fw-bold">ARC Connect</h1>
            <p className="lead">
              Remote therapy monitoring for respiratory-care clinics and their cough-assist
              patients.
            </p>
            <p>
              Coming soon: the ARC Connect app for patients. Until then, decrypt and analyse a
              cough-device log file online.
            </p>
            <Link to={decryptDialogHref("/")} className="btn btn-light">
              Decrypt Log Files
            </Link>
          </div>
          <div className="col-md-8 col-lg-5">
            <div className="card shadow">
              <div className="card-body p-4">
                <Flash flash={flashMessage} />
                {loaderData.step === "credentials" ? (
                  <CredentialsStep formError={formError} />
                ) : (
                  <CodeStep {...loaderData} formError={formError} />
                )}
              </div>
            </div>
          </div>
        </div>
      </div>
      {loaderData.decrypt ? <DecryptLogDialog data={loaderData.decrypt} origin="/" /> : null}
    </main>
  );
}

function CredentialsStep({ formError }: { formError: string | null }) {
  return (
    <>
      <h2 className="h4 mb-3">Sign in</h2>
      <FormError message={formError} />
      <ValidatedForm validator={credentialsValidator} method="post" noValidate>
        <input type="hidden" name="intent" value="credentials" />
        <TextField name="usernameOrEmail" label="Username or email" autoComplete="username" />
        <PasswordField name="password" label="Password" />
        <div className="d-flex justify-content-between align-items-center">
          <SubmitButton>Next</SubmitButton>
          <Link to="/forgotpassword">Forgot your password?</Link>
        </div>
      </ValidatedForm>
      <p className="mt-3 mb-0">
        Don&apos;t have an account? <Link to="/signup">Sign up</Link>
      </p>
    </>
  );
}

function CodeStep({
  maskedPhone,
  expiresAt,
  expiresAtText,
  formError,
}: {
  maskedPhone: string;
  expiresAt: string;
  expiresAtText: string;
  formError: string | null;
}) {
  return (
    <>
      <h2 className="h4 mb-3">Enter verification code</h2>
      <CodeEntry
        sentTo={maskedPhone}
        expiresAt={expiresAt}
        expiresAtText={expiresAtText}
        formError={formError}
        validator={codeValidator}
        cancelLabel="Sign in with another account"
        action="/?index"
      />
    </>
  );
}
