// TEMPORARY stand-in for app/models/dailySummary.server.ts (issue 8, being written by another
// engineer), with its agreed signatures, so the notification screens compile and run until it
// lands. Delete this file and import the real module then.
import { prisma } from "~/lib/db.server";
import { formatDay } from "~/lib/time";
import type { NotificationSettings } from "~/models/notificationSettings.server";
import { addDays } from "~/modules/adherence/score";

export type SummaryRow = {
  patientId: string;
  firstName: string;
  lastName: string;
  photoUrl: string;
  adherencePercent: number | null;
  spo2: number | null;
  deviation: boolean;
  therapyAdjusted: boolean;
};

export async function summaryRows(
  _careSiteId: string,
  _day: string,
  _settings?: NotificationSettings,
): Promise<SummaryRow[]> {
  return [];
}

export function summaryCsv(rows: SummaryRow[]): string {
  const lines = ["Last Name,First Name,Adherence %,SpO2,Deviation"];
  for (const r of rows) {
    lines.push(
      [r.lastName, r.firstName, r.adherencePercent ?? "", r.spo2 ?? "", r.deviation ? "yes" : "no"]
        .map((v) => `"${String(v).replace(/"/g, '""')}"`)
        .join(","),
    );
  }
  return lines.join("\n");
}

export async function summaryArchive(careSiteId: string, today: string) {
  const days = Array.from({ length: 14 }, (_, i) => addDays(today, -(i + 1)));
  const stored = await prisma.notificationSummary.findMany({
    where: { careSiteId, day: { in: days } },
    select: { day: true },
  });
  const generated = new Set(stored.map((s) => s.day));
  return days.map((day) => ({
    day,
    reportName: `Notification_Summary_${formatDay(day, "dd_MMM_yyyy")}`,
    generated: generated.has(day),
  }));
}

export async function archivedSummaryCsv(careSiteId: string, day: string) {
  const row = await prisma.notificationSummary.findUnique({
    where: { careSiteId_day: { careSiteId, day } },
    select: { csv: true },
  });
  return row?.csv ?? null;
}
