// The daily notification summary (issue 8 scope 2 and 4) on a real SQLite file, with a fake clock
// (the `now` each run is given), a real SMTP server and the outbox delivering: the 07:00 Chicago
// schedule across both DST changes, weekday selection, the patients known data must give, the
// archive, one email per recipient with the CSV, nothing sent twice (again, concurrently from
// other processes, through the catch-up and through `npm run job`), a failed send retried.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { TZDate } from "@date-fns/tz";
import cron from "node-cron";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { createSmtpTransport } from "~/lib/mailer.server";
import { consoleTransport, deliverPending, setTransport } from "~/lib/outbox.server";
import {
  catchUpDailySummary,
  dailySummaryJob,
  summaryDue,
  summaryRunAt,
} from "~/jobs/dailySummary.server";
import { jobs } from "~/jobs/housekeeping.server";
import { startBackground, stopBackground } from "~/jobs/lifecycle.server";
import {
  notificationSummaryFor,
  runDailySummary,
  summaryDownloadFor,
} from "~/domain/notifications/dailySummary.server";
import {
  archivedSummaryCsv,
  summaryArchive,
  summaryReportName,
  summaryRows,
  type SummaryRow,
} from "~/domain/notifications/summaryRows.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import { readNotificationSettings } from "~/domain/notifications/settings.server";
import { addDays } from "~/domain/adherence/score";
import { transmissionSchema } from "~/domain/devices/schema";
import {
  actorOf,
  createCareSite,
  createPairedPatient,
  createUser,
  uid,
} from "../support/factories";
import { closedPort, startSmtpServer, type ReceivedMail } from "../support/smtp";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";

const ZONE = "America/Chicago";
const FROM = "ARC Connect <no-reply@arcconnect.example>";
const ROOT = path.resolve(__dirname, "..", "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const AVATAR = "/img/default-avatar.svg";

// ---- helpers -------------------------------------------------------------------------------

/** An instant given as a wall-clock time in Chicago. */
function at(day: string, hour: number, minute = 0) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(new TZDate(y, m - 1, d, hour, minute, ZONE).getTime());
}

const RX = STANDARD_PRESCRIPTION;
type Rx = typeof RX;

let eventNo = 0;
/** A completed therapy: SpO2 96 on cycles 1-4 (cycle 1 `low` when given), cycle 5 not measured. */
function therapy(start: Date, options: { rx?: Rx; low?: number; deviates?: boolean } = {}) {
  const rx = options.rx ?? RX;
  return {
    eventId: `E-${++eventNo}`,
    startedAt: start.toISOString(),
    mode: "Auto",
    delivered: {
      P_P: rx.P_P,
      P_T: rx.P_T,
      I_P: options.deviates ? rx.I_P + 5 : rx.I_P,
      I_T: rx.I_T,
      E_P: rx.E_P,
      E_T: rx.E_T,
      O_F: rx.O_F,
    },
    cycles: Array.from({ length: rx.cycles }, (_, i) => ({
      n: i + 1,
      P_IP: 38,
      E_V: 1200,
      P_F: 250,
      SPO2: i === 0 && options.low !== undefined ? options.low : i === rx.cycles - 1 ? null : 96,
      O_F: 1,
    })),
  };
}

async function patientAt(siteId: string, firstName: string, lastName: string, pairedAt: Date) {
  const { patient, device } = await createPairedPatient(siteId, { firstName, lastName, pairedAt });
  const send = (sentAt: Date, therapies: ReturnType<typeof therapy>[], rx: Rx = RX) =>
    ingestTransmission(
      { id: device.id },
      transmissionSchema.parse({
        sentAt: sentAt.toISOString(),
        hmr: 100,
        prescription: rx,
        therapies,
      }),
      { receivedAt: new Date(sentAt.getTime() + 60_000) },
    );
  return { id: patient.id, send };
}

async function careSiteWith(settings: {
  days: string[];
  recipients: string[];
  adherence?: number;
  spo2?: number;
  therapyAdjustment?: boolean;
}) {
  const site = await createCareSite();
  await prisma.notificationSetting.create({
    data: {
      careSiteId: site.id,
      days: settings.days.join(","),
      recipients: settings.recipients.join(","),
      adherenceThreshold: settings.adherence ?? 70,
      spo2Threshold: settings.spo2 ?? 90,
      therapyAdjustment: settings.therapyAdjustment ?? true,
    },
  });
  return site;
}

const email = () => `${uid("rcpt")}@example.test`;
const archived = (careSiteId: string, day: string) =>
  prisma.notificationSummary.findUnique({ where: { careSiteId_day: { careSiteId, day } } });
const summaryEmails = (careSiteId: string) =>
  prisma.outboxMessage.findMany({
    where: { dedupeKey: { startsWith: `summary:${careSiteId}:` } },
    orderBy: { to: "asc" },
  });
