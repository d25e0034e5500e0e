// The daily notification summary (spec 2 "Notification summary"; issue 8; DESIGN.md §5 and §6):
// its dates, the screen and downloads of a care site's summary, and the run that archives a day
// and queues its emails. Who a summary lists, its CSV and the archive: summaryRows.server.ts.
//
// One run per care site and day, ever: the NotificationSummary row (unique careSiteId + day) and
// the day's emails (OutboxMessage, dedupeKey "summary:<careSiteId>:<day>:<recipient>") are written
// in one transaction, and a run that finds the row, or loses the race to write it, sends nothing.
// Delivery is the outbox's: the deliver-outbox job (every minute) sends the queued emails, retries
// failures with backoff and records each attempt (docs/operations.md).
import { TZDate } from "@date-fns/tz";
import { notificationsReadableBy, type Actor } from "~/domain/access.server";
import { Prisma } from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { outboxRow, type Attachment } from "~/lib/outbox.server";
import { dayInZone, formatDay, yesterdayInZone } from "~/lib/time";
import { finaliseDay } from "~/domain/adherence/adherence.server";
import {
  readNotificationSettings,
  type NotificationSettings,
  type Weekday,
} from "~/domain/notifications/settings.server";
import {
  archivedSummary,
  archivedSummaryCsv,
  summaryArchive,
  summaryCsv,
  summaryReportName,
  summaryRows,
  type SummaryRow,
} from "./summaryRows.server";

/** The summary goes out at 07:00 in this zone, on the weekdays a care site selects (spec 2 §9). */
export const SUMMARY_TIME_ZONE = "America/Chicago";
export const SUMMARY_HOUR = 7;
export const SUMMARY_PAGE_PATH = "/app/notificationSummary";

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

/** The instant of 07:00 America/Chicago on a Chicago calendar day (13:00Z in CST, 12:00Z in CDT). */
export function summaryRunAt(chicagoDay: string): Date {
  const [y, m, d] = chicagoDay.split("-").map(Number);
  return new Date(new TZDate(y, m - 1, d, SUMMARY_HOUR, 0, SUMMARY_TIME_ZONE).getTime());
}

/** The Chicago calendar day of an instant: the day whose weekday decides who gets a summary. */
export function summaryDayOf(now: Date) {
  return dayInZone(now, SUMMARY_TIME_ZONE);
}

/** monday..sunday for a YYYY-MM-DD day. */
export function weekdayOfDay(day: string) {
  return formatDay(day, "EEEE").toLowerCase() as Weekday;
}

// ---------------------------------------------------------------------------------------------
// The Notification Summary screen and its downloads (scoped: the functions above are the job's)
// ---------------------------------------------------------------------------------------------

/** The care site of the summary screen, if the actor may read its notifications. */
function summarySiteFor(actor: Actor, careSiteId: string) {
  return prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, notificationsReadableBy(actor)] },
    select: { id: true, name: true, timeZone: true },
  });
}

/**
 * The Notification Summary screen of a care site the actor may read (access.server.ts
 * notificationsReadableBy), or null (404): the current settings (the "Current notification
 * settings" cards), yesterday's summary (site zone) as it was sent, read from the archive (issue
 * 21 item 6: never recomputed with today's settings; `sent` false and no rows while that day has
 * no archive), and the 14-day archive.
 */
export async function notificationSummaryFor(actor: Actor, careSiteId: string, now = new Date()) {
  const site = await summarySiteFor(actor, careSiteId);
  if (!site) return null;
  const day = yesterdayInZone(now, site.timeZone);
  const [settings, sent, archive] = await Promise.all([
    readNotificationSettings(site.id),
    archivedSummary(site.id, day),
    summaryArchive(site.id, dayInZone(now, site.timeZone)),
  ]);
  return { site, day, settings, sent: sent !== null, rows: sent?.rows ?? [], archive };
}

/**
 * A download of the summary screen for a care site the actor may read, or null (404): with
 * `archivedDay`, the CSV archived for that day (null csv when none was generated); without, the
 * screen's table of yesterday (site zone): the CSV archived for it, or just the header while
 * that day has no archive (the table is empty then).
 */
