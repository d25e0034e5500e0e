// The Help Center (spec 3 §2.11, §7.7): care site staff write to Customer Service. The message is
// stored, its email to CUSTOMER_SERVICE_EMAIL queued in the outbox and the audit event written in
// one transaction, so a request is never stored without its email, nor emailed without a trace.
import { mayAskForHelp, memberCareSites, type Actor } from "~/domain/access.server";
import { readWriteTransaction } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { outboxRow, type OutgoingMessage } from "~/lib/outbox.server";
import { ROLE_NAMES } from "~/domain/roles";
import { audit } from "~/domain/audit.server";
import { formatPhone } from "~/domain/patients/schema";
import type { HelpInput } from "~/domain/help/schema";

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
 * Stores a help request from the actor (clinicadmin or clinician; access.server.ts mayAskForHelp,
 * checked by the route's guard) and queues its email to Customer Service; the outbox's job
 * delivers it. The email names the care sites the actor holds now (none for a removed member).
 * Returns the message's id, or null (nothing stored) for an actor who may not write.
 */
export async function sendHelpMessage(
  user: Actor,
  input: HelpInput,
  options: { ip?: string | null } = {},
) {
  if (!mayAskForHelp(user)) return null;
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
      },
    });
    const sites = await tx.careSite.findMany({
      where: memberCareSites(user),
      select: { name: true },
      orderBy: { name: "asc" },
    });
    const sender: Sender = { ...found, careSites: sites.map((s) => s.name) };
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