/** The summary emails a recipient got for a day (by the attachment's name). */
const mailsFor = (received: ReceivedMail[], to: string, day: string) =>
  received.filter(
    (m) =>
      m.envelope.to.includes(to) &&
      m.attachments.some((a) => a.filename === `${summaryReportName(day)}.csv`),
  );

/** Sends whatever is due until nothing is left (other tests' rows may be due too). */
async function deliverAll() {
  for (let i = 0; i < 10; i++) {
    const r = await deliverPending();
    if (r.due === 0 || r.due === r.skipped) return;
  }
}

// ---- the world: a Friday run (2026-10-16) covering Thursday 2026-10-15 -----------------------

const RUN_DAY = "2026-10-16"; // Friday
const DAY = "2026-10-15";
const WEEK = Array.from({ length: 7 }, (_, i) => addDays(DAY, i - 6));
const PAIRED = at("2026-10-05", 12);
const RX2 = { ...RX, I_P: 42 }; // Dee's clinic changed her protocol on DAY

const world = {
  site: { id: "" },
  other: { id: "" },
  mondays: { id: "" },
  recipients: [email(), email()].sort(),
  otherRecipient: email(),
  mondayRecipient: email(),
  ids: {} as Record<"ada" | "ben" | "cal" | "dee" | "eve", string>,
};

beforeAll(async () => {
  world.site = await careSiteWith({ days: ["monday", "friday"], recipients: world.recipients });
  world.other = await careSiteWith({ days: ["friday"], recipients: [world.otherRecipient] });
  world.mondays = await careSiteWith({ days: ["monday"], recipients: [world.mondayRecipient] });

  const ada = await patientAt(world.site.id, "Ada", "Adams", PAIRED); // 100 %, all fine
  const ben = await patientAt(world.site.id, "Ben", "Baker", PAIRED); // 1 a day: 50 %
  const cal = await patientAt(world.site.id, "Cal", "Clark", PAIRED); // 100 %, SpO2 85 on DAY
  const dee = await patientAt(world.site.id, "Dee", "Davis", PAIRED); // 100 %, protocol changed
  const eve = await patientAt(world.other.id, "Eve", "Evans", PAIRED); // the other site: 50 %, SpO2 80
  world.ids = { ada: ada.id, ben: ben.id, cal: cal.id, dee: dee.id, eve: eve.id };

  for (const day of WEEK) {
    const before = day < DAY;
    await ada.send(at(day, 21), [
      therapy(at(day, 9)),
      // A deviation on another day is not DAY's.
      therapy(at(day, 15), { deviates: day === WEEK[5] }),
    ]);
    await ben.send(at(day, 21), [therapy(at(day, 10), { deviates: day === DAY })]);
    await cal.send(at(day, 23, 45), [
      therapy(at(day, 8)),
      // The day before: a lower reading (80) and a deviation, which are not DAY's. On DAY the
      // lowest reading (85) comes at 23:30 Chicago, 04:30 UTC the next day: still DAY.
      before
        ? therapy(at(day, 18), { low: day === WEEK[5] ? 80 : undefined, deviates: day === WEEK[5] })
        : therapy(at(day, 23, 30), { low: 85 }),
    ]);
    const rx = before ? RX : RX2;
    await dee.send(at(day, 21), [therapy(at(day, 9), { rx }), therapy(at(day, 15), { rx })], rx);
    await eve.send(at(day, 21), [therapy(at(day, 10), { low: day === DAY ? 80 : undefined })]);
  }
  // After midnight in Chicago: the run day's, not DAY's (70 would be the lowest).
  await cal.send(at(RUN_DAY, 1), [therapy(at(RUN_DAY, 0, 30), { low: 70 })]);
});

afterEach(() => {
  setTransport("email", consoleTransport);
  vi.useRealTimers();
});

const row = (
  id: string,
  firstName: string,
  lastName: string,
  values: Pick<SummaryRow, "adherencePercent" | "spo2" | "deviation" | "therapyAdjusted">,
): SummaryRow => ({ patientId: id, firstName, lastName, photoUrl: AVATAR, ...values });

// ---- tests ---------------------------------------------------------------------------------