export async function summaryDownloadFor(
  actor: Actor,
  careSiteId: string,
  archivedDay: string | null,
  now = new Date(),
) {
  const site = await summarySiteFor(actor, careSiteId);
  if (!site) return null;
  if (archivedDay) {
    const csv = await archivedSummaryCsv(site.id, archivedDay);
    return { site, day: archivedDay, archived: true as const, csv, rowCount: null };
  }
  const day = yesterdayInZone(now, site.timeZone);
  const sent = await archivedSummary(site.id, day);
  return {
    site,
    day,
    archived: false as const,
    csv: sent?.csv ?? summaryCsv([]),
    rowCount: sent?.rows.length ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

export const summaryDedupeKey = (careSiteId: string, day: string, recipient: string) =>
  `summary:${careSiteId}:${day}:${recipient}`;

function summaryEmail(site: { name: string }, day: string, rows: SummaryRow[]) {
  const link = `${env.publicUrl}${SUMMARY_PAGE_PATH}`;
  const fileName = `${summaryReportName(day)}.csv`;
  const count =
    rows.length === 0
      ? "No patient met the notification rules that day."
      : rows.length === 1
        ? "1 patient met the notification rules that day."
        : `${rows.length} patients met the notification rules that day.`;
  return {
    subject: `ARC Connect notification summary: ${site.name}, ${formatDay(day)}`,
    body: [
      `Notification summary for ${site.name}, ${formatDay(day)}.`,
      "",
      count,
      `The summary is attached (${fileName}). See it in ARC Connect: ${link}`,
      "",
      `You receive this email because you are a recipient in the notification settings of ${site.name}.`,
    ].join("\n"),
    fileName,
  };
}

type SiteOutcome = { created: boolean; emails: number };

/**
 * Archives one care site's day and queues its emails, unless that day is archived already. The
 * row and the emails commit together; losing the race to another run (a second process) is a
 * unique-key error on the row, and counts as "already ran". Exported for the browser tests, which
 * archive one care site's day as the run would (tests/e2e/support/summary.ts).
 */
export async function summarizeCareSite(
  site: { id: string; name: string },
  day: string,
  settings: NotificationSettings,
): Promise<SiteOutcome> {
  const existing = await prisma.notificationSummary.findUnique({
    where: { careSiteId_day: { careSiteId: site.id, day } },
    select: { id: true },
  });
  if (existing) return { created: false, emails: 0 };

  // Yesterday's adherence rows are normally final by 07:00 (finalise-adherence, hourly); a run
  // caught up at start may come first, so the day is finalised here too (idempotent: every row is
  // derived from the raw data). The real clock bounds it: rows are never written past today.
  await finaliseDay(site.id, day);
  const rows = await summaryRows(site.id, day, settings);
  const csv = summaryCsv(rows);
  const email = summaryEmail(site, day, rows);
  const attachments: Attachment[] = [
    {
      filename: email.fileName,
      content: Buffer.from(csv, "utf8").toString("base64"),
      contentType: "text/csv",
    },
  ];
  const recipients = [...new Set(settings.recipients.map((r) => r.toLowerCase()))];

  try {
    return await readWriteTransaction(async (tx) => {
      // The write comes first: it takes SQLite's write lock, so a second process waits here and
      // then fails on the unique key instead of both passing a read.
      const summary = await tx.notificationSummary.create({
        data: {
          careSiteId: site.id,
          day,
          csv,
          rowCount: rows.length,
          rows: JSON.stringify(rows),
          settings: JSON.stringify({
            days: settings.days,
            recipients,
            adherence: settings.adherence,
            spo2: settings.spo2,
            therapyAdjustment: settings.therapyAdjustment,
          }),
          emails: recipients.length,
          emailedAt: recipients.length ? new Date() : null,
        },
        select: { id: true },
      });
      // An email already queued for this day (an archive row removed by hand and built again) is
      // not queued twice.
      const keys = recipients.map((to) => summaryDedupeKey(site.id, day, to));
      const queued = new Set(
        (
          await tx.outboxMessage.findMany({
            where: { dedupeKey: { in: keys } },
            select: { dedupeKey: true },
          })
        ).map((m) => m.dedupeKey),
      );
      let emails = 0;
      for (const to of recipients) {
        const dedupeKey = summaryDedupeKey(site.id, day, to);
        if (queued.has(dedupeKey)) continue;
        // The outbox's row, written in this transaction (enqueue writes outside it); the
        // deliver-outbox job sends it.
        await tx.outboxMessage.create({
          data: outboxRow({
            channel: "email",
            to,
            subject: email.subject,
            body: email.body,
            attachments,
            dedupeKey,
          }),
          select: { id: true },
        });
        emails++;
      }
      if (emails !== recipients.length) {
        await tx.notificationSummary.update({
          where: { id: summary.id },
          data: { emails, emailedAt: emails ? undefined : null },
          select: { id: true },
        });
      }
      return { created: true, emails };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return { created: false, emails: 0 };
    }
    throw error;
  }
}

/**
 * The daily summary job: for every active care site whose settings select today's weekday (today
 * = the America/Chicago day of `now`), archives yesterday in the care site's own zone (as of
 * 07:00 Chicago that day, whenever the run happens) and queues one email per recipient with the
 * CSV attached. `skipped` counts care sites whose day was archived already (nothing is sent
 * again). A care site that fails does not stop the others; the run then fails, naming them.
 */
export async function runDailySummary(
  now: Date,
): Promise<{ careSites: number; emails: number; skipped: number }> {
  const today = summaryDayOf(now);
  const weekday = weekdayOfDay(today);
  const runAt = summaryRunAt(today);
  const candidates = await prisma.notificationSetting.findMany({
    where: { days: { contains: weekday }, careSite: { status: "active" } },
    select: { careSiteId: true, careSite: { select: { name: true, timeZone: true } } },
    orderBy: { careSiteId: "asc" },
  });
  const result = { careSites: 0, emails: 0, skipped: 0 };
  const failed: string[] = [];
  for (const { careSiteId, careSite } of candidates) {
    const settings = await readNotificationSettings(careSiteId);
    if (!settings.days.includes(weekday)) continue;
    result.careSites++;
    const day = yesterdayInZone(runAt, careSite.timeZone);
    try {
      const outcome = await summarizeCareSite(
        { id: careSiteId, name: careSite.name },
        day,
        settings,
      );
      if (outcome.created) result.emails += outcome.emails;
      else result.skipped++;
      // Which care sites a run had done, should it stop before the end (a run is resumed).
      logger.info("daily summary: care site done", {
        careSiteId,
        day,
        archived: outcome.created,
        emails: outcome.emails,
      });
    } catch (error) {
      logger.error("daily summary failed for a care site", { careSiteId, day, error });
      failed.push(careSiteId);
    }
  }
  if (failed.length > 0) {
    throw new Error(
      `daily summary failed for care site(s) ${failed.join(", ")}; the others: ${JSON.stringify(result)}`,
    );
  }
  return result;
}
