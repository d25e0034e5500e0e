// The profile's header (spec 3 §2.2): photo, name, status and care site, the editable Patient Id,
// the device serial with Pair and Unpair device, the account switch and the dialog buttons.
import { Form, Link } from "@remix-run/react";
import { useDialogHref } from "~/ui/Dialog";
import type { ProfileView } from "~/domain/patients/profileView.server";
import { PATIENT_TAG_MAX, pairingMessages } from "~/domain/patients/schema";

/** A field of a form that came back refused: the value to show again and its message. */
export type FieldReply = { value?: string; error?: string };

export function ProfileHeader({
  view,
  canPair,
  canUnpair,
  tag,
  pair,
}: {
  view: ProfileView;
  canPair: boolean;
  /** The patient's device was paired where the viewer is staff (or the patient has none). */
  canUnpair: boolean;
  tag: FieldReply;
  pair: FieldReply;
}) {
  const dialogHref = useDialogHref();
  const p = view.patient;
  return (
    <section className="card mb-3" aria-label="Patient">
      <div className="card-body d-flex flex-wrap gap-4 align-items-start">
        <img src={p.photoUrl} alt="" width={96} height={96} className="rounded-circle" />
        <div className="flex-grow-1">
          <h2 className="h4 mb-1" data-testid="patient-name">
            {p.firstName} {p.lastName}
          </h2>
          <p className="mb-2">
            Status: <strong data-testid="patient-status">{p.statusText}</strong>
            {view.careSite ? <span className="text-muted"> · {view.careSite.name}</span> : null}
          </p>
          <Form method="post" className="d-flex gap-2 align-items-start mb-2" preventScrollReset>
            <div>
              <label htmlFor="patientTag" className="form-label small mb-0">
                Patient Id
              </label>
              <input
                id="patientTag"
                name="patientTag"
                defaultValue={tag.value ?? p.patientTag}
                maxLength={PATIENT_TAG_MAX + 10}
                className={`form-control form-control-sm ${tag.error ? "is-invalid" : ""}`}
                aria-describedby={tag.error ? "patientTag-error" : undefined}
              />
              {tag.error ? (
                <div id="patientTag-error" className="invalid-feedback">
                  {tag.error}
                </div>
              ) : null}
            </div>
            <button
              type="submit"
              name="intent"
              value="patientTag"
              className="btn btn-sm btn-outline-primary mt-3"
            >
              Save
            </button>
          </Form>
          <p className="mb-2">
            Device serial:{" "}
            <strong data-testid="device-serial">{p.deviceSerial ?? "No device"}</strong>
          </p>
          {canPair && p.deviceSerial && !canUnpair ? (
            <p className="small text-muted mb-2" data-testid="paired-elsewhere">
              {pairingMessages.pairedElsewhere}
            </p>
          ) : canPair ? (
            p.deviceSerial ? (
              // Asks first (ProfileConfirmations.tsx UnpairDialog).
              <Link
                to={dialogHref("unpair")}
                className="btn btn-sm btn-outline-danger mb-2"
                preventScrollReset
              >
                Unpair device
              </Link>
            ) : (
              <Form
                method="post"
                className="d-flex gap-2 align-items-start mb-2"
                preventScrollReset
              >
                <div>
                  <label htmlFor="serial" className="visually-hidden">
                    Device serial
                  </label>
                  <input
                    id="serial"
                    name="serial"
                    placeholder="Device serial"
                    defaultValue={pair.value}
                    className={`form-control form-control-sm ${pair.error ? "is-invalid" : ""}`}
                  />
                  {pair.error ? <div className="invalid-feedback">{pair.error}</div> : null}
                </div>
                <button
                  type="submit"
                  name="intent"
                  value="pair"
                  className="btn btn-sm btn-outline-primary"
                >
                  Pair device
                </button>
              </Form>
            )
          ) : null}
        </div>
        <div className="d-flex flex-column gap-2">
          <div>
            {/* Both ways ask first: ProfileConfirmations.tsx and ProfileDialogs.tsx. */}
            {p.accepted ? (
              <Link
                to={dialogHref("deactivate")}
                role="switch"
                aria-checked="true"
                className="btn btn-sm btn-success"
                preventScrollReset
              >
                Account on
              </Link>
            ) : (
              <Link
                to={dialogHref("activate")}
                role="switch"
                aria-checked="false"
                className="btn btn-sm btn-outline-secondary"
                preventScrollReset
              >
                Account off
              </Link>
            )}
          </div>
          <Link
            to={dialogHref("health")}
            className="btn btn-sm btn-outline-primary"
            preventScrollReset
          >
            Health Summary
          </Link>
          <Link
            to={dialogHref("personal")}
            className="btn btn-sm btn-outline-primary"
            preventScrollReset
          >
            Personal Info
          </Link>
          <Link
            to={dialogHref("note")}
            className="btn btn-sm btn-outline-primary"
            preventScrollReset
          >
            Note
          </Link>
        </div>
      </div>
    </section>
  );
}
