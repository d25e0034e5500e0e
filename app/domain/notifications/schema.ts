import { z } from "zod";
import { EMAIL_MAX } from "../accounts/schema";
import { EMAIL_REGEX, invalidFieldMessage, REQUIRED_MESSAGE } from "../../lib/validation";

// The notification settings form (spec 2 "Notification settings", §3, §4, §5 "Notification
// recipients", §8) and the `p` parameter of its address. Without JavaScript the whole state being
// edited lives in the form: the day toggles are checkboxes, each recipient a hidden input (its chip),
// the thresholds number inputs with an ON/OFF checkbox. So Add and × re-render the form from what
// was posted, and Save writes it.

export const WEEKDAY_NAMES = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

export const notificationMessages = {
  /** Spec 2 §4: the summary's success snackbar after a save. */
  saved: "Notification settings has been updated successfully!",
  /** Spec 2 §8: a save that fails. */
  failed: "Error occured! couldn't save data",
  /** Ours: the spec's "Nochange" result (the page stays). */
  unchanged: "Nothing to save: the notification settings are unchanged.",
  /** Ours: spec 2 §5 enables Save only with at least one recipient; said when posted without. */
  noRecipient: "Add at least one recipient before saving.",
  /** Ours: the spec names the simple email pattern but no message; the shared rules' wording. */
  invalidEmail: invalidFieldMessage("Email"),
  /** Ours: a threshold that is ON must be a whole percent. */
  threshold: "Enter a whole percent from 1 to 100",
  /** Ours: a cap on the recipients list (the spec gives none). */
  tooManyRecipients: "At most 50 recipients",
  /** Spec 2 §8: the archive download when nothing was generated for the date. */
  noNotifications: "No notifications for this date",
} as const;

export const THRESHOLD_MIN = 1;
export const THRESHOLD_MAX = 100;
export const MAX_RECIPIENTS = 50;
/** What an OFF threshold shows when turned ON again (the spec's first defaults). */
export const THRESHOLD_SUGGESTION = { adherence: 70, spo2: 90 } as const;

/** The form as the page shows it: what was posted (or stored), valid or not. */
export type NotificationFormValues = {
  days: WeekdayName[];
  recipients: string[];
  newRecipient: string;
  adherenceOn: boolean;
  adherence: string;
  spo2On: boolean;
  spo2: string;
  therapyAdjustment: boolean;
};

export type NotificationFormErrors = Partial<
  Record<"newRecipient" | "recipients" | "adherence" | "spo2" | "days", string>
>;

const normalizeEmail = (value: string) => value.trim().toLowerCase();

export const recipientEmail = z
  .string()
  .transform(normalizeEmail)
  .pipe(
    z
      .string()
      .min(1, REQUIRED_MESSAGE)
      .max(EMAIL_MAX, notificationMessages.invalidEmail)
      .regex(EMAIL_REGEX, notificationMessages.invalidEmail),
  );

const threshold = z.coerce
  .number({ invalid_type_error: notificationMessages.threshold })
  .int(notificationMessages.threshold)
  .min(THRESHOLD_MIN, notificationMessages.threshold)
  .max(THRESHOLD_MAX, notificationMessages.threshold);

/** What Save stores: OFF thresholds are 0 (spec 2 §4). */
export const notificationSettingsSchema = z
  .object({
    days: z.array(z.enum(WEEKDAY_NAMES)),
    recipients: z
      .array(recipientEmail)
      .min(1, notificationMessages.noRecipient)
      .max(MAX_RECIPIENTS, notificationMessages.tooManyRecipients),
    adherenceOn: z.boolean(),
    adherence: z.string(),
    spo2On: z.boolean(),
    spo2: z.string(),
    therapyAdjustment: z.boolean(),
  })
  .superRefine((v, ctx) => {
    for (const key of ["adherence", "spo2"] as const) {
      if (v[`${key}On`] && !threshold.safeParse(v[key].trim()).success) {
        ctx.addIssue({ code: "custom", path: [key], message: notificationMessages.threshold });
      }
    }
  })
  .transform((v) => ({
    days: WEEKDAY_NAMES.filter((d) => v.days.includes(d)),
    recipients: [...new Set(v.recipients)],
    adherence: v.adherenceOn ? Number(v.adherence.trim()) : 0,
    spo2: v.spo2On ? Number(v.spo2.trim()) : 0,
    therapyAdjustment: v.therapyAdjustment,
  }));

