// The patient profile's dialogs (spec 3 §2.2): Health Summary, Personal Info, Note and the
// activation confirmation (goals: GoalDialog.tsx). Each is a `?dialog=` URL and posts a plain form;
// the device move confirmation is the answer to a Pair device post instead (nothing moved yet).
// The other confirmations (account off, Unpair device) are in ProfileConfirmations.tsx.
import { Form, Link } from "@remix-run/react";
import { Fragment } from "react";
import { ConfirmDialog, Dialog } from "~/ui/Dialog";
import type { ProfileView } from "~/domain/patients/profileView.server";
import {
  ACCOUNT_CONFIRMED,
  moveDeviceQuestion,
  NOTE_MAX,
  pairingMessages,
  profileMessages,
} from "~/domain/patients/schema";

function Facts({ rows, label }: { rows: [string, string][]; label: string }) {
  return (
    <dl className="row mb-0" aria-label={label}>
      {rows.map(([term, value]) => (
        <Fragment key={term}>
          <dt className="col-5">{term}</dt>
          <dd className="col-7">{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

export function HealthSummaryDialog({ view, closeHref }: { view: ProfileView; closeHref: string }) {
  const h = view.patient.health;
  return (
    <Dialog title="Health Summary" closeHref={closeHref}>
      <Facts
        label="Health Summary"
        rows={[
          ["Height", h.height],
          ["Weight", h.weight],
          ["Gender", h.gender],
          ["Blood type", h.bloodType],
          ["Existing conditions", h.conditions.join(", ") || "-"],
          ["Allergies", h.allergies.join(", ") || "-"],
        ]}
      />
    </Dialog>
  );
}

export function PersonalInfoDialog({ view, closeHref }: { view: ProfileView; closeHref: string }) {
  const p = view.patient.personal;
  return (
    <Dialog title="Personal Info" closeHref={closeHref}>
      <Facts
        label="Personal Info"
        rows={[
          ["Address", p.address.join(", ") || "-"],
          ["Date of birth", p.dateOfBirth],
          ["Phone", p.phone || "-"],
          ["Email", p.email],
        ]}
      />
    </Dialog>
  );
}

export function NoteDialog({
  view,
  closeHref,
  value,
  error,
}: {
  view: ProfileView;
  closeHref: string;
  value?: string;
  error?: string;
}) {
  return (
    <Dialog title="Note" closeHref={closeHref}>
      {view.note ? (
        <figure className="mb-3" aria-label="Latest note">
          <blockquote className="mb-1" style={{ whiteSpace: "pre-wrap" }}>
            {view.note.body}
          </blockquote>
          <figcaption className="small text-muted">
            {view.note.at}
            {view.note.by ? `, ${view.note.by}` : ""}
          </figcaption>
        </figure>
      ) : (
        <p className="text-muted">No notes yet.</p>
      )}
      <Form method="post" preventScrollReset>
        <label htmlFor="note" className="form-label">
          Add a note
        </label>
        <textarea
          id="note"
          name="note"
          rows={4}
          maxLength={NOTE_MAX}
          defaultValue={value}
          className={`form-control ${error ? "is-invalid" : ""}`}
          aria-describedby={error ? "note-error" : undefined}
        />
        {error ? (
          <div id="note-error" className="invalid-feedback">
            {error}
          </div>
        ) : null}
        <button type="submit" name="intent" value="note" className="btn btn-primary mt-3">
          Save
        </button>
      </Form>
    </Dialog>
  );
}

export function ActivateDialog({ closeHref }: { closeHref: string }) {
  return (
    <ConfirmDialog
      question={profileMessages.activateQuestion}
      fields={{ intent: "activate", confirm: ACCOUNT_CONFIRMED }}
      closeHref={closeHref}
    />
  );
}

/**
 * Before a device is taken from another patient of the care site: what will happen, Move device
 * (the same pair post again, with the pairing to end as `confirm`) and Cancel (back to the page).
 */
export function MoveDeviceDialog({
  closeHref,
  serial,
  pairingId,
  fromName,
  toName,
}: {
  closeHref: string;
  serial: string;
  pairingId: string;
  fromName: string;
  toName: string;
}) {
  return (
    <Dialog title={pairingMessages.moveTitle} closeHref={closeHref}>
      <p>{moveDeviceQuestion(serial, fromName, toName)}</p>
      <Form method="post" preventScrollReset className="d-flex justify-content-end gap-2">
        <input type="hidden" name="serial" value={serial} />
        <input type="hidden" name="confirm" value={pairingId} />
        <Link to={closeHref} className="btn btn-outline-secondary" preventScrollReset>
          {pairingMessages.moveCancel}
        </Link>
        <button type="submit" name="intent" value="pair" className="btn btn-primary">
          {pairingMessages.moveConfirm}
        </button>
      </Form>
    </Dialog>
  );
}
