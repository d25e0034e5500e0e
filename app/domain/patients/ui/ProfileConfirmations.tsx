// The profile's confirmations before what a click must not do unasked (spec 3 §2.2, issue 22
// items 5, 10, 11): turning the account on or off, moving a device from another patient, and
// unpairing the device. Each form posts its intent with `confirm` (the account switch: "1"; the
// device posts: the pairing shown, so a device paired since then is asked about again); the
// action answers a post without it with the dialog, JavaScript on or off.
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmDialog, Dialog } from "~/ui/Dialog";
import {
  ACCOUNT_CONFIRMED,
  moveDeviceQuestion,
  pairingMessages,
  profileMessages,
  unpairDeviceQuestion,
} from "~/domain/patients/schema";

/** 'Activate the account' / 'Deactivate the account', Yes and No. */
export function AccountDialog({
  intent,
  closeHref,
}: {
  intent: "activate" | "deactivate";
  closeHref: string;
}) {
  const question =
    intent === "activate" ? profileMessages.activateQuestion : profileMessages.deactivateQuestion;
  return (
    <ConfirmDialog
      question={question}
      fields={{ intent, confirm: ACCOUNT_CONFIRMED }}
      closeHref={closeHref}
    />
  );
}

/** Before a device is taken from another patient of the care site: Move device or Cancel. */
export function MoveDeviceDialog(props: {
  closeHref: string;
  serial: string;
  pairingId: string;
  fromName: string;
  toName: string;
}) {
  const { closeHref, serial, pairingId, fromName, toName } = props;
  return (
    <DeviceDialog
      title={pairingMessages.moveTitle}
      question={moveDeviceQuestion(serial, fromName, toName)}
      closeHref={closeHref}
      fields={{ serial, confirm: pairingId }}
      cancel={pairingMessages.moveCancel}
      submit={{ intent: "pair", label: pairingMessages.moveConfirm, className: "btn-primary" }}
    />
  );
}

/** Before the patient's device is unpaired: which device, from whom, and what follows. */
export function UnpairDialog(props: {
  closeHref: string;
  serial: string;
  pairingId: string;
  patientName: string;
}) {
  const { closeHref, serial, pairingId, patientName } = props;
  return (
    <DeviceDialog
      title={pairingMessages.unpairTitle}
      question={unpairDeviceQuestion(serial, patientName)}
      closeHref={closeHref}
      fields={{ confirm: pairingId }}
      cancel={pairingMessages.unpairCancel}
      submit={{ intent: "unpair", label: pairingMessages.unpairConfirm, className: "btn-danger" }}
    />
  );
}

function DeviceDialog({
  title,
  question,
  closeHref,
  fields,
  cancel,
  submit,
}: {
  title: string;
  question: ReactNode;
  closeHref: string;
  fields: Record<string, string>;
  cancel: string;
  submit: { intent: string; label: string; className: string };
}) {
  return (
    <Dialog title={title} closeHref={closeHref}>
      <p>{question}</p>
      <Form method="post" preventScrollReset className="d-flex justify-content-end gap-2">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Link to={closeHref} className="btn btn-outline-secondary" preventScrollReset>
          {cancel}
        </Link>
        <button
          type="submit"
          name="intent"
          value={submit.intent}
          className={`btn ${submit.className}`}
        >
          {submit.label}
        </button>
      </Form>
    </Dialog>
  );
}
