// Email through SMTP (DESIGN.md §4): the outbox's email transport when SMTP_URL is set.
// Messages are real MIME emails: always a text part, an HTML alternative when the message has one,
// and attachments. Bodies are never logged here (they may hold sign-in codes).
import nodemailer from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import type { OutgoingMessage, Transport } from "./transport";

/** Where the SMTP server is, for log lines: host and port only, never the credentials. */
export function describeSmtpUrl(smtpUrl: string) {
  try {
    const url = new URL(smtpUrl);
    const port = url.port || (url.protocol === "smtps:" ? "465" : "587");
    return `${url.protocol.replace(/:$/, "").toUpperCase()} at ${url.hostname}:${port}`;
  } catch {
    return "SMTP";
  }
}

/**
 * An outbox transport that sends through the SMTP server at `smtpUrl`
 * (smtp://user:pass@host:587 for STARTTLS, smtps://user:pass@host:465 for implicit TLS).
 */
export function createSmtpTransport(smtpUrl: string, from: string): Transport {
  // Timeouts bound one delivery attempt well inside the outbox's 5-minute "stuck" limit; query
  // parameters in the URL (e.g. ?socketTimeout=120000) override them.
  const mailer = nodemailer.createTransport(
    new SMTPTransport({
      url: smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    }),
  );
  return {
    name: "smtp",
    description: describeSmtpUrl(smtpUrl),
    async send(message: OutgoingMessage) {
      await mailer.sendMail({
        from,
        to: message.to,
        subject: message.subject ?? "",
        text: message.body,
        ...(message.html ? { html: message.html } : {}),
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map((a) => ({
                filename: a.filename,
                content: a.content,
                encoding: "base64",
                contentType: a.contentType,
              })),
            }
          : {}),
      });
    },
  };
}
