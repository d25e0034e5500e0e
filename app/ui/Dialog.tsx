// Dialogs addressed by URL (DESIGN.md §4): a page renders <Dialog> when its `?dialog=` parameter
// names it; closing is a link back without that parameter. So dialogs work without JavaScript.
import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useId, type ReactNode } from "react";

/** The current URL without the dialog's parameters (what "close" and "No" lead to). */
export function useCloseHref(params: string[] = ["dialog"]) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  for (const p of params) search.delete(p);
  const text = search.toString();
  return `${location.pathname}${text ? `?${text}` : ""}`;
}

/** The URL of the current page with a dialog (and its parameters) open. */
export function useDialogHref() {
  const location = useLocation();
  return (dialog: string, extra: Record<string, string> = {}) => {
    const search = new URLSearchParams(location.search);
    search.set("dialog", dialog);
    for (const [k, v] of Object.entries(extra)) search.set(k, v);
    return `${location.pathname}?${search.toString()}`;
  };
}

export function Dialog({
  title,
  children,
  closeHref,
  size,
  autoCloseMs,
}: {
  title: string;
  children: ReactNode;
  closeHref: string;
  size?: "lg" | "sm";
  /** With JavaScript the dialog closes itself after this delay (a success message's time). */
  autoCloseMs?: number;
}) {
  const id = useId();
  const navigate = useNavigate();
  useEffect(() => {
    if (autoCloseMs === undefined) return;
    const timer = setTimeout(
      () => navigate(closeHref, { replace: true, preventScrollReset: true }),
      autoCloseMs,
    );
    return () => clearTimeout(timer);
  }, [autoCloseMs, closeHref, navigate]);
  return (
    <>
      <div
        className="modal d-block"
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        tabIndex={-1}
      >
        <div className={`modal-dialog modal-dialog-scrollable ${size ? `modal-${size}` : ""}`}>
          <div className="modal-content">
            <div className="modal-header">
              <h2 className="modal-title h5" id={id}>
                {title}
              </h2>
              <Link to={closeHref} className="btn-close" aria-label="Close" preventScrollReset />
            </div>
            <div className="modal-body">{children}</div>
          </div>
        </div>
      </div>
      <div className="modal-backdrop show" />
    </>
  );
}

/**
 * The spec's Confirmation dialog: a question, Yes (posts `fields` to the page's action) and No
 * (back to the page).
 */
export function ConfirmDialog({
  question,
  fields,
  closeHref,
  title = "Confirmation",
  action,
}: {
  question: ReactNode;
  fields: Record<string, string>;
  closeHref: string;
  title?: string;
  action?: string;
}) {
  return (
    <Dialog title={title} closeHref={closeHref} size="sm">
      <p>{question}</p>
      <div className="d-flex justify-content-end gap-2">
        <Link to={closeHref} className="btn btn-outline-secondary" preventScrollReset>
          No
        </Link>
        <Form method="post" action={action}>
          {Object.entries(fields).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <button type="submit" className="btn btn-primary">
            Yes
          </button>
        </Form>
      </div>
    </Dialog>
  );
}
