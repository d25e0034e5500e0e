// /app/notificationsettings?p=<base64 of {"clinicId": …}>: a care site's notification settings
// (spec 2 "Notification settings", §3-§8). Without p: the care site kept in the session, else the
// user's first. A p naming a care site the user is not accepted at answers 404.
// Posts (one form, see domain/notifications/ui/NotificationSettingsForm.tsx): intent addRecipient
// and a removeRecipient button re-render the form from what was posted; intent save validates and
// stores, then goes to the summary with the spec's message, or stays on "Nochange". Only a
// clinicadmin of the care site may post (a clinician gets 403).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { CareSiteDetailsCard } from "~/domain/careSites/ui/CareSiteDetails";
import { NotificationSettingsForm } from "~/domain/notifications/ui/NotificationSettingsForm";
import { rememberCareSite, requireActor } from "~/domain/actor.server";
import { readForm } from "~/lib/formBody.server";
import { badRequest, clientIp, forbidden, notFoundUnless } from "~/lib/http.server";
import { logger } from "~/lib/logger.server";
import { photoUrl } from "~/lib/photoUrl";
import { SITE_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import { getManagedCareSite } from "~/domain/careSites/management.server";
import {
  notificationSettingsFor,
  saveNotificationSettings,
  type NotificationSettings,
} from "~/domain/notifications/settings.server";
import type { RouteHandle } from "~/ui/rootData";
import {
  addRecipient,
  notificationFormErrors,
  notificationMessages,
  notificationSettingsSchema,
  readNotificationForm,
  readNotificationSettingsParam,
  removeRecipient,
  THRESHOLD_SUGGESTION,
  type NotificationFormErrors,
  type NotificationFormValues,
} from "~/domain/notifications/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Notifications" };
export const meta: MetaFunction = () => [{ title: "Notifications | ARC Connect" }];

const SUMMARY_PATH = "/app/notificationSummary";

/** The stored settings as the form shows them; an OFF threshold offers its usual value. */
function formValuesOf(settings: NotificationSettings): NotificationFormValues {
  return {
    days: settings.days,
    recipients: settings.recipients,
    newRecipient: "",
    adherenceOn: settings.adherence > 0,
    adherence: String(settings.adherence || THRESHOLD_SUGGESTION.adherence),
    spo2On: settings.spo2 > 0,
    spo2: String(settings.spo2 || THRESHOLD_SUGGESTION.spo2),
    therapyAdjustment: settings.therapyAdjustment,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const p = new URL(request.url).searchParams.get("p");
  const careSiteId =
    p !== null ? notFoundUnless(readNotificationSettingsParam(p)) : user.currentCareSiteId;
  if (!careSiteId) return { page: null };
  const site = notFoundUnless(await getManagedCareSite(user, careSiteId));
  const settings = notFoundUnless(await notificationSettingsFor(user, site.id));
  const { siteRole: _siteRole, canEdit, photoId, ...details } = site;
  return {
    page: {
      site: { ...details, pictureUrl: photoUrl(photoId) },
      canEdit,
      values: formValuesOf(settings),
    },
  };
}

type ActionData = {
  values: NotificationFormValues;
  errors?: NotificationFormErrors;
  formError?: string;
  formInfo?: string;
};

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const form = await readForm(request);
  const careSiteId = form.get("careSiteId");
  const site = notFoundUnless(
    typeof careSiteId === "string" && careSiteId
      ? await getManagedCareSite(user, careSiteId)
      : null,
  );
  if (!site.canEdit) forbidden();
  const values = readNotificationForm(form);
  const reply = (body: ActionData, status = 200) => data(body, { status });

  const removed = form.get("removeRecipient");
  if (typeof removed === "string") return reply({ values: removeRecipient(values, removed) });
  const intent = form.get("intent");
  if (intent === "addRecipient") {
    const added = addRecipient(values);
    if (added.error) return reply({ values, errors: { newRecipient: added.error } }, 400);
    return reply({ values: added.values });
  }
  if (intent !== "save") badRequest("Unknown intent");

  // An address typed but not yet added is saved with the rest, once it passes the pattern.
  const added = addRecipient(values);
  if (added.error) return reply({ values, errors: { newRecipient: added.error } }, 400);
  const parsed = notificationSettingsSchema.safeParse(added.values);
  if (!parsed.success) {
    return reply({ values: added.values, errors: notificationFormErrors(parsed.error) }, 400);
  }
  let outcome: Awaited<ReturnType<typeof saveNotificationSettings>>;
  try {
    outcome = await saveNotificationSettings(user, site.id, parsed.data, { ip: clientIp(request) });
  } catch (error) {
    // A thrown Response (storage full: 503) is an answer, not a failure of this action.
    if (error instanceof Response) throw error;
    logger.error("notification settings save failed", { error, careSiteId: site.id });
    return reply({ values: added.values, formError: notificationMessages.failed }, 500);
  }
  if (outcome.status === "forbidden") forbidden();
  if (outcome.status === "unchanged") {
    return reply({ values: added.values, formInfo: notificationMessages.unchanged });
  }
  // The summary shows the care site just saved.
  const session = await getSession(request);
  rememberCareSite(session, user, site.id);
  flash(session, "success", notificationMessages.saved);
  return redirect(SUMMARY_PATH, { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function NotificationSettingsPage() {
  const { page } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  // One message object per answer (its identity restarts the message's timer).
  const message = useMemo(
    () =>
      actionData?.formError
        ? { kind: "danger" as const, message: actionData.formError }
        : actionData?.formInfo
          ? { kind: "info" as const, message: actionData.formInfo }
          : null,
    [actionData],
  );
  if (!page) return <p className="card card-body">No clinic found</p>;
  const values = actionData?.values ?? page.values;
  return (
    <div className="d-grid gap-3">
      <NotificationSettingsForm
        // A new answer re-creates the form, so its uncontrolled inputs show the answer's values.
        key={JSON.stringify(actionData ?? null)}
        careSiteId={page.site.id}
        careSiteName={page.site.name}
        values={values}
        errors={actionData?.errors}
        message={message}
        canEdit={page.canEdit}
      />
      <CareSiteDetailsCard site={page.site} />
    </div>
  );
}
