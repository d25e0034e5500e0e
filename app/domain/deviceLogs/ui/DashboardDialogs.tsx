// The dashboard's dialogs (?dialog=summary|preview|help|annotate) and its annotation form, which
// the graph also shows inline. A refused annotation (the action's reply, formId "annotate") opens
// its dialog again with the message and what was typed.
import { Form, Link } from "@remix-run/react";
import type { FormReplyData } from "~/lib/form.server";
import { Dialog } from "~/ui/Dialog";
import { ANNOTATION_MAX, ZOOM_MIN, ZOOM_STEP } from "../dashboard";
import { ANNOTATION_FORM } from "../schema";
import type { ViewProps } from "./TherapyTable";

/** The action's 400 reply (lib/form.server formReply), when the last post was refused. */
export type DashboardReply = FormReplyData;

export function Dialogs({ view, href, reply }: ViewProps & { reply?: DashboardReply }) {
  const close = href({ dialog: null, item: null, zoom: null, x: null, y: null });
  const refused = reply?.formId === ANNOTATION_FORM ? reply : null;
  if (refused || view.annotate) {
    const typed = refused
      ? {
          x: String(refused.repopulateFields.x ?? ""),
          y: String(refused.repopulateFields.y ?? ""),
          text: String(refused.repopulateFields.text ?? ""),
        }
      : { ...view.annotate!, text: "" };
    return (
      <Dialog title="Add Annotation" closeHref={close} size="sm">
        <AnnotationForm
          x={typed.x}
          y={typed.y}
          text={typed.text}
          points={Math.max(view.graph.points, 1)}
          error={refused?.fieldErrors.text ?? null}
        />
      </Dialog>
    );
  }
  switch (view.dialog) {
    case "summary":
      return (
        <Dialog title="Therapy Summary" closeHref={close}>
          {view.summary.totalTherapies === 0 ? (
            <p>No summary data available.</p>
          ) : (
            <table className="table table-sm" data-testid="summary-table">
              <tbody>
                {view.summaryRows.map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row" className="fw-normal">
                      {label}
                    </th>
                    <td className="text-end">{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Dialog>
      );
    case "preview":
      return view.preview ? (
        <Dialog title="Image Viewer" closeHref={close} size="lg">
          <p className="small">{view.preview.caption}</p>
          <div className="image-viewer overflow-auto border">
            <div
              style={{ transform: `scale(${view.preview.zoom})`, transformOrigin: "0 0" }}
              dangerouslySetInnerHTML={{ __html: view.preview.svg }}
            />
          </div>
          <div className="d-flex gap-2 mt-2">
            <Link
              to={href({ zoom: String(Math.round((view.preview.zoom + ZOOM_STEP) * 10) / 10) })}
              className="btn btn-outline-secondary btn-sm"
              preventScrollReset
            >
              Zoom In
            </Link>
            {view.preview.zoom > ZOOM_MIN ? (
              <Link
                to={href({ zoom: String(Math.round((view.preview.zoom - ZOOM_STEP) * 10) / 10) })}
                className="btn btn-outline-secondary btn-sm"
                preventScrollReset
              >
                Zoom Out
              </Link>
            ) : (
              <button type="button" className="btn btn-outline-secondary btn-sm" disabled>
                Zoom Out
              </button>
            )}
            <Link to={close} className="btn btn-secondary btn-sm ms-auto">
              Close
            </Link>
          </div>
        </Dialog>
      ) : null;
    case "help":
      return (
        <Dialog title="How to use" closeHref={close}>
          <ol>
            <li>The logo takes you back to the start page.</li>
            <li>Choose From and To within the log&apos;s therapy dates and Apply.</li>
            <li>
              In the Therapy Table, tick therapies and Update selection to show only those on the
              graph; open a row for its pressures and durations.
            </li>
            <li>
              The graph shows each cycle: set pressures as bars, peak inspiratory pressure markers,
              peak expiratory flow and expiratory volume lines. Right-click a point (or use the Add
              Annotation form) to write a note on it.
            </li>
            <li>Add Graph to Report keeps what the graph shows now.</li>
            <li>Generate Report lists the kept graphs; Download makes the PDF.</li>
          </ol>
          <button type="button" className="btn btn-primary btn-sm d-none" data-role="start-tour">
            Start the guided tour
          </button>
        </Dialog>
      );
    default:
      return null;
  }
}

export function AnnotationForm({
  x,
  y,
  text,
  points,
  error,
  compact,
}: {
  x: string;
  y: string;
  text: string;
  points: number;
  error: string | null;
  compact?: boolean;
}) {
  if (points === 0) return null;
  return (
    <Form
      method="post"
      className={
        compact ? "d-flex flex-wrap align-items-end gap-2 mt-2 annotation-form" : "annotation-form"
      }
      aria-label="Add Annotation"
    >
      <input type="hidden" name="intent" value="annotate" />
      {compact ? <span className="small fw-semibold">Add Annotation</span> : null}
      <div>
        <label className="form-label small mb-0" htmlFor={`ann-x-${compact ? "c" : "d"}`}>
          Position x (point)
        </label>
        <input
          id={`ann-x-${compact ? "c" : "d"}`}
          type="number"
          name="x"
          min={1}
          max={points}
          step={1}
          required
          defaultValue={x}
          className="form-control form-control-sm"
        />
      </div>
      <div>
        <label className="form-label small mb-0" htmlFor={`ann-y-${compact ? "c" : "d"}`}>
          Position y (cm H2O)
        </label>
        <input
          id={`ann-y-${compact ? "c" : "d"}`}
          type="number"
          name="y"
          min={-90}
          max={90}
          step="any"
          required
          defaultValue={y}
          className="form-control form-control-sm"
        />
      </div>
      <div className="flex-grow-1">
        <label className="form-label small mb-0" htmlFor={`ann-text-${compact ? "c" : "d"}`}>
          Text
        </label>
        <input
          id={`ann-text-${compact ? "c" : "d"}`}
          type="text"
          name="text"
          maxLength={ANNOTATION_MAX}
          defaultValue={text}
          className={`form-control form-control-sm${error ? " is-invalid" : ""}`}
          data-role="annotation-text"
        />
        {error ? <div className="invalid-feedback d-block">{error}</div> : null}
      </div>
      <button type="submit" className="btn btn-sm btn-primary" data-role="annotation-add">
        Add
      </button>
    </Form>
  );
}
