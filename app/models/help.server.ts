// The Help Center (spec 3 §2.11, §7.7): care site staff write to Customer Service. The message is
// stored, its email to CUSTOMER_SERVICE_EMAIL queued in the outbox and the audit event written in
// one transaction, so a request is never stored without its email, nor emailed without a trace.
import { readWriteTransaction } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { outboxRow, type OutgoingMessage } from "~/lib/outbox.server";
import { ROLE_NAMES } from "~/lib/roles";
import { audit } from "~/models/audit.server";
import { formatPhone } from "~/validation/patientProfile";
import type { HelpInput } from "~/validation/help";

type Sender = {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  phone: string;
  role: string;
  careSites: string[];
};

/** The email Customer Service receives: who wrote, how to reach them, and what they wrote. */
export function helpEmail(to: string, sender: Sender, input: HelpInput): OutgoingMessage {
  const lines = [
    "A help request was sent from the ARC Connect Help Center.",
    "",
    `From: ${sender.firstName} ${sender.lastName} (${sender.username})`,
    `Role: ${ROLE_NAMES[sender.role] ?? sender.role}`,
    `Email: ${sender.email}`,
    `Phone: ${formatPhone(sender.phone)}`,
    `Care sites: ${sender.careSites.length ? sender.careSites.join(", ") : "none"}`,
    "",
    `Subject: ${input.subject}`,
    "",
    "Description:",
    input.description,
  ];
  return {
    channel: "email",
    to,
    // One header line, whatever was pasted into the subject.
    subject: `ARC Connect help request: ${input.subject.replace(/\s+/g, " ")}`,
    body: lines.join("\n"),
  };
}

/**
 * Stores a help request from `user` (clinicadmin or clinician; the route checks the role) and
 * queues its email to Customer Service; the outbox's job delivers it. Returns the message's id.
 */
export async function sendHelpMessage(
  user: { id: string },
  input: HelpInput,
  options: { ip?: string | null } = {},
) {
  const to = env.customerServiceEmail;
  return readWriteTransaction(async (tx) => {
    const found = await tx.user.findUniqueOrThrow({
      where: { id: user.id },
      select: {
        firstName: true,
        lastName: true,
        username: true,
        email: true,
        phone: true,
        role: true,
        memberships: {
          where: { status: "accepted", careSite: { status: "active" } },
          select: { careSite: { select: { name: true } } },
          orderBy: { careSite: { name: "asc" } },
        },
      },
    });
    const { memberships, ...rest } = found;
    const sender: Sender = { ...rest, careSites: memberships.map((m) => m.careSite.name) };
    const message = await tx.helpMessage.create({
      data: { userId: user.id, subject: input.subject, body: input.description },
      select: { id: true },
    });
    await tx.outboxMessage.create({
      data: outboxRow(helpEmail(to, sender, input)),
      select: { id: true },
    });
    // The words themselves stay in HelpMessage; the trail records who wrote and where it went.
    await audit(
      {
        actorId: user.id,
        action: "help.sent",
        targetType: "HelpMessage",
        targetId: message.id,
        ip: options.ip,
        detail: { to },
      },
      tx,
    );
    return { id: message.id };
  });
}
