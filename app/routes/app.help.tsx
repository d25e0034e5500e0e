// /app/help, the Help Center (spec 3 §2.11, §5 "Help", §8): care site staff (clinicadmin,
// clinician) write to Customer Service. A valid post stores the message and queues its email
// (domain/help/help.server.ts), then comes back here with the spec's message; a bad one shows the form
// again with what was typed.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLocation } from "@remix-run/react";
import { HelpForm } from "~/domain/help/ui/HelpForm";
import { requireActor } from "~/domain/actor.server";
import { formReply, parseForm, type FormReplyData } from "~/lib/form.server";
import { clientIp } from "~/lib/http.server";
import { logger } from "~/lib/logger.server";
import { SITE_ROLES } from "~/domain/roles";
import { redirectWithFlash } from "~/lib/session.server";
import { sendHelpMessage } from "~/domain/help/help.server";
import type { RouteHandle } from "~/ui/rootData";
import { helpEcho, helpMessages, helpSchema, type HelpFormValues } from "~/domain/help/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Help Center" };
export const meta: MetaFunction = () => [{ title: "Help Center | ARC Connect" }];

const HELP_PATH = "/app/help";
const EMPTY: HelpFormValues = { subject: "", description: "" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireActor(request, SITE_ROLES);
  return null;
}

type ActionData = FormReplyData & { formError?: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const form = await parseForm(request, helpSchema);
  if (!form.ok) return formReply(form.fieldErrors, helpEcho(form.values));
  try {
    await sendHelpMessage(user, form.data, { ip: clientIp(request) });
  } catch (error) {
    // A thrown Response (storage full: 503) is an answer, not a failure of this action.
    if (error instanceof Response) throw error;
    logger.error("help message failed", { error, userId: user.id });
    const repopulateFields = helpEcho(Object.fromEntries(form.form));
    return data<ActionData>(
      { fieldErrors: {}, repopulateFields, formError: helpMessages.failed },
      { status: 500 },
    );
  }
  return redirectWithFlash(request, HELP_PATH, "success", helpMessages.sent);
}

export default function HelpCenter() {
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const location = useLocation();
  return (
    <div className="card">
      <div className="card-body">
        <h2 className="h5">Contact Customer Service</h2>
        <p className="text-muted">
          Your message goes to Customer Service with your name, email and phone number, so that they
          can get back to you.
        </p>
        <HelpForm
          // A new answer or the page after a sent message re-creates the form with its values.
          key={`${location.key}:${JSON.stringify(actionData ?? null)}`}
          values={actionData ? helpEcho(actionData.repopulateFields) : EMPTY}
          errors={actionData?.fieldErrors}
          formError={actionData?.formError}
        />
      </div>
    </div>
  );
}
