// The Help Center (issue 9; spec 3 §2.11, §5 "Help", §8): /app/help through its real loader and
// action on a real SQLite file. A valid post stores the message, queues the email and the audit
// event in one transaction, and the outbox delivers it to a real SMTP server; bad input stores and
// queues nothing; a failing write keeps what was typed; only care site staff get in.
import { afterEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server";
import { DEFAULT_CUSTOMER_SERVICE_EMAIL, env } from "~/lib/env.server";
import { createSmtpTransport } from "~/lib/mailer.server";
import { consoleTransport, deliverPending, setTransport } from "~/lib/outbox.server";
import { sessionStorage } from "~/lib/session.server";
import { action, loader } from "~/routes/app.help";
import {
  HELP_DESCRIPTION_MAX,
  HELP_SUBJECT_MAX,
  helpMessages,
  type HelpFormValues,
} from "~/domain/help/schema";
import { createCareSite, createUser, uid } from "../support/factories";
import { Browser, bodyOf, locationOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";
import { startSmtpServer } from "../support/smtp";

const HELP = "/app/help";
const FROM = "ARC Connect <no-reply@arcconnect.example>";

type ActionBody = {
  repopulateFields: HelpFormValues;
  fieldErrors: Record<string, string>;
  formError?: string;
};

async function staffAt(role: "clinicadmin" | "clinician", siteNames: string[] = []) {
  const sites = [];
  for (const name of siteNames) sites.push(await createCareSite(name));
  const user = await createUser({ role, careSites: sites.map((s) => ({ id: s.id })) });
  return { user, sites, browser: await signedInBrowser(user.id) };
}

const post = (browser: Browser, fields: Record<string, string>) =>
  browser.run(action, browser.post(HELP, fields));

async function flashOf(browser: Browser) {
  const session = await sessionStorage.getSession(browser.cookie);
  return session.get("flash");
}

const helpRows = (userId: string) =>
  prisma.helpMessage.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });

/** Help emails queued for a sender, found by the sender's address in the body. */
const queuedFor = (email: string) =>
  prisma.outboxMessage.findMany({
    where: { to: env.customerServiceEmail, body: { contains: email } },
  });

const auditFor = (userId: string) =>
  prisma.auditEvent.findMany({ where: { actorId: userId, action: "help.sent" } });

/** Sends whatever is due until nothing is left (other tests' rows may be due too). */
async function deliverAll() {
  for (let i = 0; i < 10; i++) {
    const r = await deliverPending();
    if (r.due === 0 || r.due === r.skipped) return;
  }
}

afterEach(() => {
  setTransport("email", consoleTransport);
  vi.restoreAllMocks();
});