describe("the schedule: 07:00 America/Chicago on both sides of the DST changes", () => {
  const cases = [
    ["2026-03-07", "2026-03-07T13:00:00.000Z"], // Saturday, CST
    ["2026-03-08", "2026-03-08T12:00:00.000Z"], // DST began at 02:00: CDT
    ["2026-03-09", "2026-03-09T12:00:00.000Z"],
    ["2026-10-31", "2026-10-31T12:00:00.000Z"], // CDT
    ["2026-11-01", "2026-11-01T13:00:00.000Z"], // DST ended at 02:00: CST
    ["2026-11-02", "2026-11-02T13:00:00.000Z"],
  ] as const;

  it("summaryRunAt is 07:00 Chicago: 13:00Z in CST, 12:00Z in CDT", () => {
    for (const [day, instant] of cases) expect(summaryRunAt(day).toISOString()).toBe(instant);
  });

  it("the registered job's cron expression fires at exactly those instants", () => {
    expect(jobs).toContain(dailySummaryJob);
    expect(dailySummaryJob).toMatchObject({ schedule: "0 7 * * *", timeZone: ZONE });
    const task = cron.createTask(dailySummaryJob.schedule, () => {}, {
      timezone: dailySummaryJob.timeZone,
    });
    try {
      for (const [day] of cases) {
        const instant = summaryRunAt(day);
        expect(task.match(instant)).toBe(true);
        for (const offset of [-3_600_000, -60_000, 60_000, 3_600_000]) {
          expect(task.match(new Date(instant.getTime() + offset))).toBe(false);
        }
      }
      // node-cron's own walk to the next runs, from the evening before each change.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-03-07T00:00:00Z"));
      expect(task.getNextRuns(3).map((d) => d.toISOString())).toEqual(
        cases.slice(0, 3).map((c) => c[1]),
      );
      vi.setSystemTime(new Date("2026-10-31T00:00:00Z"));
      expect(task.getNextRuns(3).map((d) => d.toISOString())).toEqual(
        cases.slice(3).map((c) => c[1]),
      );
    } finally {
      vi.useRealTimers();
      void task.destroy();
    }
  });

  it("a missed run is due from 07:00 Chicago on, not before", () => {
    expect(summaryDue(new Date("2026-03-08T11:59:59Z"))).toBe(false); // 06:59 CDT
    expect(summaryDue(new Date("2026-03-08T12:00:00Z"))).toBe(true);
    expect(summaryDue(new Date("2026-03-07T12:30:00Z"))).toBe(false); // 06:30 CST
    expect(summaryDue(new Date("2026-03-07T13:00:00Z"))).toBe(true);
    expect(summaryDue(new Date("2026-11-01T12:30:00Z"))).toBe(false); // 06:30 CST
    expect(summaryDue(new Date("2026-11-01T13:00:00Z"))).toBe(true);
    expect(summaryDue(new Date("2026-10-31T12:00:00Z"))).toBe(true); // 07:00 CDT
    // Late the same day it is still due; after midnight Chicago it is the next day's, not yet.
    expect(summaryDue(new Date("2026-11-02T05:30:00Z"))).toBe(true); // 23:30 CST on Nov 1
    expect(summaryDue(new Date("2026-11-02T06:30:00Z"))).toBe(false); // 00:30 CST on Nov 2
  });
});

