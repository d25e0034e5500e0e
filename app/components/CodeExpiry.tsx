import { useEffect, useState } from "react";

function remaining(expiresAt: string) {
  return Math.max(0, Math.ceil((new Date(expiresAt).getTime() - Date.now()) / 1000));
}

/**
 * States when the code expires. Without JavaScript that is a clock time; with it, a live m:ss
 * countdown that turns into the spec's expired text at 0.
 */
export function CodeExpiry({ expiresAt, expiresAtText }: { expiresAt: string; expiresAtText: string }) {
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    setSeconds(remaining(expiresAt));
    const timer = setInterval(() => setSeconds(remaining(expiresAt)), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);

  if (seconds === null) {
    return (
      <p className="mb-3" data-testid="code-expiry">
        The code is valid for 5 minutes, until {expiresAtText}.
      </p>
    );
  }
  if (seconds === 0) {
    return (
      <p className="mb-3 text-danger" data-testid="code-expiry">
        Your earlier Verification Code has been expired ! Resend Verification code
      </p>
    );
  }
  const m = Math.floor(seconds / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return (
    <p className="mb-3" data-testid="code-expiry">
      The code expires in <span className="fw-semibold" data-testid="countdown">{`${m}:${s}`}</span>
    </p>
  );
}
