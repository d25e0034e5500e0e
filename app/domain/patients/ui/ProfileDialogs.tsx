// The patient profile's dialogs (spec 3 §2.2): Health Summary, Personal Info and Note (goals:
// GoalDialog.tsx; the confirmations: ProfileConfirmations.tsx). Each is a `?dialog=` URL and posts
// a plain form.
import { Form } from "@remix-run/react";
import { Fragment } from "react";
import { Dialog } from "~/ui/Dialog";
import type { ProfileView } from "~/domain/patients/profileView.server";
import { NOTE_MAX } from "~/domain/patients/schema";

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
