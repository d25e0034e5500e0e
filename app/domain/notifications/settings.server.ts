// A care site's notification settings (spec 2 "Notification settings"; issue 8): which weekdays
// the 7:00 Central summary goes out, to whom, and its thresholds. A care site without a saved row
// reads as the defaults below (docs/decisions.md "Notification defaults").
import {
  notificationsEditableBy,
  notificationsReadableBy,
  type Actor,
} from "~/domain/access.server";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { audit } from "~/domain/audit.server";
import { WEEKDAY_NAMES } from "~/domain/notifications/schema";

// Monday..Sunday; the list lives with the form's rules so the page shares it.
export const WEEKDAYS = WEEKDAY_NAMES;
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

/**
 * A care site's settings, unscoped: for the daily summary job, and for the models once the care
 * site came from a scoped read. Screens read through notificationSettingsFor.
 */
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

/** The settings of a care site the actor may read (access.server.ts notificationsReadableBy), or null. */
export async function notificationSettingsFor(
  actor: Actor,
  careSiteId: string,
): Promise<NotificationSettings | null> {
  const site = await prisma.careSite.findFirst({
    where: { AND: [{ id: careSiteId }, notificationsReadableBy(actor)] },
    select: { id: true },
  });
  return site ? readNotificationSettings(site.id) : null;
}

/** What the settings form saves (app/domain/notifications/schema.ts parses it). */
export type NotificationSettingsInput = {
  days: Weekday[];
  recipients: string[];
  adherence: number;
  spo2: number;
  therapyAdjustment: boolean;
};

export type SaveNotificationSettingsResult =
  | { status: "saved"; changed: (keyof NotificationSettingsInput)[] }
  /** The spec's "Nochange": the stored settings already read like this. */
  | { status: "unchanged" }
  /** The actor may not change this care site's settings (access.server.ts notificationsEditableBy). */
  | { status: "forbidden" };

/** Order-free comparison: the same days, the same recipients (any order), the same values. */
function changedFields(
  current: NotificationSettingsInput,
  next: NotificationSettingsInput,
): (keyof NotificationSettingsInput)[] {
  const sameSet = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && [...a].sort().join(",") === [...b].sort().join(",");
  const changed: (keyof NotificationSettingsInput)[] = [];
  if (!sameSet(current.days, next.days)) changed.push("days");
  if (!sameSet(current.recipients, next.recipients)) changed.push("recipients");
  if (current.adherence !== next.adherence) changed.push("adherence");
  if (current.spo2 !== next.spo2) changed.push("spo2");
  if (current.therapyAdjustment !== next.therapyAdjustment) changed.push("therapyAdjustment");
  return changed;
}

/**
 * Stores a care site's notification settings, with the audit event
 * "notification_settings.updated", in one transaction. Only a clinicadmin of this care site may
 * save (access.server.ts notificationsEditableBy); the check is inside the transaction's read. A
 * care site that never saved its settings always counts as changed.
 */
export async function saveNotificationSettings(
  actor: Actor,
  careSiteId: string,
  input: NotificationSettingsInput,
  options: { ip?: string | null } = {},
): Promise<SaveNotificationSettingsResult> {
  const next: NotificationSettingsInput = {
    ...input,
    days: WEEKDAYS.filter((d) => input.days.includes(d)),
    recipients: [...new Set(input.recipients)],
  };
  return readWriteTransaction(async (tx): Promise<SaveNotificationSettingsResult> => {
    const site = await tx.careSite.findFirst({
      where: { AND: [{ id: careSiteId }, notificationsEditableBy(actor)] },
      select: {
        id: true,
        notificationSetting: {
          select: {
            days: true,
            recipients: true,
            adherenceThreshold: true,
            spo2Threshold: true,
            therapyAdjustment: true,
          },
        },
      },
    });
    if (!site) return { status: "forbidden" };
    const row = site.notificationSetting;
    const changed = row
      ? changedFields(
          {
            days: WEEKDAYS.filter((d) => splitList(row.days).includes(d)),
            recipients: splitList(row.recipients),
            adherence: row.adherenceThreshold,
            spo2: row.spo2Threshold,
            therapyAdjustment: row.therapyAdjustment,
          },
          next,
        )
      : changedFields({ ...DEFAULT_NOTIFICATION_SETTINGS }, next);
    if (row && changed.length === 0) return { status: "unchanged" };
    const data = {
      days: next.days.join(","),
      recipients: next.recipients.join(","),
      adherenceThreshold: next.adherence,
      spo2Threshold: next.spo2,
      therapyAdjustment: next.therapyAdjustment,
      updatedById: actor.id,
    };
    await tx.notificationSetting.upsert({
      where: { careSiteId },
      create: { careSiteId, ...data },
      update: data,
      select: { careSiteId: true },
    });
    await audit(
      {
        actorId: actor.id,
        action: "notification_settings.updated",
        targetType: "careSite",
        targetId: careSiteId,
        careSiteId,
        ip: options.ip,
        detail: {
          changed,
          days: next.days,
          recipientCount: next.recipients.length,
          adherence: next.adherence,
          spo2: next.spo2,
          therapyAdjustment: next.therapyAdjustment,
        },
      },
      tx,
    );
    return { status: "saved", changed };
  });
}
