// The log file decryption dialog (spec 3 §2.8) of the landing page and the Patients page. Without
// JavaScript it is a plain multipart form and a result view reached by redirect; public/js/
// decrypt-upload.js adds the name check and metadata before the upload, real upload progress,
// the cycling loading messages and the slow notice.
import { Form, Link } from "@remix-run/react";
import { Dialog, useCloseHref } from "~/ui/Dialog";
import { DateInput } from "~/ui/forms";
import {
  CSV_ACTION,
  DECRYPT_DIALOG,
  uploadAction,
  type DialogOrigin,
} from "~/domain/deviceLogs/decryptDialog";
import type { DecryptDialogData } from "~/domain/deviceLogs/deviceLog.server";
import { INVALID_FILE_NAME } from "~/domain/deviceLogs/messages";

export const LOADING_MESSAGES = [
  "Uploading the log file…",
  "Decrypting the records…",
  "Reading therapies and cycles…",
  "Preparing the summary…",
];
export const SLOW_MESSAGE = "Please Wait it's taking longer than exepected";

const DIALOG_PARAMS = ["dialog", "log", "error", "from", "to", "back"];

export function DecryptLogDialog({
  data,
  origin,
  closeHref,
}: {
  data: DecryptDialogData;
  origin: DialogOrigin;
  /** Where closing leads; the page without the dialog's parameters by default. */
  closeHref?: string;
}) {
  const pageHref = useCloseHref(DIALOG_PARAMS);
  return (
    <Dialog title="Decrypt Log File" closeHref={closeHref ?? pageHref} size="lg">
      {data.step === "choose" ? (
        <ChooseStep data={data} origin={origin} />
      ) : (
        <ResultStep data={data} origin={origin} />
      )}
    </Dialog>
  );
}

function ChooseStep({
  data,
  origin,
}: {
  data: Extract<DecryptDialogData, { step: "choose" }>;
  origin: DialogOrigin;
}) {
  return (
    <form
      method="post"
      action={uploadAction(origin)}
      encType="multipart/form-data"
      className="decrypt-upload"
      data-max-bytes={data.maxBytes}
      data-invalid-name={INVALID_FILE_NAME}
      data-loading-messages={JSON.stringify(LOADING_MESSAGES)}
      data-slow-message={SLOW_MESSAGE}
    >
      <p>
        Choose an encrypted BiWaze log file (named like{" "}
        <code>C1234_21112026_093000_system.csv</code>) copied from the device&apos;s USB stick.
      </p>
      {data.error ? (
        <div className="alert alert-danger" role="alert" data-testid="decrypt-error">
          {data.error}
        </div>
      ) : null}
      <div className="alert alert-danger d-none" role="alert" data-role="name-error" />
      <div className="mb-3">
        <label htmlFor="uploaded-csv" className="form-label">
          Log file
        </label>
        <input
          id="uploaded-csv"
          name="uploaded-csv"
          type="file"
          accept=".csv"
          required
          className="form-control"
        />
      </div>
      <dl className="row small d-none" data-role="metadata" />
      <div className="progress mb-2 d-none" data-role="progress">
        <div
          className="progress-bar"
          role="progressbar"
          aria-label="Upload progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={0}
        />
      </div>
      <p className="small text-muted mb-2" data-role="status" aria-live="polite">
        Large logs take a while: the file is decrypted as it arrives. Keep this page open.
      </p>
      <div className="d-flex justify-content-end gap-2">
        <button type="submit" className="btn btn-primary" data-role="submit">
          Upload and decrypt
        </button>
        {/* Hidden until the upload script sets its href to the decrypted log. */}
        {/* eslint-disable-next-line jsx-a11y/anchor-is-valid */}
        <a href="#" className="btn btn-success d-none" data-role="proceed">
          Proceed
        </a>
      </div>
      <script src="/js/decrypt-upload.js" defer />
    </form>
  );
}

function ResultStep({
  data,
  origin,
}: {
  data: Extract<DecryptDialogData, { step: "result" }>;
  origin: DialogOrigin;
}) {
  const { file } = data;
  const facts: [string, string | number | null][] = [
    ["File name", file.fileName],
    ["Device ID", file.deviceId],
    ["Device type", file.deviceType === "cough" ? "Cough" : "Clear"],
    ["Date", file.date],
    ["Time", file.time],
    ["Size", `${file.sizeKB.toFixed(2)} KB`],
    ["Estimated processing time", `${file.estimatedSeconds.toFixed(1)} s`],
    ["First therapy", file.startDate ?? "N/A"],
    ["Last therapy", file.endDate ?? "N/A"],
    ["Logs from", file.logsFrom ?? "N/A"],
    ["Logs to", file.logsTo ?? "N/A"],
  ];
  return (
    <div data-testid="decrypt-result">
      <div className="alert alert-success" role="status">
        The log file was decrypted. It stays here for 24 hours after upload, for whoever holds this
        page&apos;s link.
      </div>
      {data.dateNote ? (
        <div className="alert alert-warning" role="alert">
          {data.dateNote}
        </div>
      ) : null}
      <dl className="row small">
        {facts.map(([label, value]) => (
          <div key={label} className="col-sm-6 d-flex gap-2">
            <dt className="fw-semibold">{label}</dt>
            <dd className="mb-1">{value}</dd>
          </div>
        ))}
      </dl>
      {/* One form for both: Apply shows the range here; Download CSV Report sends the dates as
          typed to /decrypt/csv, which answers the file or, refusing them, comes back here with
          the dates kept and the message under them. A document submission, so the CSV downloads
          and the page stays. */}
      <Form
        method="get"
        action={origin}
        className="mb-3"
        id="decrypt-range"
        reloadDocument
        noValidate
      >
        <input type="hidden" name="dialog" value={DECRYPT_DIALOG} />
        <input type="hidden" name="log" value={file.uuid} />
        <input type="hidden" name="back" value={origin} />
        <div className="row g-2 align-items-end">
          <div className="col-sm">
            <DateInput name="from" label="From" value={data.range.from} error={data.errors.from} />
          </div>
          <div className="col-sm">
            <DateInput name="to" label="To" value={data.range.to} error={data.errors.to} />
          </div>
          <div className="col-auto">
            <button type="submit" className="btn btn-outline-primary">
              Apply
            </button>
          </div>
        </div>
      </Form>
      <div className="d-flex flex-wrap justify-content-end gap-2">
        <button
          type="submit"
          form="decrypt-range"
          formAction={CSV_ACTION}
          name="uuid"
          value={file.uuid}
          className="btn btn-primary"
        >
          Download CSV Report
        </button>
        {file.deviceType === "cough" ? (
          data.dashboardHref ? (
            <Link to={data.dashboardHref} className="btn btn-success" reloadDocument>
              Generate Pdf / Dashboard
            </Link>
          ) : (
            <button type="button" className="btn btn-success" disabled>
              Generate Pdf / Dashboard
            </button>
          )
        ) : null}
      </div>
    </div>
  );
}
