// /app/patients/{patientId}/device: which device the patient has, and pairing or unpairing one by
// serial (DESIGN.md §5). A small page until the patient profile brings it in. Care site staff
// (clinicadmin, clinician; other roles 403) of a care site where the patient is accepted; any other
// patient id answers 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { requireRole } from "~/lib/auth.server";
import { badRequest, clientIp, notFoundUnless } from "~/lib/http.server";
import { SITE_ROLES } from "~/lib/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import { audit } from "~/models/audit.server";
import {
  getCurrentDevice,
  getPairingPatient,
  pairDevice,
  unpairDevice,
} from "~/models/device.server";
import type { RouteHandle } from "~/root";

export { AppErrorBoundary as ErrorBoundary } from "~/components/ErrorPage";

export const handle: RouteHandle = { heading: "Patient device", hydrate: false };
export const meta: MetaFunction = () => [{ title: "Patient device | ARC Connect" }];

export const pairingMessages = {
  serialRequired: "Enter the device serial.",
  noDevice: "No device with this serial.",
  paired: "Device paired.",
  unpaired: "Device unpaired.",
} as const;

async function guard(request: Request, patientId: string | undefined) {
  const user = await requireRole(request, SITE_ROLES);
  const patient = notFoundUnless(await getPairingPatient(user, patientId ?? ""));
  // The care site the pairing is made for: the one chosen in the session when the patient is
  // there too, else the first (by name) the two share.
  const session = await getSession(request);
  const chosen = session.get("careSiteId");
  const careSite = patient.careSites.find((c) => c.id === chosen) ?? patient.careSites[0];
  return { user, patient, careSite, session };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, patient, careSite } = await guard(request, params.patientId);
  const current = await getCurrentDevice(patient.id);
  await audit({
    actorId: user.id,
    action: "patient.device_viewed",
    targetType: "User",
    targetId: patient.id,
    careSiteId: careSite.id,
    ip: clientIp(request),
  });
  const when = (instant: Date) =>
    format(new TZDate(instant, careSite.timeZone), "dd MMM yyyy, HH:mm (zzz)");
  return {
    patient: { id: patient.id, firstName: patient.firstName, lastName: patient.lastName },
    device: current
      ? {
          serial: current.serial,
          type: current.type,
          pairedSince: when(current.pairedAt),
          lastSeen: current.lastSeenAt ? when(current.lastSeenAt) : null,
        }
      : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, patient, careSite, session } = await guard(request, params.patientId);
  const form = await request.formData().catch(() => badRequest());
  const intent = form.get("intent");
  const done = async (message: string) => {
    flash(session, "success", message);
    return redirect(`/app/patients/${encodeURIComponent(patient.id)}/device`, {
      headers: { "Set-Cookie": await commitSession(session) },
    });
  };
  if (intent === "pair") {
    const serial = String(form.get("serial") ?? "").trim();
    if (!serial) return data({ serial, error: pairingMessages.serialRequired }, { status: 400 });
    const result = await pairDevice({
      actor: user,
      patientId: patient.id,
      careSiteId: careSite.id,
      serial,
      ip: clientIp(request),
    });
    if (result.status === "noDevice") {
      return data({ serial, error: pairingMessages.noDevice }, { status: 400 });
    }
    return done(pairingMessages.paired);
  }
  if (intent === "unpair") {
    await unpairDevice({ actor: user, patientId: patient.id, ip: clientIp(request) });
    return done(pairingMessages.unpaired);
  }
  badRequest();
}

export default function PatientDevice() {
  const { patient, device } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as
    { serial?: string; error?: string } | undefined;
  const submitting = useNavigation().state === "submitting";
  return (
    <div className="card" style={{ maxWidth: "40rem" }}>
      <div className="card-body">
        <h2 className="h5">
          {patient.firstName} {patient.lastName}
        </h2>
        {device ? (
          <dl className="row mb-3" aria-label="Current device">
            <dt className="col-sm-4">Device serial</dt>
            <dd className="col-sm-8" data-testid="device-serial">
              {device.serial}
            </dd>
            <dt className="col-sm-4">Type</dt>
            <dd className="col-sm-8">{device.type}</dd>
            <dt className="col-sm-4">Paired since</dt>
            <dd className="col-sm-8">{device.pairedSince}</dd>
            <dt className="col-sm-4">Last transmission</dt>
            <dd className="col-sm-8">{device.lastSeen ?? "None yet"}</dd>
          </dl>
        ) : (
          <p className="text-muted" data-testid="no-device">
            No device is paired with this patient.
          </p>
        )}
        {device ? (
          <Form method="post" className="mb-4">
            <button
              type="submit"
              name="intent"
              value="unpair"
              className="btn btn-outline-danger"
              disabled={submitting}
            >
              Unpair
            </button>
          </Form>
        ) : null}
        <Form method="post" noValidate>
          <label htmlFor="device-serial-input" className="form-label">
            {device ? "Pair another device (replaces the current one)" : "Device serial"}
          </label>
          <div className="input-group has-validation">
            <input
              id="device-serial-input"
              name="serial"
              className={`form-control ${actionData?.error ? "is-invalid" : ""}`}
              defaultValue={actionData?.serial ?? ""}
              maxLength={32}
              autoComplete="off"
              aria-invalid={actionData?.error ? true : undefined}
              aria-describedby={actionData?.error ? "device-serial-error" : undefined}
            />
            <button
              type="submit"
              name="intent"
              value="pair"
              className="btn btn-primary"
              disabled={submitting}
            >
              Pair device
            </button>
            {actionData?.error ? (
              <div id="device-serial-error" className="invalid-feedback">
                {actionData.error}
              </div>
            ) : null}
          </div>
        </Form>
      </div>
    </div>
  );
}
