/**
 * States when the code expires. Without JavaScript that is a clock time; public/js/countdown.js
 * turns it into a live m:ss countdown that becomes the spec's expired text at 0. The sign-in page
 * does not hydrate (it gains nothing else from React), so this small script is all it loads.
 */
export function CodeExpiry({
  expiresAt,
  expiresAtText,
}: {
  expiresAt: string;
  expiresAtText: string;
}) {
  return (
    <>
      <p
        className="mb-3"
        data-testid="code-expiry"
        data-expires-at={expiresAt}
        data-expired-text="Your earlier Verification Code has been expired ! Resend Verification code"
      >
        The code is valid for 5 minutes, until {expiresAtText}.
      </p>
      <script src="/js/countdown.js" defer />
    </>
  );
}
