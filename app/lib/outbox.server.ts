// Every email and SMS is written to the outbox table first (DESIGN.md §4), then delivered.
// Delivery is at most once: a message is claimed (status "sending") before it goes out, and a
// message found still "sending" after a crash is marked failed rather than sent twice.
import { prisma } from "./db.server";
import { logger } from "./logger.server";

export type OutgoingMessage = {
  channel: "email" | "sms";
  to: string;
  subject?: string;
  body: string;
  html?: string;
  dedupeKey?: string;
};

export interface Transport {
  name: string;
  send(message: OutgoingMessage): Promise<void>;
}

// Without SMTP or an SMS provider configured, messages are written to the server's console
// (so a newcomer running `npm start` sees the sign-in code) and kept in the outbox table.
export const consoleTransport: Transport = {
  name: "console",
  async send(message) {
    const subject = message.subject ? ` "${message.subject}"` : "";
    console.log(`[outbox] ${message.channel} to ${message.to}${subject}: ${message.body}`);
  },
};

const transports: Record<OutgoingMessage["channel"], Transport> = {
  email: consoleTransport,
  sms: consoleTransport,
};

export function setTransport(channel: OutgoingMessage["channel"], transport: Transport) {
  transports[channel] = transport;
}

export async function enqueue(message: OutgoingMessage) {
  const row = await prisma.outboxMessage.create({
    data: {
      channel: message.channel,
      to: message.to,
      subject: message.subject,
      body: message.body,
      html: message.html,
      dedupeKey: message.dedupeKey,
    },
    select: { id: true },
  });
  // Deliver right away; the outbox job retries whatever is left pending.
  void deliver(row.id).catch((error) => logger.error("outbox delivery failed", { error }));
  return row.id;
}

export async function deliver(id: string) {
  const claimed = await prisma.outboxMessage.updateMany({
    where: { id, status: "pending" },
    data: { status: "sending", attempts: { increment: 1 } },
  });
  if (claimed.count === 0) return;
  const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
  const message: OutgoingMessage = {
    channel: row.channel as OutgoingMessage["channel"],
    to: row.to,
    subject: row.subject ?? undefined,
    body: row.body,
    html: row.html ?? undefined,
  };
  try {
    await transports[message.channel].send(message);
    await prisma.outboxMessage.update({
      where: { id },
      data: { status: "sent", sentAt: new Date(), lastError: null },
    });
  } catch (error) {
    const lastError = error instanceof Error ? error.message : String(error);
    await prisma.outboxMessage.update({
      where: { id },
      data: { status: row.attempts >= 5 ? "failed" : "pending", lastError },
    });
    throw error;
  }
}

/** Sends what is still pending; marks interrupted deliveries failed (never sent twice). */
export async function deliverPending() {
  await prisma.outboxMessage.updateMany({
    where: { status: "sending", createdAt: { lt: new Date(Date.now() - 5 * 60_000) } },
    data: { status: "failed", lastError: "interrupted during delivery; not retried" },
  });
  const pending = await prisma.outboxMessage.findMany({
    where: { status: "pending" },
    orderBy: { createdAt: "asc" },
    select: { id: true },
    take: 100,
  });
  let sent = 0;
  for (const { id } of pending) {
    try {
      await deliver(id);
      sent++;
    } catch {
      // recorded on the row; the next run tries again
    }
  }
  return { sent, pending: pending.length };
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
