// Every email and SMS is written to the outbox table first (DESIGN.md §4), then delivered.
// Delivery is at most once: a message is claimed (status "sending") before it goes out, and a
// message found still "sending" after a crash is marked failed rather than sent twice.
// A failed attempt is recorded on the row (attempts, lastError) and retried after a backoff
// (nextAttemptAt); after MAX_ATTEMPTS failed attempts the message is marked failed.
// Requests never wait for delivery: enqueue returns once the row is written.
import { env } from "./env.server";
import { prisma } from "./db.server";
import { logger } from "./logger.server";
import { createSmtpTransport } from "./mailer.server";
import { httpSmsTransport } from "./sms.server";
import type { Attachment, OutgoingMessage, Transport } from "./transport";

export type { Attachment, OutgoingMessage, Transport } from "./transport";

// Without SMTP or an SMS provider configured, messages are written to the server's console
// (so a newcomer running `npm start` sees the sign-in code) and kept in the outbox table. In a
// deployment (production without DEMO_MODE) the body stays out of the log: emails can name
// patients, and texts hold sign-in codes; the log line says only that a message was not delivered.
export const consoleTransport: Transport = {
  name: "console",
  description: "the console",
  async send(message) {
    if (env.deployed) {
      // No subject either: a Help Center subject is free text staff typed.
      logger.info("outbox message not delivered (no transport configured)", {
        channel: message.channel,
        to: message.to,
      });
      return;
    }
    const subject = message.subject ? ` "${message.subject}"` : "";
    console.log(`[outbox] ${message.channel} to ${message.to}${subject}: ${message.body}`);
  },
};

/** How long to wait after the n-th failed attempt (index n - 1) before trying again. */
export const RETRY_DELAYS_MS = [
  60_000, // 1 min
  5 * 60_000, // 5 min
  15 * 60_000, // 15 min
  60 * 60_000, // 1 h
  3 * 60 * 60_000, // 3 h
];
/** After this many failed attempts a message is marked failed and not tried again. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A message still "sending" this long after it was claimed was interrupted: failed, not resent. */
export const INTERRUPTED_AFTER_MS = 5 * 60_000;
/** A run of deliverPending leaves a channel alone after this many failures in a row. */
const CONSECUTIVE_FAILURES_PER_RUN = 3;

function configuredTransports(): Record<OutgoingMessage["channel"], Transport> {
  if (env.smsProviderUrl && !env.smsProviderToken) {
    throw new Error("SMS_PROVIDER_URL is set but SMS_PROVIDER_TOKEN is not: set both or neither");
  }
  return {
    email: env.smtpUrl ? createSmtpTransport(env.smtpUrl, env.mailFrom) : consoleTransport,
    sms: env.smsProviderUrl
      ? httpSmsTransport(env.smsProviderUrl, env.smsProviderToken!)
      : consoleTransport,
  };
}

const transports = configuredTransports();

/** Replaces a channel's transport (tests). */
export function setTransport(channel: OutgoingMessage["channel"], transport: Transport) {
  transports[channel] = transport;
}

/** One sentence for the startup log: where each channel's messages go. */
export function describeTransports() {
  const { email, sms } = transports;
  // A deployment logs the recipient only (consoleTransport): nothing reaches anyone.
  const printed = env.deployed
    ? "are not delivered (only their recipients are logged)"
    : "are printed here";
  if (email === consoleTransport && sms === consoleTransport) {
    return `No SMTP or SMS provider configured: emails and text messages (sign-in codes too) ${printed} and kept in the outbox table.`;
  }
  const emailText =
    email === consoleTransport
      ? `emails ${printed} (SMTP_URL is not set)`
      : `emails go through ${email.description ?? email.name}`;
  const smsText =
    sms === consoleTransport
      ? `text messages (sign-in codes too) ${printed} (SMS_PROVIDER_URL is not set)`
      : `text messages go to ${sms.description ?? sms.name}`;
  return `Outbox: ${emailText}; ${smsText}. Every message is kept in the outbox table.`;
}

/** True when some channel prints its messages to the console instead of delivering them. */
export function usesConsoleTransport() {
  return transports.email === consoleTransport || transports.sms === consoleTransport;
}

/**
 * The outbox row of a message, for writers that queue inside a transaction of their own (the
 * deliver-outbox job sends it within a minute); enqueue below writes it and sends at once.
 */
export function outboxRow(message: OutgoingMessage) {
  return {
    channel: message.channel,
    to: message.to,
    subject: message.subject,
    body: message.body,
    html: message.html,
    attachments: message.attachments?.length ? JSON.stringify(message.attachments) : null,
    dedupeKey: message.dedupeKey,
  };
}

