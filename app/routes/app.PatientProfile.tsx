// /app/PatientProfile?p=<base64 of {profile_id, clinic_id, pair_id}> (spec 3 §2.1–§2.4): one
// patient's header, adherence, therapy details and trends, goals, notes and downloads. Open to the
// four staff roles within their care sites (domain/actor.server.ts requireProfile); any other
// or malformed `p` is 404. Dialogs are `?dialog=` URLs and every control is a link or a form, so
// the page does not hydrate: its charts are SVG drawn on the server.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  PatientProfilePage,
  type ProfileActionData,
} from "~/components/patient/PatientProfilePage";
import { requireProfile } from "~/domain/actor.server";
import { badRequest, clientIp, forbidden } from "~/lib/http.server";
import { patientProfileHref } from "~/lib/patientProfileLink";
import { isSiteRole } from "~/lib/roles";
import { redirectWithFlash } from "~/lib/session.server";
import type { MeasuringUnit } from "~/lib/units";
import { getCurrentDevice, pairDevice, unpairDevice } from "~/models/device.server";
import {
  addPatientNote,
  auditProfileView,
  setPatientAccountStatus,
  type FoundProfile,
  setTherapyGoal,
  updatePatientTag,
} from "~/models/patientProfile.server";
import { loadProfileView } from "~/models/patientProfileView.server";
import type { RouteHandle } from "~/root";
import {
  goalProblem,
  noteSchema,
  patientTagSchema,
  profileMessages,
  readGoalDraft,
  stepCount,
} from "~/validation/patientProfile";

export { AppErrorBoundary as ErrorBoundary } from "~/components/ErrorPage";

export const handle: RouteHandle = { heading: "Patient Profile", hydrate: false };
export const meta: MetaFunction = () => [{ title: "Patient Profile | ARC Connect" }];

export const pairingMessages = {
  serialRequired: "Enter the device serial.",
  noDevice: "No device with this serial.",
  paired: "Device paired.",
  unpaired: "Device unpaired.",
} as const;

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
  return { view, canPair: isSiteRole(viewer.role) && found.careSite !== null };
}

export async function action({ request }: ActionFunctionArgs) {
  const { viewer, found } = await requireProfile(request);
  const form = await request.formData().catch(() => badRequest());
  const where = { careSiteId: found.careSite?.id, ip: clientIp(request) };
  const url = new URL(request.url);
  url.searchParams.delete("dialog");
  const back = (message: string, kind: "success" | "danger" = "success") =>
    redirectWithFlash(request, `${url.pathname}${url.search}`, kind, message);
  const invalid = (body: ProfileActionData) => data(body, { status: 400 });

  switch (form.get("intent")) {
    case "patientTag": {
      const parsed = patientTagSchema.safeParse(form.get("patientTag"));
      if (!parsed.success) {
        const value = String(form.get("patientTag") ?? "");
        return invalid({ form: "patientTag", value, error: parsed.error.issues[0].message });
      }
      await updatePatientTag(viewer, found.patientId, parsed.data, where);
      return back(profileMessages.patientTagSaved);
    }
    case "activate":
    case "deactivate": {
      const accepted = form.get("intent") === "activate";
      await setPatientAccountStatus(viewer, found.patientId, accepted, where);
      return back(accepted ? profileMessages.activated : profileMessages.deactivated);
    }
    case "note": {
      const parsed = noteSchema.safeParse(form.get("note"));
      if (!parsed.success) {
        const value = String(form.get("note") ?? "");
        return invalid({ form: "note", value, error: parsed.error.issues[0].message });
      }
      await addPatientNote(viewer, found.patientId, parsed.data, where);
      return back(profileMessages.noteSaved);
    }
    case "goal-minus":
    case "goal-plus": {
      // The minus and plus buttons are submit buttons: the dialog comes back with the new count.
      const draft = readGoalDraft(form);
      const count = stepCount(draft.count, form.get("intent") === "goal-plus" ? 1 : -1);
      return data<ProfileActionData>({ form: "goal", goal: { ...draft, count, error: null } });
    }
    case "goal": {
      const draft = readGoalDraft(form);
      const pairingId = await currentPairingId(found);
      const error = pairingId ? goalProblem(draft) : profileMessages.goalNoDevice;
      if (error || !pairingId) return invalid({ form: "goal", goal: { ...draft, error } });
      try {
        await setTherapyGoal(
          viewer,
          {
            patientId: found.patientId,
            pairingId,
            timesPerDay: Number(draft.count),
            days: draft.days,
          },
          where,
        );
      } catch {
        return back(profileMessages.goalFailed, "danger");
      }
      return back(profileMessages.goalSaved);
    }
    case "pair":
    case "unpair": {
      if (!isSiteRole(viewer.role) || !found.careSite) forbidden();
      if (form.get("intent") === "unpair") {
        await unpairDevice({ actor: viewer, patientId: found.patientId, ip: where.ip });
        return toProfile(request, found, null, pairingMessages.unpaired);
      }
      const serial = String(form.get("serial") ?? "").trim();
      if (!serial)
        return invalid({ form: "pair", value: serial, error: pairingMessages.serialRequired });
      const result = await pairDevice({
        actor: viewer,
        patientId: found.patientId,
        careSiteId: found.careSite.id,
        serial,
        ip: where.ip,
      });
      if (result.status === "noDevice") {
        return invalid({ form: "pair", value: serial, error: pairingMessages.noDevice });
      }
      return toProfile(request, found, result.pairingId, pairingMessages.paired);
    }
    default:
      badRequest();
  }
}

/** The pairing a new goal belongs to: the patient's current one (none: no goal can be set). */
async function currentPairingId(found: FoundProfile) {
  return (await getCurrentDevice(found.patientId))?.pairingId ?? null;
}

/** After pairing or unpairing: the profile under its new pair_id. */
function toProfile(request: Request, found: FoundProfile, pairId: string | null, message: string) {
  const href = patientProfileHref({
    profileId: found.patientId,
    clinicId: found.careSite?.id ?? null,
    pairId,
  });
  return redirectWithFlash(request, href, "success", message);
}

export default function PatientProfile() {
  const { view, canPair } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ProfileActionData | undefined;
  return <PatientProfilePage view={view} canPair={canPair} actionData={actionData} />;
}
