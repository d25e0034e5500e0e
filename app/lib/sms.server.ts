// Text messages through a provider (DESIGN.md §4). The default provider is the outbox's console
// transport (it prints the message, so a newcomer sees sign-in codes); production configures an HTTP
// provider with SMS_PROVIDER_URL and SMS_PROVIDER_TOKEN. Bodies are never logged here.
import type { OutgoingMessage, Transport } from "./transport";

export const SMS_TIMEOUT_MS = 10_000;

/** Phone numbers are stored as digits with the country code first; providers want E.164. */
export function toE164(phone: string) {
  const digits = phone.replace(/\D/g, "");
  if (!digits) throw new Error("SMS recipient has no digits");
  return `+${digits}`;
}

/**
 * POSTs `{ "to": "+15125550123", "body": "..." }` as JSON to `url` with
 * `Authorization: Bearer <token>`. Any answer other than 2xx, a network error or no answer within
 * 10 s is a failed attempt (the outbox retries it later).
 */
export function httpSmsTransport(url: string, token: string): Transport {
  if (!token) throw new Error("The HTTP SMS provider needs a token (SMS_PROVIDER_TOKEN)");
  const target = new URL(url);
  return {
    name: "http",
    description: `the SMS provider at ${target.host}`,
    async send(message: OutgoingMessage) {
      let response: Response;
      try {
        response = await fetch(target, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({ to: toE164(message.to), body: message.body }),
          signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
          redirect: "error",
        });
      } catch (error) {
        throw new Error(`SMS provider not reached: ${reason(error)}`);
      }
      if (!response.ok) {
        // A short excerpt of the provider's answer helps diagnose; our body is cut out of it in
        // case the provider echoes it.
        let detail = await response.text().catch(() => "");
        if (message.body) detail = detail.split(message.body).join("[message]");
        detail = detail.replace(/\s+/g, " ").trim().slice(0, 200);
        throw new Error(
          `SMS provider answered ${response.status} ${response.statusText}${detail ? `: ${detail}` : ""}`,
        );
      }
      await response.body?.cancel().catch(() => {});
    },
  };
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return `no answer within ${SMS_TIMEOUT_MS / 1000} s`;
  // fetch reports network failures as "fetch failed" with the real reason as the cause
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
