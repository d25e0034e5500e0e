// What the outbox sends and what a transport (SMTP, the SMS provider, the console) does with it:
// the vocabulary outbox.server.ts, mailer.server.ts and sms.server.ts share, so that the outbox
// can pick a transport without the transports importing the outbox back.
export type Attachment = {
  filename: string;
  /** base64 */
  content: string;
  contentType: string;
};

export type OutgoingMessage = {
  channel: "email" | "sms";
  to: string;
  subject?: string;
  /** the text part of an email, or the text message */
  body: string;
  /** an HTML alternative to `body` (email only) */
  html?: string;
  /** email only */
  attachments?: Attachment[];
  dedupeKey?: string;
};

export interface Transport {
  name: string;
  /** for the startup log line, e.g. "SMTP at mail.example.com:587"; never credentials */
  description?: string;
  send(message: OutgoingMessage): Promise<void>;
}
