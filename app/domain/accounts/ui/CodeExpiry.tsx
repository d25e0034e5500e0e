import { useEffect, useState } from "react";
import { usePageHydrates } from "~/ui/hydration";
import { CODE_EXPIRED_TEXT, formatCountdown, secondsLeft } from "./countdown";

/**
 * States when the code expires (DESIGN.md §4). Without JavaScript that is a clock time, rendered
 * by the server from the loader's text, so the hydrating render is identical. With JavaScript it
 * becomes a live m:ss countdown that turns into the spec's expired text at 0: on a hydrated page
 * React renders it once mounted; a page that does not hydrate (sign-in, forgotten password) loads
 * /js/countdown.js instead.
 */
export function CodeExpiry({
  expiresAt,
  expiresAtText,
}: {
  expiresAt: string;
  expiresAtText: string;
}) {
  const hydrates = usePageHydrates();
  const seconds = useSecondsLeft(expiresAt);
  if (seconds === 0) {
    return (
      <p className="mb-3 text-danger" data-testid="code-expiry">
        {CODE_EXPIRED_TEXT}
      </p>
    );
  }
  return (
    <>
      <p
        className="mb-3"
        data-testid="code-expiry"
        data-expires-at={hydrates ? undefined : expiresAt}
      >
        {seconds === null ? (
          `The code is valid for 5 minutes, until ${expiresAtText}.`
        ) : (
          <>
            The code expires in{" "}
            <span className="fw-semibold" data-testid="countdown">
              {formatCountdown(seconds)}
            </span>
          </>
        )}
      </p>
      {hydrates ? null : <script src="/js/countdown.js" defer />}
    </>
  );
}

/** Seconds left, ticking each second once mounted; null on the server and while hydrating. */
function useSecondsLeft(expiresAt: string) {
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    const deadline = new Date(expiresAt).getTime();
    const tick = () => {
      const left = secondsLeft(deadline);
      setSeconds(left);
      if (left === 0) clearInterval(timer);
    };
    const timer = setInterval(tick, 1000);
    tick();
    return () => clearInterval(timer);
  }, [expiresAt]);
  return seconds;
}