describe("the Friday run", () => {
  it("archives exactly the right patients and emails each recipient once, with the CSV and the link", async () => {
    const smtp = await startSmtpServer();
    setTransport("email", createSmtpTransport(smtp.url, FROM));
    try {
      const result = await runDailySummary(summaryRunAt(RUN_DAY));
      expect(result.emails).toBeGreaterThanOrEqual(3);

      const expected = [
        row(world.ids.ben, "Ben", "Baker", {
          adherencePercent: 50,
          spo2: 96,
          deviation: true,
          therapyAdjusted: false,
        }),
        row(world.ids.cal, "Cal", "Clark", {
          adherencePercent: 100,
          spo2: 85,
          deviation: false,
          therapyAdjusted: false,
        }),
        row(world.ids.dee, "Dee", "Davis", {
          adherencePercent: 100,
          spo2: 96,
          deviation: false,
          therapyAdjusted: true,
        }),
      ];
      const csv = [
        `"Last Name","First Name","Adherence %","SpO2","Deviation"`,
        `"Baker","Ben",50,96,"yes"`,
        `"Clark","Cal",100,85,"no"`,
        `"Davis","Dee",100,96,"no"`,
      ].join("\n");
      const stored = await archived(world.site.id, DAY);
      expect(stored).toMatchObject({ rowCount: 3, emails: 2, csv });
      expect(stored!.emailedAt).not.toBeNull();
      expect(JSON.parse(stored!.rows)).toEqual(expected);
      expect(JSON.parse(stored!.settings)).toEqual({
        days: ["monday", "friday"],
        recipients: world.recipients,
        adherence: 70,
        spo2: 90,
        therapyAdjustment: true,
      });
      expect(await archivedSummaryCsv(world.site.id, DAY)).toBe(csv);

      // The other care site lists only its own patient; the Monday-only site has no run.
      expect(JSON.parse((await archived(world.other.id, DAY))!.rows)).toEqual([
        row(world.ids.eve, "Eve", "Evans", {
          adherencePercent: 50,
          spo2: 80,
          deviation: false,
          therapyAdjusted: false,
        }),
      ]);
      expect(await archived(world.mondays.id, DAY)).toBeNull();
      expect(await summaryEmails(world.mondays.id)).toEqual([]);

      const queued = await summaryEmails(world.site.id);
      expect(queued.map((m) => [m.to, m.dedupeKey])).toEqual(
        world.recipients.map((to) => [to, `summary:${world.site.id}:${DAY}:${to}`]),
      );

      await deliverAll();
      for (const to of world.recipients) {
        const mails = mailsFor(smtp.received, to, DAY);
        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail.headers.subject).toBe(
          `ARC Connect notification summary: ${(await prisma.careSite.findUniqueOrThrow({ where: { id: world.site.id } })).name}, 15 Oct 2026`,
        );
        expect(mail.text).toContain(`${env.publicUrl}/app/notificationSummary`);
        expect(mail.text).toContain("3 patients met the notification rules that day.");
        expect(mail.attachments).toHaveLength(1);
        expect(mail.attachments[0]).toMatchObject({
          filename: "Notification_Summary_15_Oct_2026.csv",
          contentType: "text/csv",
        });
        expect(mail.attachments[0].content.toString("utf8")).toBe(csv);
      }
      expect(mailsFor(smtp.received, world.otherRecipient, DAY)).toHaveLength(1);
      for (const m of await summaryEmails(world.site.id)) {
        expect(m).toMatchObject({ status: "sent", attempts: 1, lastError: null });
        expect(m.sentAt).not.toBeNull();
      }

      // Again, later the same day, and through the catch-up: nothing more is queued or sent.
      const again = await runDailySummary(summaryRunAt(RUN_DAY));
      expect(again).toMatchObject({ emails: 0, skipped: again.careSites });
      expect(again.careSites).toBe(result.careSites);
      expect((await runDailySummary(at(RUN_DAY, 18))).emails).toBe(0);
      const caughtUp = await catchUpDailySummary(at(RUN_DAY, 9, 30));
      expect(caughtUp).toMatchObject({ skipped: false, detail: { emails: 0 } });
      await deliverAll();
      for (const to of world.recipients) {
        expect(mailsFor(smtp.received, to, DAY)).toHaveLength(1);
      }
      expect(await summaryEmails(world.site.id)).toHaveLength(2);
    } finally {
      await smtp.close();
    }
  });

  it("lists by the current settings; a threshold of 0 is off; the shown percent is compared", async () => {
    const current = await readNotificationSettings(world.site.id);
    const names = async (change: Partial<typeof current>) =>
      (await summaryRows(world.site.id, DAY, { ...current, ...change })).map((r) => r.firstName);
    expect(await names({})).toEqual(["Ben", "Cal", "Dee"]);
    expect(await names({ adherence: 0, spo2: 0, therapyAdjustment: false })).toEqual([]);
    expect(await names({ spo2: 0, therapyAdjustment: false })).toEqual(["Ben"]);
    expect(await names({ adherence: 0, therapyAdjustment: false })).toEqual(["Cal"]);
    expect(await names({ adherence: 0, spo2: 0 })).toEqual(["Dee"]);
    // Ben is at 50 %, Cal's lowest reading 85: "under" is strict.
    expect(await names({ adherence: 50, spo2: 0, therapyAdjustment: false })).toEqual([]);
    expect(await names({ adherence: 51, spo2: 0, therapyAdjustment: false })).toEqual(["Ben"]);
    expect(await names({ adherence: 0, spo2: 85, therapyAdjustment: false })).toEqual([]);
    expect(await names({ adherence: 0, spo2: 86, therapyAdjustment: false })).toEqual(["Cal"]);
    // Everyone fine under high thresholds, Ada included; never a patient of another site.
    expect(await names({ adherence: 100, spo2: 100 })).toEqual(["Ada", "Ben", "Cal", "Dee"]);

    // Without settings given, the care site's current ones.
    await prisma.notificationSetting.update({
      where: { careSiteId: world.site.id },
      data: { spo2Threshold: 0 },
    });
    try {
      expect((await summaryRows(world.site.id, DAY)).map((r) => r.firstName)).toEqual([
        "Ben",
        "Dee",
      ]);
    } finally {
      await prisma.notificationSetting.update({
        where: { careSiteId: world.site.id },
        data: { spo2Threshold: 90 },
      });
    }
  });

  it("keeps a 14-day archive named Notification_Summary_DD_Mon_YYYY", async () => {
    await runDailySummary(summaryRunAt(RUN_DAY)); // whatever ran before, DAY is archived
    const archive = await summaryArchive(world.site.id, RUN_DAY);
    expect(archive).toHaveLength(14);
    expect(archive[0]).toEqual({
      day: DAY,
      reportName: "Notification_Summary_15_Oct_2026",
      generated: true,
    });
    expect(archive[13]).toMatchObject({
      day: "2026-10-02",
      reportName: "Notification_Summary_02_Oct_2026",
    });
    expect(archive.map((a) => a.day)).toEqual(
      Array.from({ length: 14 }, (_, i) => addDays(RUN_DAY, -(i + 1))),
    );
    expect(await archivedSummaryCsv(world.site.id, "2026-10-14")).toBeNull();
    expect(archive.find((a) => a.day === "2026-10-14")!.generated).toBe(false);
  });
});

