// A care site's notification settings (spec 2 "Notification settings"; issue 8): which weekdays
// the 7:00 Central summary goes out, to whom, and its thresholds. A care site without a saved row
// reads as the defaults below (docs/decisions.md "Notification defaults").
import { prisma } from "~/lib/db.server";

export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type NotificationSettings = {
  careSiteId: string;
  days: Weekday[];
  recipients: string[];
  /** Percent; 0 means off. */
  adherence: number;
  /** Percent; 0 means off. */
  spo2: number;
  therapyAdjustment: boolean;
  /** False while the care site has never saved its settings. */
  saved: boolean;
};

/** The spec's first reading (adherence 70, SpO2 90), with no days and no recipients: nothing is
 * sent until an admin chooses days and recipients. */
export const DEFAULT_NOTIFICATION_SETTINGS = {
  days: [] as Weekday[],
  recipients: [] as string[],
  adherence: 70,
  spo2: 90,
  therapyAdjustment: false,
};

const splitList = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export async function readNotificationSettings(careSiteId: string): Promise<NotificationSettings> {
  const row = await prisma.notificationSetting.findUnique({ where: { careSiteId } });
  if (!row) return { careSiteId, ...DEFAULT_NOTIFICATION_SETTINGS, saved: false };
  return {
    careSiteId,
    days: WEEKDAYS.filter((d) => splitList(row.days).includes(d)),
    recipients: splitList(row.recipients),
    adherence: row.adherenceThreshold,
    spo2: row.spo2Threshold,
    therapyAdjustment: row.therapyAdjustment,
    saved: true,
  };
}