/** Writes the message to the outbox and returns its id; delivery happens in the background. */
export async function enqueue(message: OutgoingMessage) {
  const row = await prisma.outboxMessage.create({
    data: outboxRow(message),
    select: { id: true },
  });
  // First attempt right away, without holding up the caller; the outbox job retries the rest.
  void deliver(row.id).catch((error) =>
    logger.error("outbox delivery failed", { id: row.id, error: errorText(error) }),
  );
  return row.id;
}

export type DeliveryResult = "sent" | "retry" | "failed" | "skipped";

/**
 * One delivery attempt. "skipped" when the message is not pending or its retry time has not come
 * (someone else claimed it, it was sent, or it is backing off). A transport failure is recorded on
 * the row and logged, not thrown; only database errors throw.
 */
export async function deliver(id: string): Promise<DeliveryResult> {
  const claimedAt = new Date();
  // While a row is "sending", nextAttemptAt holds the time it was claimed.
  const claimed = await prisma.outboxMessage.updateMany({
    where: { id, status: "pending", nextAttemptAt: { lte: claimedAt } },
    data: { status: "sending", attempts: { increment: 1 }, nextAttemptAt: claimedAt },
  });
  if (claimed.count === 0) return "skipped";
  const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
  try {
    const transport = transports[row.channel as OutgoingMessage["channel"]];
    if (!transport) throw new Error(`unknown channel "${row.channel}"`);
    await transport.send({
      channel: row.channel as OutgoingMessage["channel"],
      to: row.to,
      subject: row.subject ?? undefined,
      body: row.body,
      html: row.html ?? undefined,
      attachments: row.attachments ? (JSON.parse(row.attachments) as Attachment[]) : undefined,
    });
  } catch (error) {
    const lastError = errorText(error).slice(0, 1000);
    const giveUp = row.attempts >= MAX_ATTEMPTS;
    const nextAttemptAt = giveUp
      ? claimedAt
      : new Date(Date.now() + RETRY_DELAYS_MS[Math.max(0, row.attempts - 1)]);
    await prisma.outboxMessage.update({
      where: { id },
      data: { status: giveUp ? "failed" : "pending", lastError, nextAttemptAt },
    });
    // Never the body: it may hold a sign-in code.
    const fields = { id, channel: row.channel, attempt: row.attempts, error: lastError };
    if (giveUp) {
      logger.error("outbox delivery failed; giving up", fields);
    } else {
      logger.warn("outbox delivery failed; will retry", {
        ...fields,
        nextAttemptAt: nextAttemptAt.toISOString(),
      });
    }
    return giveUp ? "failed" : "retry";
  }
  await prisma.outboxMessage.update({
    where: { id },
    data: { status: "sent", sentAt: new Date(), lastError: null },
  });
  return "sent";
}

/**
 * The outbox job: marks interrupted deliveries failed (never sent twice), then tries the pending
 * messages whose retry time has come, oldest first.
 */
export async function deliverPending(now = new Date()) {
  const interrupted = await prisma.outboxMessage.findMany({
    where: {
      status: "sending",
      nextAttemptAt: { lt: new Date(now.getTime() - INTERRUPTED_AFTER_MS) },
    },
    select: { id: true },
  });
  if (interrupted.length > 0) {
    await prisma.outboxMessage.updateMany({
      where: { id: { in: interrupted.map((r) => r.id) }, status: "sending" },
      data: { status: "failed", lastError: "interrupted during delivery; not retried" },
    });
    logger.error("outbox deliveries interrupted; marked failed, not retried", {
      ids: interrupted.map((r) => r.id),
    });
  }

  const due = await prisma.outboxMessage.findMany({
    where: { status: "pending", nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    select: { id: true, channel: true },
    take: 100,
  });
  const result = { due: due.length, sent: 0, retry: 0, failed: 0, skipped: 0, postponed: 0 };
  // When a channel's server is down, every attempt would wait for it to time out: after a few
  // failures in a row, the rest of that channel waits for the next run (no attempt is used up).
  const failuresInARow: Record<string, number> = {};
  for (const { id, channel } of due) {
    if ((failuresInARow[channel] ?? 0) >= CONSECUTIVE_FAILURES_PER_RUN) {
      result.postponed++;
      continue;
    }
    try {
      const outcome = await deliver(id);
      result[outcome]++;
      if (outcome === "retry" || outcome === "failed") {
        failuresInARow[channel] = (failuresInARow[channel] ?? 0) + 1;
      } else if (outcome === "sent") {
        failuresInARow[channel] = 0;
      }
    } catch (error) {
      logger.error("outbox delivery failed", { id, error: errorText(error) });
    }
  }
  return { ...result, interrupted: interrupted.length };
}

function errorText(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}

export function listRecentMessages(take = 50) {
  return prisma.outboxMessage.findMany({
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true,
      channel: true,
      to: true,
      subject: true,
      body: true,
      status: true,
      createdAt: true,
    },
  });
}
