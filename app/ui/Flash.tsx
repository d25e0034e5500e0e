import { useEffect, useId, useState } from "react";

export type FlashMessage = { kind: "success" | "danger" | "warning" | "info"; message: string };

/**
 * A message from the previous action. Without JavaScript the close box hides it (a CSS checkbox);
 * with JavaScript it also hides itself after `autoHideMs` (the spec's snackbar delays).
 */
export function Flash({
  flash,
  autoHideMs = 6000,
}: {
  flash?: FlashMessage | null;
  autoHideMs?: number;
}) {
  const id = useId();
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    setHidden(false);
    if (!flash) return;
    const timer = setTimeout(() => setHidden(true), autoHideMs);
    return () => clearTimeout(timer);
  }, [flash, autoHideMs]);
  if (!flash || hidden) return null;
  return (
    <>
      <input type="checkbox" id={id} className="flash-toggle d-none" />
      <div
        className={`flash alert alert-${flash.kind} d-flex justify-content-between`}
        role="status"
      >
        <span>{flash.message}</span>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-to-interactive-role -- the label is the close button: it ticks the checkbox that hides the message without JavaScript */}
        <label htmlFor={id} className="btn-close" aria-label="Close" role="button" />
      </div>
    </>
  );
}
