// /app/PatientProfile?p=<base64 of {profile_id, clinic_id, pair_id}> (spec 3 §2.1–§2.4): one
// patient's header, adherence, therapy details and trends, goals, notes and downloads. Open to the
// four staff roles within their care sites (domain/actor.server.ts requireProfile); any other
// or malformed `p` is 404. Dialogs are `?dialog=` URLs and every control is a link or a form, so
// the page works without JavaScript; it hydrates for its toasts and live form rules (the goal
// dialog, the range pickers). Its charts are SVG drawn on the server.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  PatientProfilePage,
  type ProfileActionData,
} from "~/domain/patients/ui/PatientProfilePage";
import { mayPairAt, readPairingPowers, type Actor } from "~/domain/access.server";
import { readForm } from "~/lib/formBody.server";
import { formReply, parseForm } from "~/lib/form.server";
import { requireProfile } from "~/domain/actor.server";
import { badRequest, clientIp, forbidden } from "~/lib/http.server";
import { notAssociatedWithDevice, patientProfileHref } from "~/domain/patients/profileLink";
import { redirectWithFlash } from "~/lib/session.server";
import type { MeasuringUnit } from "~/lib/units";
import { getCurrentDevice, pairDevice, unpairDevice } from "~/domain/devices/device.server";
import {
  addPatientNote,
  auditProfileView,
  setPatientAccountStatus,
  type FoundProfile,
  setTherapyGoal,
  updatePatientTag,
} from "~/domain/patients/profile.server";
import { chartsInMarkupOnly, loadProfileView } from "~/domain/patients/profileView.server";
import { isDocumentRequest } from "~/ui/charts/hydration.server";
import type { RouteHandle } from "~/ui/rootData";
import { Flash } from "~/ui/Flash";
import {
  ACCOUNT_CONFIRMED,
  goalDraftSchema,
  goalFormSchema,
  noteFormSchema,
  pairFormSchema,
  pairingMessages,
  patientTagFormSchema,
  profileIntentSchema,
  profileMessages,
  stepCount,
} from "~/domain/patients/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Patient Profile" };
export const meta: MetaFunction = () => [{ title: "Patient Profile | ARC Connect" }];

export { pairingMessages };

export async function loader({ request }: LoaderFunctionArgs) {
  const { viewer, found } = await requireProfile(request);
  const url = new URL(request.url);
  const view = await loadProfileView(
    found,
    viewer.measuringUnit as MeasuringUnit,
    url.searchParams,
  );
  await auditProfileView(viewer, found.patientId, {
    careSiteId: found.careSite?.id,
    ip: clientIp(request),
  });
  const powers = readPairingPowers(viewer, found.patientId, found.careSite?.id);
  // Spec 3 §8: a patient without pair_id, clicked in a list, opens here (where staff pair a
  // device) with "{first} {last} is not associated with any device".
  const notice =
    found.pairId === null && view.pairId === null
      ? notAssociatedWithDevice(view.patient.firstName, view.patient.lastName)
      : null;
  if (isDocumentRequest(request)) chartsInMarkupOnly(view);
  return { view, ...powers, notice };
}

export async function action({ request }: ActionFunctionArgs) {
  const { viewer, found } = await requireProfile(request);
  const form = await readForm(request);
  const button = await parseForm(form, profileIntentSchema);
  if (!button.ok) badRequest();
  const { intent, confirm } = button.data;
  const where = { careSiteId: found.careSite?.id, ip: clientIp(request) };
  const url = new URL(request.url);
  url.searchParams.delete("dialog");
  const back = (message: string, kind: "success" | "danger" = "success") =>
    redirectWithFlash(request, `${url.pathname}${url.search}`, kind, message);

  switch (intent) {
    case "patientTag": {
      const tag = await parseForm(form, patientTagFormSchema);
      if (!tag.ok) return tag.reply;
      await updatePatientTag(viewer, found.patientId, tag.data.patientTag, where);
      return back(profileMessages.patientTagSaved);
    }
    case "activate":
    case "deactivate": {
      // Only the confirmation dialog's Yes carries `confirm`: any other post gets the dialog.
      if (confirm !== ACCOUNT_CONFIRMED) return askFirst(request, intent);
      const accepted = intent === "activate";
      await setPatientAccountStatus(viewer, found.patientId, accepted, where);
      return back(accepted ? profileMessages.activated : profileMessages.deactivated);
    }
    case "note": {
      const note = await parseForm(form, noteFormSchema);
      if (!note.ok) return note.reply;
      await addPatientNote(viewer, found.patientId, note.data.note, where);
      return back(profileMessages.noteSaved);
    }
    case "goal-minus":
    case "goal-plus": {
      // The minus and plus buttons are submit buttons: the dialog comes back with the new count.
      const draft = await parseForm(form, goalDraftSchema);
      if (!draft.ok) return draft.reply;
      const count = stepCount(draft.data.count, intent === "goal-plus" ? 1 : -1);
      return formReply({}, { intent, days: draft.data.days, count }, { status: 200 });
    }
    case "goal": {
      // The goal belongs to the current pairing; without one, the schema refuses every goal.
      const pairingId = (await getCurrentDevice(found.patientId))?.pairingId;
      const goal = await parseForm(form, goalFormSchema[pairingId ? "paired" : "unpaired"]);
      if (!goal.ok) return goal.reply;
      if (!pairingId) badRequest(); // not reached (the unpaired schema never passes)
      const { days, count } = goal.data;
      const input = { patientId: found.patientId, pairingId, timesPerDay: Number(count), days };
      try {
        await setTherapyGoal(viewer, input, where);
      } catch {
        return back(profileMessages.goalFailed, "danger");
      }
      return back(profileMessages.goalSaved);
    }
    case "pair":
    case "unpair":
      return pairing(request, found, viewer, form, intent, confirm);
  }
}