export type NotificationSettingsData = z.output<typeof notificationSettingsSchema>;

const str = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");
const strings = (values: FormDataEntryValue[]) =>
  values.filter((v): v is string => typeof v === "string");

/**
 * The form's values as posted: unknown days are dropped, recipients normalised and de-duplicated
 * (the spec's "duplicates ignored"), text capped so a huge post cannot be echoed back.
 */
export function readNotificationForm(form: FormData): NotificationFormValues {
  const days = strings(form.getAll("days"));
  const recipients = strings(form.getAll("recipients"))
    .slice(0, MAX_RECIPIENTS + 1)
    .map(normalizeEmail)
    .filter((r) => r.length > 0 && r.length <= EMAIL_MAX);
  return {
    days: WEEKDAY_NAMES.filter((d) => days.includes(d)),
    recipients: [...new Set(recipients)],
    newRecipient: str(form.get("newRecipient")).slice(0, EMAIL_MAX + 1),
    adherenceOn: form.get("adherenceOn") === "on",
    adherence: str(form.get("adherence")).slice(0, 10),
    spo2On: form.get("spo2On") === "on",
    spo2: str(form.get("spo2")).slice(0, 10),
    therapyAdjustment: form.get("therapyAdjustment") === "on",
  };
}

/** The first message of each field of a failed parse. */
export function notificationFormErrors(error: z.ZodError): NotificationFormErrors {
  const errors: NotificationFormErrors = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (key === "adherence" || key === "spo2" || key === "days") errors[key] ??= issue.message;
    else if (key === "recipients") errors.recipients ??= issue.message;
  }
  return errors;
}

/** Add: the typed address joins the chips (not saved yet); a duplicate is ignored. */
export function addRecipient(values: NotificationFormValues): {
  values: NotificationFormValues;
  error?: string;
} {
  if (values.newRecipient.trim() === "") return { values };
  const parsed = recipientEmail.safeParse(values.newRecipient);
  if (!parsed.success) return { values, error: parsed.error.issues[0].message };
  if (values.recipients.includes(parsed.data)) return { values: { ...values, newRecipient: "" } };
  if (values.recipients.length >= MAX_RECIPIENTS)
    return { values, error: notificationMessages.tooManyRecipients };
  return {
    values: { ...values, recipients: [...values.recipients, parsed.data], newRecipient: "" },
  };
}

export function removeRecipient(values: NotificationFormValues, email: string) {
  const target = normalizeEmail(email);
  return { ...values, recipients: values.recipients.filter((r) => r !== target) };
}

// --- The page's address: /app/notificationsettings?p=<base64 of {"clinicId": …}> ---------------

function toBase64(text: string) {
  return typeof Buffer !== "undefined" ? Buffer.from(text).toString("base64") : btoa(text);
}

function fromBase64(text: string) {
  return typeof Buffer !== "undefined" ? Buffer.from(text, "base64").toString("utf8") : atob(text);
}

export function notificationSettingsHref(careSiteId: string) {
  const p = toBase64(JSON.stringify({ clinicId: careSiteId }));
  return `/app/notificationsettings?p=${encodeURIComponent(p)}`;
}

const settingsParam = z.object({ clinicId: z.string().min(1).max(100) });

/** The care site id of a `p` parameter; null when it is not one of ours. */
export function readNotificationSettingsParam(p: string): string | null {
  if (p.length > 1000) return null;
  try {
    const parsed = settingsParam.safeParse(JSON.parse(fromBase64(p)));
    return parsed.success ? parsed.data.clinicId : null;
  } catch {
    return null;
  }
}