describe("the summary screen shows what was sent (issue 21 item 6)", () => {
  const siteAdmin = async () =>
    actorOf(await createUser({ role: "clinicadmin", careSites: [{ id: world.site.id }] }));

  it("lists the archived rows of yesterday, though the settings changed after the run", async () => {
    await runDailySummary(summaryRunAt(RUN_DAY)); // whatever ran before, DAY is archived
    const sent = await archived(world.site.id, DAY);
    expect(sent?.rowCount).toBe(3);
    const actor = await siteAdmin();
    const now = at(RUN_DAY, 12);
    // Settings changed since: SpO2 and therapy adjustments off would list Ben alone.
    await prisma.notificationSetting.update({
      where: { careSiteId: world.site.id },
      data: { spo2Threshold: 0, therapyAdjustment: false },
    });
    try {
      expect((await summaryRows(world.site.id, DAY)).map((r) => r.firstName)).toEqual(["Ben"]);
      const screen = (await notificationSummaryFor(actor, world.site.id, now))!;
      expect(screen.day).toBe(DAY);
      expect(screen.sent).toBe(true);
      expect(screen.rows.map((r) => r.firstName)).toEqual(["Ben", "Cal", "Dee"]);
      expect(screen.rows).toEqual(JSON.parse(sent!.rows));
      // The cards show the settings as they are now.
      expect(screen.settings).toMatchObject({ adherence: 70, spo2: 0, therapyAdjustment: false });
      const download = (await summaryDownloadFor(actor, world.site.id, null, now))!;
      expect(download).toMatchObject({ day: DAY, csv: sent!.csv, rowCount: 3 });
    } finally {
      await prisma.notificationSetting.update({
        where: { careSiteId: world.site.id },
        data: { spo2Threshold: 90, therapyAdjustment: true },
      });
    }
  });

  it("lists nobody for a day without a summary, never today's settings' list", async () => {
    const actor = await siteAdmin();
    // Saturday: the care site selects Monday and Friday, so Friday (RUN_DAY) has no summary,
    // though Cal's reading of 70 that day is under the SpO2 threshold.
    const now = at("2026-10-17", 12);
    expect((await summaryRows(world.site.id, RUN_DAY)).map((r) => r.firstName)).toContain("Cal");
    expect(await archived(world.site.id, RUN_DAY)).toBeNull();
    const screen = (await notificationSummaryFor(actor, world.site.id, now))!;
    expect(screen).toMatchObject({ day: RUN_DAY, sent: false, rows: [] });
    expect(screen.archive[0]).toMatchObject({ day: RUN_DAY, generated: false });
    const download = (await summaryDownloadFor(actor, world.site.id, null, now))!;
    expect(download).toMatchObject({
      day: RUN_DAY,
      csv: `"Last Name","First Name","Adherence %","SpO2","Deviation"`,
      rowCount: 0,
    });
  });
});

describe("weekdays", () => {
  it("runs only for the care sites that select the day's weekday (Chicago)", async () => {
    const monday = "2026-10-19";
    const sunday = "2026-10-18";
    const noRecipients = await careSiteWith({ days: ["monday"], recipients: [] });
    // 06:30 Monday Chicago is still Monday, 11:30 UTC; 01:00 UTC Monday is Sunday in Chicago.
    await runDailySummary(new Date(`${monday}T01:00:00Z`));
    expect(await archived(world.mondays.id, "2026-10-17")).toBeNull();
    expect(await archived(world.mondays.id, sunday)).toBeNull();

    await runDailySummary(summaryRunAt(monday));
    expect(await archived(world.mondays.id, sunday)).toMatchObject({ rowCount: 0, emails: 1 });
    expect(await archived(world.site.id, sunday)).not.toBeNull(); // monday and friday
    expect(await archived(world.other.id, sunday)).toBeNull(); // friday only
    // No recipients: archived all the same, nothing queued.
    expect(await archived(noRecipients.id, sunday)).toMatchObject({ emails: 0, emailedAt: null });
    expect(await summaryEmails(noRecipients.id)).toEqual([]);
    // An inactive care site gets nothing.
    const inactive = await careSiteWith({ days: ["monday"], recipients: [email()] });
    await prisma.careSite.update({ where: { id: inactive.id }, data: { status: "inactive" } });
    await runDailySummary(summaryRunAt("2026-10-26"));
    expect(await archived(inactive.id, "2026-10-25")).toBeNull();
  });
});

