// /app/PasswordAndSecurity, heading Settings (spec 1 §2.6, §4.4, §5.4): one panel at a time.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ValidatedForm, validationError } from "remix-validated-form";
import { CodeField, CodeSent } from "~/domain/accounts/ui/CodeEntry";
import { FormError, SubmitButton, TextField } from "~/ui/forms";
import { readForm } from "~/lib/formBody.server";
import { requireRole } from "~/domain/accounts/auth.server";
import { clientIp, forbidden } from "~/lib/http.server";
import { maskPhone, STAFF_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import { formatClockTime } from "~/lib/time";
import {
  changePassword,
  confirmPassword,
  finishContactChange,
  normalizedNewPhone,
  setMeasuringUnit,
  startContactChange,
  type ContactKind,
} from "~/domain/accounts/security.server";
import { getCode } from "~/domain/accounts/oneTimeCode.server";
import type { RouteHandle } from "~/root";
import {
  changeEmailValidator,
  changePasswordValidator,
  changePhoneValidator,
  confirmCurrentPasswordValidator,
  measuringUnitsValidator,
  securityCodeValidator,
  updatedSuccessfully,
} from "~/domain/accounts/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Settings" };
export const meta: MetaFunction = () => [{ title: "Settings | ARC Connect" }];

const PANELS = ["email", "phone", "password", "units"] as const;
type Panel = (typeof PANELS)[number];
const CONFIRMATION_MS = 10 * 60_000;
const THING: Record<Panel, string> = {
  email: "email address",
  phone: "phone number",
  password: "password",
  units: "measuring units",
};

/** spec 1 §2.6: no email, phone or units for superadmin; no units for abmadmin. */
function panelsFor(role: string): Panel[] {
  if (role === "superadmin") return ["password"];
  if (role === "abmadmin") return ["email", "phone", "password"];
  return [...PANELS];
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, STAFF_ROLES);
  const panels = panelsFor(user.role);
  const asked = new URL(request.url).searchParams.get("panel") as Panel | null;
  const panel = asked && panels.includes(asked) ? asked : null;
  const session = await getSession(request);
  const security = session.get("security");
  const state = security?.panel === panel ? security : undefined;

  let contactStep:
    | { step: "confirm" }
    | { step: "new" }
    | { step: "code"; sentTo: string; expiresAt: string; expiresAtText: string } = {
    step: "confirm",
  };
  if (
    (panel === "email" || panel === "phone") &&
    state?.confirmedAt &&
    Date.now() - state.confirmedAt < CONFIRMATION_MS
  ) {
    const code = state.codeId ? await getCode(state.codeId) : null;
    contactStep =
      code && !code.consumedAt
        ? {
            step: "code",
            sentTo: panel === "phone" ? maskPhone(code.destination) : code.destination,
            expiresAt: code.expiresAt.toISOString(),
            expiresAtText: formatClockTime(code.expiresAt),
          }
        : { step: "new" };
  }
  return { panels, panel, contactStep, measuringUnit: user.measuringUnit };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, STAFF_ROLES);
  const form = await readForm(request);
  const panel = String(form.get("panel") ?? "") as Panel;
  if (!PANELS.includes(panel)) throw new Response("Unknown panel", { status: 400 });
  if (!panelsFor(user.role).includes(panel)) forbidden();
  const session = await getSession(request);
  const ip = clientIp(request);
  const here = `/app/PasswordAndSecurity?panel=${panel}`;
  const back = async (to = here) =>
    redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
  const done = async () => {
    session.unset("security");
    flash(session, "success", updatedSuccessfully(THING[panel]));
    return back();
  };
  const security = session.get("security");
  const confirmed =
    security?.panel === panel &&
    security.confirmedAt &&
    Date.now() - security.confirmedAt < CONFIRMATION_MS;

  switch (form.get("intent")) {
    case "confirm": {
      const result = await confirmCurrentPasswordValidator.validate(form);
      if (result.error) return validationError(result.error, result.submittedData);
      const outcome = await confirmPassword(user.id, result.data.currentPassword);
      if (!outcome.ok) return data({ formError: outcome.message }, { status: 400 });
      session.set("security", { panel, confirmedAt: Date.now() });
      return back();
    }
    case "newValue": {
      if (!confirmed || (panel !== "email" && panel !== "phone")) return back();
      const kind: ContactKind = panel;
      let value: string;
      if (kind === "email") {
        const result = await changeEmailValidator.validate(form);
        if (result.error) return validationError(result.error, result.submittedData);
        value = result.data.newEmail;
      } else {
        const result = await changePhoneValidator.validate(form);
        if (result.error) return validationError(result.error, result.submittedData);
        value = normalizedNewPhone(result.data.newPhone);
      }
      const outcome = await startContactChange(user.id, kind, value);
      if (!outcome.ok) return data({ formError: outcome.message }, { status: 400 });
      session.set("security", { ...security!, codeId: outcome.codeId });
      return back();
    }
    case "code": {
      if (!confirmed || !security?.codeId || (panel !== "email" && panel !== "phone"))
        return back();
      const result = await securityCodeValidator.validate(form);
      if (result.error) return validationError(result.error, result.submittedData);
      const outcome = await finishContactChange(
        user.id,
        panel,
        security.codeId,
        result.data.code,
        ip,
      );
      if (!outcome.ok) return data({ formError: outcome.message }, { status: outcome.status });
      return done();
    }
    case "password": {
      const result = await changePasswordValidator.validate(form);
      if (result.error) return validationError(result.error, result.submittedData);
      const outcome = await changePassword(
        user.id,
        session.id,
        result.data.oldPassword,
        result.data.newPassword,
        ip,
      );
      if (!outcome.ok) return data({ formError: outcome.message }, { status: 400 });
      return done();
    }
    case "units": {
      const result = await measuringUnitsValidator.validate(form);
      if (result.error) return validationError(result.error, result.submittedData);
      await setMeasuringUnit(user.id, result.data.mu);
      return done();
    }
    case "cancel": {
      session.unset("security");
      return back();
    }
    default:
      throw new Response("Unknown intent", { status: 400 });
  }
}

