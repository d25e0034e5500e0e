// The code countdown's words and clock (spec 1 §4.1: 300 seconds shown as m:ss), shared by the
// React countdown of hydrated pages (CodeExpiry.tsx) and the script of the others
// (countdown.browser.ts), so both read the same.

export const CODE_EXPIRED_TEXT =
  "Your earlier Verification Code has been expired ! Resend Verification code";

/** Whole seconds left until `expiresAtMs` (never below 0), by this browser's clock. */
export function secondsLeft(expiresAtMs: number, nowMs = Date.now()) {
  return Math.max(0, Math.ceil((expiresAtMs - nowMs) / 1000));
}

/** m:ss, e.g. 4:07. */
export function formatCountdown(seconds: number) {
  const s = seconds % 60;
  return `${Math.floor(seconds / 60)}:${s < 10 ? "0" : ""}${s}`;
}