describe("one run per care site and day", () => {
  it("several processes at once queue each email once", async () => {
    const runDay = "2026-10-09"; // Friday
    const day = "2026-10-08";
    const recipients = [email(), email()].sort();
    const site = await careSiteWith({ days: ["friday"], recipients });
    const now = summaryRunAt(runDay);
    const before = await prisma.outboxMessage.count({
      where: { dedupeKey: { startsWith: "summary:" } },
    });

    // Each process says "ready" once its database is set up; then all are told to go at once.
    const spawned = Array.from({ length: 3 }, () => {
      const child = spawn(
        process.execPath,
        [TSX, "tests/support/dailySummaryProcess.ts", now.toISOString()],
        { cwd: ROOT, env: { ...process.env, NODE_ENV: "test" } },
      );
      let stdout = "";
      let stderr = "";
      const ready = new Promise<void>((resolve) =>
        child.stdout.on("data", (c) => {
          stdout += c;
          if (/^ready$/m.test(stdout)) resolve();
        }),
      );
      child.stderr.on("data", (c) => (stderr += c));
      const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
        child.on("close", (code) => resolve({ code, stdout, stderr })),
      );
      // A process that dies before it is ready ends the wait too (its exit code fails the test).
      return { child, ready: Promise.race([ready, done]), done };
    });
    const children = spawned.map((s) => s.done);
    await Promise.all(spawned.map((s) => s.ready));
    for (const { child } of spawned) child.stdin.end("go\n");
    // Every run is waited for before anything is judged, so that a failure leaves no run behind
    // to write into the next test.
    const settled = await Promise.allSettled([runDailySummary(now), runDailySummary(now)]);
    const there = await Promise.all(children);
    const here = settled.map((r) => {
      if (r.status === "rejected") throw r.reason;
      return r.value;
    });
    for (const c of there) expect(c.code, c.stderr).toBe(0);
    const results = [
      ...here,
      ...there.map((c) => JSON.parse(c.stdout.trim().split("\n").at(-1)!) as (typeof here)[0]),
    ];

    const queued = await summaryEmails(site.id);
    expect(queued.map((m) => m.to)).toEqual(recipients);
    expect(await prisma.notificationSummary.count({ where: { careSiteId: site.id, day } })).toBe(1);
    // What the runs say they queued is what is in the outbox: no run counted another's work.
    const after = await prisma.outboxMessage.count({
      where: { dedupeKey: { startsWith: "summary:" } },
    });
    expect(results.reduce((n, r) => n + r.emails, 0)).toBe(after - before);
    // Every run saw the same care sites; each site was archived by exactly one of them.
    const careSites = results[0].careSites;
    for (const r of results) expect(r.careSites).toBe(careSites);
    expect(results.reduce((n, r) => n + (r.careSites - r.skipped), 0)).toBe(careSites);

    const smtp = await startSmtpServer();
    setTransport("email", createSmtpTransport(smtp.url, FROM));
    try {
      await deliverAll();
      for (const to of recipients) expect(mailsFor(smtp.received, to, day)).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  }, 60_000);

  it("an archive row removed by hand is built again without queueing its emails twice", async () => {
    const to = email();
    const site = await careSiteWith({ days: ["friday"], recipients: [to] });
    const now = summaryRunAt("2026-09-25");
    await runDailySummary(now);
    expect(await archived(site.id, "2026-09-24")).toMatchObject({ emails: 1 });
    await prisma.notificationSummary.delete({
      where: { careSiteId_day: { careSiteId: site.id, day: "2026-09-24" } },
    });
    await runDailySummary(now);
    expect(await archived(site.id, "2026-09-24")).toMatchObject({ emails: 0, emailedAt: null });
    expect(await summaryEmails(site.id)).toHaveLength(1);
  });

  it("a failed send is recorded and retried with backoff, then sent once", async () => {
    const runDay = "2026-10-02"; // Friday
    const day = "2026-10-01";
    const to = email();
    const site = await careSiteWith({ days: ["friday"], recipients: [to] });
    const port = await closedPort();
    setTransport("email", createSmtpTransport(`smtp://127.0.0.1:${port}`, FROM));
    let smtp: Awaited<ReturnType<typeof startSmtpServer>> | null = null;
    try {
      await runDailySummary(summaryRunAt(runDay));
      const [queued] = await summaryEmails(site.id);
      await deliverAll();
      const failed = await prisma.outboxMessage.findUniqueOrThrow({ where: { id: queued.id } });
      expect(failed).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
      expect(failed.lastError).toMatch(/ECONNREFUSED/);
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000);

      // The server is back and the retry is due; the run repeated meanwhile adds nothing.
      await runDailySummary(summaryRunAt(runDay));
      smtp = await startSmtpServer({ port });
      await prisma.outboxMessage.updateMany({
        where: { dedupeKey: { startsWith: `summary:${site.id}:` } },
        data: { nextAttemptAt: new Date(Date.now() - 1000) },
      });
      await deliverAll();
      const sent = await prisma.outboxMessage.findUniqueOrThrow({ where: { id: queued.id } });
      expect(sent).toMatchObject({ status: "sent", attempts: 2, lastError: null });
      expect(await summaryEmails(site.id)).toHaveLength(1);
      const mails = mailsFor(smtp.received, to, day);
      expect(mails).toHaveLength(1);
      expect(mails[0].attachments[0].content.toString("utf8")).toBe(
        await archivedSummaryCsv(site.id, day),
      );
    } finally {
      await smtp?.close();
    }
  });
});

