import { useLocation } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { snackbarDelay } from "./delays";
import { usePageHydrates } from "./hydration";

export type FlashMessage = {
  kind: "success" | "danger" | "warning" | "info";
  message: string;
  /** Its own delay, when not its screen's. */
  autoHideMs?: number;
};

/**
 * A message from the previous action. Without JavaScript the close box hides it (a CSS checkbox);
 * with JavaScript it also hides itself after its screen's delay (app/ui/delays.ts): React hides it
 * on hydrated pages, /js/flash.js on the pages that do not hydrate (sign-in, forgotten password).
 */
export function Flash({
  flash,
  autoHideMs,
  role = "status",
}: {
  flash?: FlashMessage | null;
  autoHideMs?: number;
  /** "alert" for an error the user should hear at once (a failed save). */
  role?: "status" | "alert";
}) {
  const id = useId();
  const { pathname } = useLocation();
  const hydrates = usePageHydrates();
  const delay = autoHideMs ?? flash?.autoHideMs ?? snackbarDelay(pathname, flash?.kind);
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    setHidden(false);
    if (!flash) return;
    const timer = setTimeout(() => setHidden(true), delay);
    return () => clearTimeout(timer);
  }, [flash, delay]);
  if (!flash || hidden) return null;
  return (
    <>
      <input type="checkbox" id={id} className="flash-toggle d-none" />
      <div
        className={`flash alert alert-${flash.kind} d-flex justify-content-between`}
        role={role}
        data-autohide-ms={hydrates ? undefined : delay}
      >
        <span>{flash.message}</span>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-to-interactive-role -- the label is the close button: it ticks the checkbox that hides the message without JavaScript */}
        <label htmlFor={id} className="btn-close" aria-label="Close" role="button" />
      </div>
      {hydrates ? null : <script src="/js/flash.js" defer />}
    </>
  );
}
