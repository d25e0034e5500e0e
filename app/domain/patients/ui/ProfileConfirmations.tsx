// The profile's confirmations before what a click must not do unasked (issue 22 items 10, 11):
// turning the account off (the spec asks before turning it on: ActivateDialog) and unpairing the
// device. Each is a `?dialog=` URL whose form posts the intent with `confirm`; the action answers
// a post without it with the dialog, so the dialog is the only way through, JavaScript on or off.
import { Form, Link } from "@remix-run/react";
import { ConfirmDialog, Dialog } from "~/ui/Dialog";
import {
  ACCOUNT_CONFIRMED,
  pairingMessages,
  profileMessages,
  unpairDeviceQuestion,
} from "~/domain/patients/schema";

export function DeactivateDialog({ closeHref }: { closeHref: string }) {
  return (
    <ConfirmDialog
      question={profileMessages.deactivateQuestion}
      fields={{ intent: "deactivate", confirm: ACCOUNT_CONFIRMED }}
      closeHref={closeHref}
    />
  );
}

/**
 * Before the patient's device is unpaired: which device, from whom, and what follows; Unpair posts
 * the pairing shown as `confirm` (a device paired since then is asked about again), Cancel goes
 * back to the page.
 */
export function UnpairDialog({
  closeHref,
  serial,
  pairingId,
  patientName,
}: {
  closeHref: string;
  serial: string;
  pairingId: string;
  patientName: string;
}) {
  return (
    <Dialog title={pairingMessages.unpairTitle} closeHref={closeHref}>
      <p>{unpairDeviceQuestion(serial, patientName)}</p>
      <Form method="post" preventScrollReset className="d-flex justify-content-end gap-2">
        <input type="hidden" name="confirm" value={pairingId} />
        <Link to={closeHref} className="btn btn-outline-secondary" preventScrollReset>
          {pairingMessages.unpairCancel}
        </Link>
        <button type="submit" name="intent" value="unpair" className="btn btn-danger">
          {pairingMessages.unpairConfirm}
        </button>
      </Form>
    </Dialog>
  );
}
