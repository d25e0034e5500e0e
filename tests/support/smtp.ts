// A real SMTP server on 127.0.0.1 for the email tests (smtp-server receives, mailparser reads).
import net, { type AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { vi } from "vitest";

/** A message as the SMTP server received it. */
export type ReceivedMail = {
  envelope: { from: string | null; to: string[] };
  headers: { from: string; to: string; subject: string };
  /** the top-level content type, e.g. multipart/alternative */
  contentType: string;
  text: string | null;
  html: string | null;
  attachments: { filename?: string; contentType: string; content: Buffer }[];
};

/** Waits until `check` gives a truthy value (asked again every 20 ms; fails after 10 s). */
export function waitFor<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (!value) throw new Error("timed out waiting");
      return value;
    },
    { timeout: 10_000, interval: 20 },
  );
}

/**
 * Starts the server (a free port unless one is given). `receivedMail(match)` waits until a message
 * matching `match` has arrived. `delayMs` holds each message's final answer back (a slow server).
 */
export async function startSmtpServer(options: { port?: number; delayMs?: number } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const envelope = {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        to: session.envelope.rcptTo.map((r) => r.address),
      };
      simpleParser(stream)
        .then((mail) => {
          const address = (a: typeof mail.to) =>
            Array.isArray(a) ? a.map((x) => x.text).join(", ") : (a?.text ?? "");
          const contentType = mail.headers.get("content-type") as { value: string } | undefined;
          setTimeout(() => {
            received.push({
              envelope,
              headers: {
                from: mail.from?.text ?? "",
                to: address(mail.to),
                subject: mail.subject ?? "",
              },
              contentType: contentType?.value ?? "text/plain",
              text: mail.text ?? null,
              html: mail.html || null,
              attachments: mail.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: a.content,
              })),
            });
            callback();
          }, options.delayMs ?? 0);
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    receivedMail(match: (mail: ReceivedMail) => boolean) {
      return waitFor(() => received.find(match));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: a mail (or SMS) server that is down. */
export async function closedPort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