describe("Help Center", () => {
  it("opens for a clinicadmin and a clinician", async () => {
    for (const role of ["clinicadmin", "clinician"] as const) {
      const { browser } = await staffAt(role);
      expect(statusOf(await browser.run(loader, browser.get(HELP))), role).toBe(200);
    }
  });

  it("emails a valid message to Customer Service through the outbox, and stores it", async () => {
    expect(env.customerServiceEmail).toBe(DEFAULT_CUSTOMER_SERVICE_EMAIL);
    const siteA = uid("Alpha Clinic ");
    const siteB = uid("Beta Clinic ");
    const { user, sites, browser } = await staffAt("clinicadmin", [siteB, siteA]);
    // A care site where the user is blocked is not named.
    const left = await createCareSite(uid("Gone Clinic "));
    await prisma.membership.create({
      data: { careSiteId: left.id, userId: user.id, role: "clinicadmin", status: "blocked" },
    });
    const subject = `Cannot see patient ${uid()}`;
    const description = "The patient list is empty since this morning.\nPlease have a look.";

    const result = await post(browser, { subject: `  ${subject} `, description });
    expect(statusOf(result)).toBe(302);
    expect(locationOf(result)).toBe(HELP);
    expect(await flashOf(browser)).toEqual({ kind: "success", message: helpMessages.sent });

    const rows = await helpRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject, body: description });
    const [queued] = await queuedFor(user.email);
    expect(queued).toMatchObject({ channel: "email", status: "pending" });
    const [event] = await auditFor(user.id);
    expect(event).toMatchObject({ targetType: "HelpMessage", targetId: rows[0].id });
    expect(JSON.parse(event.detail!)).toEqual({ to: DEFAULT_CUSTOMER_SERVICE_EMAIL });

    const smtp = await startSmtpServer();
    setTransport("email", createSmtpTransport(smtp.url, FROM));
    try {
      await deliverAll();
      const mail = await smtp.receivedMail((m) => m.text?.includes(user.email) ?? false);
      expect(mail.envelope.to).toEqual([DEFAULT_CUSTOMER_SERVICE_EMAIL]);
      expect(mail.headers.to).toBe(DEFAULT_CUSTOMER_SERVICE_EMAIL);
      expect(mail.headers.subject).toBe(`ARC Connect help request: ${subject}`);
      const text = mail.text!;
      expect(text).toContain(`From: ${user.firstName} ${user.lastName} (${user.username})`);
      expect(text).toContain("Role: Care Site Admin");
      expect(text).toContain(`Email: ${user.email}`);
      expect(text).toContain(`Phone: +1 (${user.phone.slice(1, 4)}) ${user.phone.slice(4, 7)}-`);
      // Accepted care sites, by name; not the blocked one.
      expect(text).toContain(`Care sites: ${[sites[1].name, sites[0].name].join(", ")}`);
      expect(text).not.toContain(left.name);
      expect(text).toContain(`Subject: ${subject}`);
      expect(text).toContain(`Description:\n${description}`);
      const sent = await prisma.outboxMessage.findUniqueOrThrow({ where: { id: queued.id } });
      expect(sent.status).toBe("sent");
    } finally {
      await smtp.close();
    }
  });

  it("refuses blank fields with their messages, keeps what was typed, stores and queues nothing", async () => {
    const { user, browser } = await staffAt("clinician");
    const posts: Record<string, string>[] = [
      { subject: "", description: "" },
      { subject: "   ", description: " \r\n " },
      {},
    ];
    for (const fields of posts) {
      const result = await post(browser, fields);
      expect(statusOf(result)).toBe(400);
      const body = await bodyOf<ActionBody>(result);
      expect(body.fieldErrors).toEqual({
        subject: helpMessages.subjectRequired,
        description: helpMessages.descriptionRequired,
      });
    }
    const one = await bodyOf<ActionBody>(
      await post(browser, { subject: "Printer", description: "" }),
    );
    expect(one.fieldErrors).toEqual({ description: helpMessages.descriptionRequired });
    expect(one.repopulateFields).toEqual({ subject: "Printer", description: "" });
    const other = await bodyOf<ActionBody>(
      await post(browser, { subject: "", description: "It jams" }),
    );
    expect(other.fieldErrors).toEqual({ subject: helpMessages.subjectRequired });
    expect(other.repopulateFields).toEqual({ subject: "", description: "It jams" });

    expect(await helpRows(user.id)).toHaveLength(0);
    expect(await queuedFor(user.email)).toHaveLength(0);
    expect(await auditFor(user.id)).toHaveLength(0);
    expect(await flashOf(browser)).toBeUndefined();
  });

  it("refuses a subject over 50 and a description over 300 characters", async () => {
    const { user, browser } = await staffAt("clinicadmin");
    const subject = "s".repeat(HELP_SUBJECT_MAX + 1);
    const description = "d".repeat(HELP_DESCRIPTION_MAX + 1);
    const result = await post(browser, { subject, description });
    expect(statusOf(result)).toBe(400);
    const body = await bodyOf<ActionBody>(result);
    expect(body.fieldErrors).toEqual({
      subject: "Subject must be at most 50 characters",
      description: "Description must be at most 300 characters",
    });
    expect(body.repopulateFields).toEqual({ subject, description });
    expect(await helpRows(user.id)).toHaveLength(0);
    expect(await queuedFor(user.email)).toHaveLength(0);

    // Exactly at the limits is fine; a line break counts once, as the browser counts it, though
    // it is posted as CRLF.
    const atLimit = "a".repeat(149) + "\r\n" + "b".repeat(150);
    const ok = await post(browser, { subject: "s".repeat(HELP_SUBJECT_MAX), description: atLimit });
    expect(statusOf(ok)).toBe(302);
    const [row] = await helpRows(user.id);
    expect(row.body).toBe("a".repeat(149) + "\n" + "b".repeat(150));
    expect(row.body).toHaveLength(HELP_DESCRIPTION_MAX);
  });

  it("a failing write is logged, stores and queues nothing, and keeps what was typed", async () => {
    const { user, browser } = await staffAt("clinician");
    const marker = uid("fail");
    // A real failure inside the transaction, after the help message row was written.
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER "help_test_${marker}" BEFORE INSERT ON "OutboxMessage"
       WHEN NEW.subject LIKE '%${marker}%' BEGIN SELECT RAISE(ABORT, 'outbox is down'); END`,
    );
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const fields = { subject: `Help ${marker}`, description: "Line one\nLine two" };
      const result = await post(browser, fields);
      expect(statusOf(result)).toBe(500);
      expect(await bodyOf<ActionBody>(result)).toEqual({
        fieldErrors: {},
        repopulateFields: fields,
        formError: "Something went wrong. Try again later.",
      });
      expect(logged.mock.calls.some(([line]) => String(line).includes("help message failed"))).toBe(
        true,
      );
      expect(await helpRows(user.id)).toHaveLength(0);
      expect(await queuedFor(user.email)).toHaveLength(0);
      expect(await auditFor(user.id)).toHaveLength(0);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER "help_test_${marker}"`);
    }
  });

  it("answers 403 to the provider's admins and patients, read or posted", async () => {
    for (const role of ["superadmin", "abmadmin", "patient"]) {
      const user = await createUser({ role });
      const browser = await signedInBrowser(user.id);
      expect(statusOf(await browser.run(loader, browser.get(HELP))), role).toBe(403);
      const posted = await post(browser, { subject: "Hello", description: "Let me in" });
      expect(statusOf(posted), role).toBe(403);
      expect(await helpRows(user.id)).toHaveLength(0);
    }
  });

  it("sends a signed-out visitor to /", async () => {
    const browser = new Browser();
    const read = await browser.run(loader, browser.get(HELP));
    expect(statusOf(read)).toBe(302);
    expect(locationOf(read)).toBe("/");
    const posted = await post(browser, { subject: "Hello", description: "Anyone?" });
    expect(statusOf(posted)).toBe(302);
    expect(locationOf(posted)).toBe("/");
  });
});