/** The profile with a confirmation dialog open (`?dialog=`): the answer to an unconfirmed post. */
function askFirst(request: Request, dialog: "activate" | "deactivate" | "unpair") {
  const url = new URL(request.url);
  url.searchParams.set("dialog", dialog);
  return redirect(`${url.pathname}${url.search}`);
}

/**
 * Pair device, Move device (pair with `confirm`) and Unpair device (with `confirm`, from its
 * dialog), for the care site's staff.
 */
async function pairing(
  request: Request,
  found: FoundProfile,
  viewer: Actor,
  form: FormData,
  intent: "pair" | "unpair",
  confirm: string | null,
) {
  const careSiteId = found.careSite?.id;
  if (!careSiteId) forbidden();
  if (!mayPairAt(viewer, careSiteId)) forbidden();
  const input = { actor: viewer, patientId: found.patientId, careSiteId, ip: clientIp(request) };
  if (intent === "unpair") {
    const result = await unpairDevice({ ...input, confirm });
    if (result.status === "forbidden") forbidden();
    if (result.status === "confirmUnpair") return askFirst(request, "unpair");
    return toProfile(request, found, null, pairingMessages.unpaired);
  }
  const pair = await parseForm(form, pairFormSchema);
  if (!pair.ok) return pair.reply;
  const { serial } = pair.data;
  const refuse = (message: string) => formReply({ serial: message }, { intent, serial });
  const result = await pairDevice({ ...input, serial, confirm });
  switch (result.status) {
    case "forbidden":
      return forbidden();
    case "noDevice":
      return refuse(pairingMessages.noDevice);
    case "patientPairedElsewhere":
      return refuse(pairingMessages.pairedElsewhere);
    case "patientHasDevice":
      // A page shown before the device was paired: the page again, now showing it.
      return toProfile(
        request,
        found,
        result.pairingId,
        pairingMessages.patientHasDevice,
        "danger",
      );
    case "confirmMove": {
      // Nothing moved yet: the page asks, and Move device posts again with `confirm`.
      const { serial: canonical, pairingId, from } = result;
      const fromName = `${from.firstName} ${from.lastName}`;
      return data<ProfileActionData>({ form: "pairMove", serial: canonical, pairingId, fromName });
    }
    default: {
      const message = result.status === "moved" ? pairingMessages.moved : pairingMessages.paired;
      return toProfile(request, found, result.pairingId, message);
    }
  }
}

/** After pairing or unpairing: the profile under its new pair_id. */
function toProfile(
  request: Request,
  found: FoundProfile,
  pairId: string | null,
  message: string,
  kind: "success" | "danger" = "success",
) {
  const href = patientProfileHref({
    profileId: found.patientId,
    clinicId: found.careSite?.id ?? null,
    pairId,
  });
  return redirectWithFlash(request, href, kind, message);
}

export default function PatientProfile() {
  const { view, canPair, canUnpair, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ProfileActionData | undefined;
  return (
    <>
      <Flash flash={notice ? { kind: "warning", message: notice } : null} />
      <PatientProfilePage
        view={view}
        canPair={canPair}
        canUnpair={canUnpair}
        actionData={actionData}
      />
    </>
  );
}