describe("catch-up at start", () => {
  it("startBackground runs a missed summary after 07:00 Chicago, and not before", async () => {
    const early = await careSiteWith({ days: ["friday"], recipients: [email()] });
    // 06:30 CST on Friday 2026-11-06: too early, nothing runs.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-06T12:30:00Z"));
    await startBackground();
    await stopBackground({ disconnect: false });
    expect(await archived(early.id, "2026-11-05")).toBeNull();
    expect(
      await prisma.jobRun.findMany({
        where: { job: dailySummaryJob.name, runKey: { startsWith: "2026-11-06" } },
      }),
    ).toEqual([]);

    // 08:30 CDT on Friday 2026-10-30: the 07:00 run was missed; it is made up at start.
    const late = await careSiteWith({ days: ["friday"], recipients: [email()] });
    vi.setSystemTime(new Date("2026-10-30T13:30:00Z"));
    await startBackground();
    await stopBackground({ disconnect: false });
    vi.useRealTimers();
    expect(await archived(late.id, "2026-10-29")).toMatchObject({ emails: 1 });
    expect(await summaryEmails(late.id)).toHaveLength(1);
    const run = await prisma.jobRun.findUniqueOrThrow({
      where: { job_runKey: { job: dailySummaryJob.name, runKey: "2026-10-30T13:30" } },
    });
    expect(run.status).toBe("succeeded");

    // A catch-up for a day that already ran sends nothing more.
    const again = await catchUpDailySummary(new Date("2026-10-30T20:00:00Z"));
    expect(again).toMatchObject({ skipped: false, detail: { emails: 0 } });
    expect(await summaryEmails(late.id)).toHaveLength(1);
    // Before 07:00 the catch-up does not even record a run.
    expect(await catchUpDailySummary(new Date("2026-11-06T12:59:00Z"))).toBeNull();
  }, 30_000);
});

describe("npm run job", () => {
  const job = (...args: string[]) => {
    const result = spawnSync(process.execPath, [TSX, "scripts/job.ts", ...args], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "test" },
      timeout: 30_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it("runs daily-summary for a --date through runJob; again: says it already ran; --force: sends nothing twice", async () => {
    const to = email();
    const site = await careSiteWith({ days: ["friday"], recipients: [to] });

    const first = job("daily-summary", "--date", "2026-10-23");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("daily-summary: running slot 2026-10-23T12:00Z");
    expect(first.stdout).toMatch(/Daily summary of 2026-10-23 \(friday\)/);
    expect(await archived(site.id, "2026-10-22")).toMatchObject({ emails: 1 });
    expect(await summaryEmails(site.id)).toHaveLength(1);
    expect(
      await prisma.jobRun.findUniqueOrThrow({
        where: { job_runKey: { job: "daily-summary", runKey: "2026-10-23T12:00" } },
      }),
    ).toMatchObject({ status: "succeeded" });

    const second = job("daily-summary", "--date", "2026-10-23");
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain("slot 2026-10-23T12:00Z already ran, so nothing was done now");
    expect(second.stdout).toContain("That run: succeeded");

    const forced = job("daily-summary", "--date", "2026-10-23", "--force");
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stdout).toContain("removed the earlier record of slot 2026-10-23T12:00Z");
    expect(forced.stdout).toMatch(/0 archived now, 0 email\(s\) queued/);
    expect(forced.stdout).toMatch(/had their summary for that day already: nothing was sent/);
    expect(await summaryEmails(site.id)).toHaveLength(1);
  }, 60_000);

  it("lists the jobs and exits 2 for an unknown name or a bad date", () => {
    const unknown = job("no-such-job");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown job: no-such-job");
    for (const j of jobs) expect(unknown.stderr).toContain(j.name);
    expect(job("daily-summary", "--date", "2026-02-30").status).toBe(2);
    expect(job("daily-summary", "--date", "2999-01-01").status).toBe(2);
  }, 60_000);
});

