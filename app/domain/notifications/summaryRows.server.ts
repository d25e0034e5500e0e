// Who a care site's daily notification summary lists (spec 2 "Notification summary", DESIGN.md §5),
// its CSV, and the 14-day archive of what the run stored (dailySummary.server.ts).
import { z } from "zod";
import { patientsOf } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import { toCsv } from "~/lib/csv";
import { logger } from "~/lib/logger.server";
import { photoUrl } from "~/lib/photoUrl";
import { formatDay } from "~/lib/time";
import {
  adherenceAsOf,
  careSiteTimeZone,
  therapyAdjustments,
} from "~/domain/adherence/sql/dashboard.server";
import {
  readNotificationSettings,
  type NotificationSettings,
} from "~/domain/notifications/settings.server";
import { addDays, dayStart, scorePercent } from "~/domain/adherence/score";
import { therapyReadings } from "./sql.server";

/** "Last 14 notifications summary", starting from yesterday. */
export const ARCHIVE_DAYS = 14;

export type SummaryRow = {
  patientId: string;
  firstName: string;
  lastName: string;
  photoUrl: string;
  /** The adherence score as of the day, as a whole percent; null when there is none ("-"). */
  adherencePercent: number | null;
  /** The lowest SpO2 reading of the day's therapies; null when none was measured. */
  spo2: number | null;
  /** A therapy of the day deviated (DESIGN.md §5). */
  deviation: boolean;
  /** The device reported a changed prescription that day (a therapy adjustment). */
  therapyAdjusted: boolean;
};

/** Notification_Summary_20_Nov_2026: two-digit day, English three-letter month, four-digit year. */
export function summaryReportName(day: string) {
  return `Notification_Summary_${formatDay(day, "dd_MMM_yyyy")}`;
}

/**
 * The patients a care site's summary lists for `day` (YYYY-MM-DD in the site's zone): adherence
 * score as of the day under the adherence threshold (compared as the whole percent shown), any
 * SpO2 reading that day under the SpO2 threshold, or (when Therapy Adjustments is on) a therapy
 * protocol change that day. A threshold of 0 is off. Sorted by last name, then first name. Uses
 * the care site's current settings unless given.
 */
export async function summaryRows(
  careSiteId: string,
  day: string,
  settings?: NotificationSettings,
): Promise<SummaryRow[]> {
  const rules = settings ?? (await readNotificationSettings(careSiteId));
  const zone = await careSiteTimeZone(careSiteId);
  const [scores, readings, adjustments] = await Promise.all([
    adherenceAsOf(careSiteId, day),
    therapyReadings(careSiteId, dayStart(day, zone), dayStart(addDays(day, 1), zone)),
    rules.therapyAdjustment ? therapyAdjustments(careSiteId, day, day) : Promise.resolve([]),
  ]);
  const adjusted = new Set(adjustments.map((a) => a.patientId));

  const listed = new Map<string, Omit<SummaryRow, "firstName" | "lastName" | "photoUrl">>();
  for (const { patientId, score } of scores) {
    const percent = scorePercent(score === null ? null : Number(score));
    const reading = readings.get(patientId);
    const spo2 = reading?.spo2 ?? null;
    const underAdherence = rules.adherence > 0 && percent !== null && percent < rules.adherence;
    const underSpo2 = rules.spo2 > 0 && spo2 !== null && spo2 < rules.spo2;
    const protocolChanged = rules.therapyAdjustment && adjusted.has(patientId);
    if (!underAdherence && !underSpo2 && !protocolChanged) continue;
    listed.set(patientId, {
      patientId,
      adherencePercent: percent,
      spo2,
      deviation: reading?.deviation ?? false,
      therapyAdjusted: adjusted.has(patientId),
    });
  }
  if (listed.size === 0) return [];

  const people = await prisma.user.findMany({
    where: { AND: [{ id: { in: [...listed.keys()] } }, patientsOf(careSiteId)] },
    select: { id: true, firstName: true, lastName: true, photoId: true },
  });
  return people
    .map((p) => ({
      ...listed.get(p.id)!,
      firstName: p.firstName,
      lastName: p.lastName,
      photoUrl: photoUrl(p.photoId),
    }))
    .sort(
      (a, b) =>
        a.lastName.localeCompare(b.lastName) ||
        a.firstName.localeCompare(b.firstName) ||
        a.patientId.localeCompare(b.patientId),
    );
}

const CSV_FIELDS = [
  { label: "Last Name", value: "lastName" },
  { label: "First Name", value: "firstName" },
  { label: "Adherence %", value: "adherencePercent" },
  { label: "SpO2", value: "spo2" },
  { label: "Deviation", value: (row: SummaryRow) => (row.deviation ? "yes" : "no") },
];

/** The NotificationSummary CSV: no photo, no ids; a missing score or reading is an empty cell. */
export function summaryCsv(rows: SummaryRow[]): string {
  return toCsv(rows, { fields: CSV_FIELDS });
}

// ---------------------------------------------------------------------------------------------
// The archive
// ---------------------------------------------------------------------------------------------

/** The last 14 days before `today` (yesterday first), each with its report name and whether a
 * summary was generated for it. */
export async function summaryArchive(
  careSiteId: string,
  today: string,
): Promise<{ day: string; reportName: string; generated: boolean }[]> {
  const days = Array.from({ length: ARCHIVE_DAYS }, (_, i) => addDays(today, -(i + 1)));
  const stored = await prisma.notificationSummary.findMany({
    where: { careSiteId, day: { in: days } },
    select: { day: true },
  });
  const generated = new Set(stored.map((s) => s.day));
  return days.map((day) => ({
    day,
    reportName: summaryReportName(day),
    generated: generated.has(day),
  }));
}

const archivedRowsSchema = z.array(
  z.object({
    patientId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    photoUrl: z.string(),
    adherencePercent: z.number().nullable(),
    spo2: z.number().nullable(),
    deviation: z.boolean(),
    therapyAdjusted: z.boolean(),
  }),
);

/** The rows column of an archived summary; an unreadable one is logged and lists nobody. */
function archivedRows(stored: string, where: { careSiteId: string; day: string }): SummaryRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    parsed = undefined;
  }
  const rows = archivedRowsSchema.safeParse(parsed);
  if (rows.success) return rows.data;
  logger.error("notification summary: archived rows unreadable", where);
  return [];
}

/**
 * The summary archived for a care site and day as it was sent (its rows and CSV, built with the
 * settings of that run), or null when none was made (the run has not come yet, the day's weekday
 * is not scheduled, or the care site is newer than the day).
 */
export async function archivedSummary(
  careSiteId: string,
  day: string,
): Promise<{ rows: SummaryRow[]; csv: string } | null> {
  const row = await prisma.notificationSummary.findUnique({
    where: { careSiteId_day: { careSiteId, day } },
    select: { rows: true, csv: true },
  });
  if (!row) return null;
  return { rows: archivedRows(row.rows, { careSiteId, day }), csv: row.csv };
}

/** The CSV archived for a care site and day, or null when none was generated. */
export async function archivedSummaryCsv(careSiteId: string, day: string): Promise<string | null> {
  const row = await prisma.notificationSummary.findUnique({
    where: { careSiteId_day: { careSiteId, day } },
    select: { csv: true },
  });
  return row?.csv ?? null;
}
