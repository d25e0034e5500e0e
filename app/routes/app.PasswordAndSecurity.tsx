// /app/PasswordAndSecurity, heading Settings (spec 1 §2.6, §4.4, §5.4): one panel at a time.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  ContactPanel,
  PANEL_BUTTONS,
  PasswordPanel,
  UnitsPanel,
} from "~/domain/accounts/ui/SecurityPanels";
import { readForm } from "~/lib/formBody.server";
import { formReply, parseForm } from "~/lib/form.server";
import { requireRole } from "~/domain/accounts/auth.server";
import { clientIp, forbidden } from "~/lib/http.server";
import { STAFF_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import {
  changePassword,
  confirmPassword,
  contactStep,
  finishContactChange,
  isConfirmed,
  isSecurityPanel,
  panelsFor,
  resendContactCode,
  setMeasuringUnit,
  startContactChange,
  type SecurityPanel,
} from "~/domain/accounts/security.server";
import type { RouteHandle } from "~/ui/rootData";
import {
  changeEmailSchema,
  changePasswordSchema,
  changePhoneSchema,
  confirmCurrentPasswordSchema,
  measuringUnitsSchema,
  securityCodeSchema,
  updatedSuccessfully,
} from "~/domain/accounts/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Settings" };
export const meta: MetaFunction = () => [{ title: "Settings | ARC Connect" }];

const THING: Record<SecurityPanel, string> = {
  email: "email address",
  phone: "phone number",
  password: "password",
  units: "measuring units",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, STAFF_ROLES);
  const panels = panelsFor(user.role);
  const asked = new URL(request.url).searchParams.get("panel");
  const panel = isSecurityPanel(asked) && panels.includes(asked) ? asked : null;
  const session = await getSession(request);
  const step = await contactStep(panel, session.get("security"));
  return { panels, panel, contactStep: step, measuringUnit: user.measuringUnit };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, STAFF_ROLES);
  const form = await readForm(request);
  const panel = form.get("panel");
  if (!isSecurityPanel(panel)) throw new Response("Unknown panel", { status: 400 });
  if (!panelsFor(user.role).includes(panel)) forbidden();
  const session = await getSession(request);
  const ip = clientIp(request);
  const back = async () =>
    redirect(`/app/PasswordAndSecurity?panel=${panel}`, {
      headers: { "Set-Cookie": await commitSession(session) },
    });
  const done = async () => {
    session.unset("security");
    flash(session, "success", updatedSuccessfully(THING[panel]));
    return back();
  };
  // The values stay in their boxes (the passwords excepted) under the message.
  const refused = (outcome: { message: string; status?: number }) =>
    formReply({}, Object.fromEntries(form), {
      formError: outcome.message,
      status: outcome.status ?? 400,
    });
  const security = session.get("security");
  const contact = panel === "email" || panel === "phone" ? panel : null;
  const confirmed = isConfirmed(security, panel);

  switch (form.get("intent")) {
    case "confirm": {
      const result = await parseForm(form, confirmCurrentPasswordSchema);
      if (!result.ok) return result.reply;
      const outcome = await confirmPassword(user.id, result.data.currentPassword);
      if (!outcome.ok) return refused(outcome);
      session.set("security", { panel, confirmedAt: Date.now() });
      return back();
    }
    case "newValue": {
      if (!confirmed || !contact) return back();
      const result =
        contact === "email"
          ? await parseForm(form, changeEmailSchema)
          : await parseForm(form, changePhoneSchema);
      if (!result.ok) return result.reply;
      const value = "newEmail" in result.data ? result.data.newEmail : result.data.newPhone;
      const outcome = await startContactChange(user.id, contact, value);
      if (!outcome.ok) return refused(outcome);
      session.set("security", { ...security!, codeId: outcome.codeId });
      return back();
    }
    case "code": {
      if (!confirmed || !security?.codeId || !contact) return back();
      const result = await parseForm(form, securityCodeSchema);
      if (!result.ok) return result.reply;
      const { code } = result.data;
      const outcome = await finishContactChange(user.id, contact, security.codeId, code, ip);
      if (!outcome.ok) return refused(outcome);
      return done();
    }
    case "resend": {
      if (!confirmed || !security?.codeId || !contact) return back();
      const outcome = await resendContactCode(user.id, contact, security.codeId);
      flash(session, outcome.ok ? "success" : "danger", outcome.message);
      return back();
    }
    case "password": {
      const result = await parseForm(form, changePasswordSchema);
      if (!result.ok) return result.reply;
      const { oldPassword, newPassword } = result.data;
      const outcome = await changePassword(user.id, session.id, oldPassword, newPassword, ip);
      if (!outcome.ok) return refused(outcome);
      return done();
    }
    case "units": {
      const result = await parseForm(form, measuringUnitsSchema);
      if (!result.ok) return result.reply;
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
              {PANEL_BUTTONS[p]}
            </Link>
          ))}
        </nav>
        {panel === null ? (
          <p className="text-muted mb-0">Choose what you would like to change.</p>
        ) : null}
        {panel === "email" || panel === "phone" ? (
          <ContactPanel panel={panel} step={contactStep} formError={formError} />
        ) : null}
        {panel === "password" ? <PasswordPanel formError={formError} /> : null}
        {panel === "units" ? <UnitsPanel measuringUnit={measuringUnit} /> : null}
      </div>
    </div>
  );
}