describe("a run killed in the middle (kill -9)", () => {
  // A test that fails before its kill still leaves no blocked process behind.
  const doomedRuns: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(doomedRuns.splice(0).map((kill) => kill()));
  });

  /** Starts a process that runs the job for `now` and blocks after its first care site. */
  function startDoomedRun(now: Date, leaseMs: number) {
    // node --import tsx, not the tsx CLI: that would run the script in a child of its own, which
    // a SIGKILL to the CLI leaves running.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "tests/support/jobRunProcess.ts", now.toISOString(), String(leaseMs)],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: "test" } },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const midRun = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (c) => {
        stdout += c;
        if (stdout.includes("daily summary: care site done")) resolve();
      });
      child.on("close", (code) => reject(new Error(`ended (${code}) before: ${stdout}${stderr}`)));
    });
    const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
    const kill = async () => {
      child.kill("SIGKILL");
      await closed;
    };
    doomedRuns.push(kill);
    return { midRun, kill };
  }

  /** The care sites a run on `runDay` covers, whose summaries of `day` exist. */
  async function summariesOf(day: string, sites: string[]) {
    return prisma.notificationSummary.count({ where: { day, careSiteId: { in: sites } } });
  }

  async function expectEachRecipientMailedOnce(day: string, recipients: string[]) {
    for (const to of recipients) {
      const queued = await prisma.outboxMessage.findMany({
        where: { to, dedupeKey: { startsWith: "summary:" } },
      });
      expect(queued.filter((m) => m.dedupeKey!.endsWith(`:${day}:${to}`))).toHaveLength(1);
    }
    const smtp = await startSmtpServer();
    setTransport("email", createSmtpTransport(smtp.url, FROM));
    try {
      await deliverAll();
      for (const to of recipients) expect(mailsFor(smtp.received, to, day)).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  }

  it("is taken over by the next lease holder once the dead run's lease lapses; every summary is sent once", async () => {
    const runDay = "2026-09-11"; // Friday
    const day = "2026-09-10";
    const recipients = [email(), email(), email()];
    const sites = [];
    for (const to of recipients)
      sites.push((await careSiteWith({ days: ["friday"], recipients: [to] })).id);
    const slot = summaryRunAt(runDay);
    const key = slot.toISOString().slice(0, 16);

    const doomed = startDoomedRun(slot, 1_000);
    await doomed.midRun;
    await doomed.kill();
    // One care site was done when it died; the run is still marked "running".
    expect(await summariesOf(day, sites)).toBeLessThan(sites.length);
    const dead = await prisma.jobRun.findUniqueOrThrow({
      where: { job_runKey: { job: dailySummaryJob.name, runKey: key } },
    });
    expect(dead.status).toBe("running");

    // The next process to hold the scheduler lease finds the dead run and runs the slot again.
    await startBackground({ lease: { renewMs: 50 }, resumeEveryMs: 100 });
    try {
      await vi.waitFor(
        async () => {
          const run = await prisma.jobRun.findUniqueOrThrow({
            where: { job_runKey: { job: dailySummaryJob.name, runKey: key } },
          });
          if (run.status !== "succeeded") throw new Error(`still ${run.status}`);
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await stopBackground({ disconnect: false });
    }
    expect(await summariesOf(day, sites)).toBe(sites.length);
    await expectEachRecipientMailedOnce(day, recipients);
  }, 60_000);

  it("job --force refuses a run whose process is alive, and takes over one whose process died", async () => {
    const runDay = "2026-09-04"; // Friday
    const day = "2026-09-03";
    const recipients = [email(), email()];
    const sites = [];
    for (const to of recipients)
      sites.push((await careSiteWith({ days: ["friday"], recipients: [to] })).id);
    const slot = summaryRunAt(runDay);
    const key = slot.toISOString().slice(0, 16);
    const job = (...args: string[]) =>
      spawnSync(process.execPath, [TSX, "scripts/job.ts", ...args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, NODE_ENV: "test" },
        timeout: 30_000,
      });

    // A long lease: the blocked process's lease is live while the first --force runs.
    const doomed = startDoomedRun(slot, 120_000);
    await doomed.midRun;
    const refused = job("daily-summary", "--date", runDay, "--force");
    expect(refused.status, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toContain(`slot ${key}Z is running since`);
    expect(refused.stderr).toContain("not forced");

    await doomed.kill();
    // Its lease lapses (as it would 2 minutes later; the clock is not waited for here).
    await prisma.jobLease.updateMany({
      where: { name: `run:${dailySummaryJob.name}:${key}` },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const forced = job("daily-summary", "--date", runDay, "--force");
    expect(forced.status, forced.stdout + forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`removed the earlier record of slot ${key}Z (running`);
    expect(await summariesOf(day, sites)).toBe(sites.length);
    await expectEachRecipientMailedOnce(day, recipients);
  }, 90_000);
});