const BUTTONS: Record<Panel, string> = {
  email: "Change email address",
  phone: "Change phone number",
  password: "Change password",
  units: "Change Measuring units",
};

export default function PasswordAndSecurity() {
  const { panels, panel, contactStep, measuringUnit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const formError = actionData && "formError" in actionData ? String(actionData.formError) : null;
  return (
    <div className="card">
      <div className="card-body">
        <nav className="d-flex flex-wrap gap-2 mb-4" aria-label="Settings">
          {panels.map((p) => (
            <Link
              key={p}
              to={`?panel=${p}`}
              className={`btn ${p === panel ? "btn-orange" : "btn-outline-secondary"}`}
              aria-current={p === panel ? "page" : undefined}
            >
              {BUTTONS[p]}
            </Link>
          ))}
        </nav>
        {panel === null ? (
          <p className="text-muted mb-0">Choose what you would like to change.</p>
        ) : null}
        {panel === "email" || panel === "phone" ? (
          <ContactPanel panel={panel} step={contactStep} formError={formError} />
        ) : null}
        {panel === "password" ? (
          <section style={{ maxWidth: "28rem" }}>
            <h2 className="h5">Change password</h2>
            <FormError message={formError} />
            <ValidatedForm
              validator={changePasswordValidator}
              method="post"
              noValidate
              resetAfterSubmit
            >
              <input type="hidden" name="panel" value="password" />
              <input type="hidden" name="intent" value="password" />
              <TextField
                name="oldPassword"
                label="Old password"
                type="password"
                autoComplete="current-password"
              />
              <TextField
                name="newPassword"
                label="New password"
                type="password"
                autoComplete="new-password"
              />
              <TextField
                name="confirmPassword"
                label="Confirm new password"
                type="password"
                autoComplete="new-password"
              />
              <SubmitButton>Save</SubmitButton>
            </ValidatedForm>
          </section>
        ) : null}
        {panel === "units" ? (
          <section style={{ maxWidth: "28rem" }}>
            <h2 className="h5">Select the measuring units</h2>
            <Form method="post">
              <input type="hidden" name="panel" value="units" />
              {[
                ["Imperial", "Imperial (ft, lbs)"],
                ["Metric", "Metric (cm, kg)"],
              ].map(([value, label]) => (
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
          </section>
        ) : null}
      </div>
    </div>
  );
}

function ContactPanel({
  panel,
  step,
  formError,
}: {
  panel: "email" | "phone";
  step: ReturnType<typeof useLoaderData<typeof loader>>["contactStep"];
  formError: string | null;
}) {
  const hidden = <input type="hidden" name="panel" value={panel} />;
  return (
    <section style={{ maxWidth: "28rem" }}>
      <h2 className="h5">{BUTTONS[panel]}</h2>
      <FormError message={formError} />
      {step.step === "confirm" ? (
        <ValidatedForm validator={confirmCurrentPasswordValidator} method="post" noValidate>
          {hidden}
          <input type="hidden" name="intent" value="confirm" />
          <TextField
            name="currentPassword"
            label="Current password"
            type="password"
            autoComplete="current-password"
          />
          <SubmitButton>Continue</SubmitButton>
        </ValidatedForm>
      ) : null}
      {step.step === "new" ? (
        panel === "email" ? (
          <ValidatedForm validator={changeEmailValidator} method="post" noValidate>
            {hidden}
            <input type="hidden" name="intent" value="newValue" />
            <TextField
              name="newEmail"
              label="New email address"
              type="email"
              autoComplete="email"
            />
            <SubmitButton>Send code</SubmitButton>
          </ValidatedForm>
        ) : (
          <ValidatedForm validator={changePhoneValidator} method="post" noValidate>
            {hidden}
            <input type="hidden" name="intent" value="newValue" />
            <TextField
              name="newPhone"
              label="New phone number (with country code)"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
            />
            <SubmitButton>Send code</SubmitButton>
          </ValidatedForm>
        )
      ) : null}
      {step.step === "code" ? (
        <>
          <CodeSent
            sentTo={step.sentTo}
            expiresAt={step.expiresAt}
            expiresAtText={step.expiresAtText}
          />
          <ValidatedForm validator={securityCodeValidator} method="post" noValidate>
            {hidden}
            <input type="hidden" name="intent" value="code" />
            <CodeField />
            <SubmitButton>Save</SubmitButton>
          </ValidatedForm>
        </>
      ) : null}
      {step.step !== "confirm" ? (
        <Form method="post" className="mt-2">
          {hidden}
          <button type="submit" name="intent" value="cancel" className="btn btn-link p-0">
            Start again
          </button>
        </Form>
      ) : null}
    </section>
  );
}
