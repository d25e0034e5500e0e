// The patient profile's inputs (spec 3 §4, §5, §8, §9) with the spec's texts; "ours" marks texts the
// spec does not give. Pure: the page and its tests share them.
import { z } from "zod";

export const PATIENT_TAG_MAX = 25;
export const MAX_THERAPIES_PER_DAY = 24;
export const NOTE_MAX = 1000;
/** The therapy day picker's first day (spec 3 §5). */
export const FIRST_THERAPY_DAY = "2022-01-01";
export const GOAL_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type GoalWeekday = (typeof GOAL_WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<GoalWeekday, string> = {
  mon: "Mon",
  tue: "Tue",
  wed: "Wed",
  thu: "Thu",
  fri: "Fri",
  sat: "Sat",
  sun: "Sun",
};

export const profileMessages = {
  patientTagRequired: "Enter a Patient ID  to continue.",
  patientTagTooLong: "Must be less than 25 characters.",
  patientTagSaved: "Patient Id saved.", // ours
  goalSaved: "Therapy Goals are set successfully",
  goalFailed: "An error occured while saving Therapy Goals, Try again later",
  goalTooMany: "Number of therapies per day can not greater than 24",
  goalDigitsOnly: "Enter digits only in Number of therapies per day.", // ours: JS ignores the keystroke
  goalNoDays: "Select at least one day.", // ours: the spec disables Submit instead
  goalNoCount: "Enter a number of therapies per day above 0.", // ours: likewise
  goalNoDevice: "Therapy goals need a paired device.", // ours: the button is disabled without pair_id
  noteSaved: "Notes added successfully",
  noteRequired: "Enter a note.", // ours
  noteTooLong: `A note can have at most ${NOTE_MAX} characters.`, // ours
  activated: "Patient profile has been activated!",
  deactivated: "Patient profile has been deactivated.", // ours
  activateQuestion: "Activate the account",
  deactivateQuestion: "Deactivate the account", // ours, by symmetry with activateQuestion
  downloadFailed: "Download Failed",
} as const;

/** Pairing a device on the profile: all ours (the spec has no pairing texts; docs/decisions.md). */
export const pairingMessages = {
  serialRequired: "Enter the device serial.",
  /** Also the answer for a device paired at another care site: serials cannot be found out. */
  noDevice: "No device with this serial.",
  paired: "Device paired.",
  moved: "Device moved.",
  unpaired: "Device unpaired.",
  pairedElsewhere:
    "This patient's device was paired at another care site and can only be unpaired there.",
  moveTitle: "Move device",
  moveConfirm: "Move device",
  moveCancel: "Cancel",
  /** A Pair device post while the patient has a device (a page shown before it was paired). */
  patientHasDevice: "This patient already has a paired device. Unpair it first.",
  unpairTitle: "Unpair device",
  unpairConfirm: "Unpair",
  unpairCancel: "Cancel",
} as const;

/** The confirmation before the patient's device is unpaired. */
export function unpairDeviceQuestion(serial: string, patient: string) {
  return (
    `Unpair device ${serial} from ${patient}? ` +
    `Its therapy data will no longer reach ${patient}'s profile.`
  );
}

/**
 * The `confirm` of the account dialogs' Yes. A post that turns the account on or off without it
 * (a form of a page that did not ask, a forged post) gets the dialog instead.
 */
export const ACCOUNT_CONFIRMED = "1";

/** The confirmation before a device is taken from another patient of the care site. */
export function moveDeviceQuestion(serial: string, from: string, to: string) {
  return (
    `This device (${serial}) is paired with ${from}. Moving it ends that pairing, ` +
    `and from now on its transmissions go to ${to}.`
  );
}

export const patientTagSchema = z
  .string({
    required_error: profileMessages.patientTagRequired,
    invalid_type_error: profileMessages.patientTagRequired,
  })
  .trim()
  .min(1, profileMessages.patientTagRequired)
  .max(PATIENT_TAG_MAX, profileMessages.patientTagTooLong);

export const noteSchema = z
  .string({
    required_error: profileMessages.noteRequired,
    invalid_type_error: profileMessages.noteRequired,
  })
  .trim()
  .min(1, profileMessages.noteRequired)
  .max(NOTE_MAX, profileMessages.noteTooLong);

/**
 * The profile page's buttons (`name="intent"`); any other intent is a 400. `confirm` is what a
 * confirmation dialog's form adds: ACCOUNT_CONFIRMED for the account switch, the id of the pairing
 * the dialog showed for Unpair and Move device.
 */
export const PROFILE_INTENTS = [
  "patientTag",
  "activate",
  "deactivate",
  "note",
  "goal-minus",
  "goal-plus",
  "goal",
  "pair",
  "unpair",
] as const;
export const profileIntentSchema = z.object({
  intent: z.enum(PROFILE_INTENTS),
  confirm: z.unknown().transform((v) => (typeof v === "string" ? v : null)),
});

export const patientTagFormSchema = z.object({ patientTag: patientTagSchema });
export const noteFormSchema = z.object({ note: noteSchema });

/**
 * The per-day count as typed: digits only (a non-digit is ignored, spec 3 §5), at most 3 of them;
 * empty stays empty (allowed while typing).
 */
export function cleanCount(raw: unknown) {
  return (typeof raw === "string" ? raw : "").replace(/\D/g, "").slice(0, 3);
}

/** The ticked weekdays in week order (a form sends one value as a string, several as a list). */
export function tickedDays(raw: unknown): GoalWeekday[] {
  const ticked = new Set((Array.isArray(raw) ? raw : [raw]).map(String));
  return GOAL_WEEKDAYS.filter((d) => ticked.has(d));
}

/** The minus and plus buttons: never below 0, never above 24 (an empty box counts as 0). */
export function stepCount(count: string, step: -1 | 1) {
  const n = count === "" ? 0 : Number(count);
  return String(Math.min(MAX_THERAPIES_PER_DAY, Math.max(0, n + step)));
}

export type GoalDraft = { days: GoalWeekday[]; count: string };

/** The goal form's fields as the dialog shows them again: the ticked weekdays and the cleaned count. */
export function goalDraftOf(values: Record<string, unknown>): GoalDraft {
  return { days: tickedDays(values.days), count: cleanCount(values.count) };
}

/** A goal's count in words: "1 therapy", "2 therapies" (issue 22 item 14). */
export function therapiesText(n: number) {
  return `${n} ${n === 1 ? "therapy" : "therapies"}`;
}

/** What Submit would refuse (the same rules disable it on the page), or null. */
export function goalProblem(draft: GoalDraft): string | null {
  const n = draft.count === "" ? 0 : Number(draft.count);
  if (n > MAX_THERAPIES_PER_DAY) return profileMessages.goalTooMany;
  if (n < 1) return profileMessages.goalNoCount;
  if (draft.days.length === 0) return profileMessages.goalNoDays;
  return null;
}

/** The goal dialog's fields as typed: never refused (the minus and plus buttons step them). */
export const goalDraftSchema = z.object({
  days: z.unknown().transform(tickedDays),
  count: z.unknown().transform(cleanCount),
});

/** A typed count with something else than digits (spaces around it aside). */
const notDigits = (raw: unknown) => typeof raw === "string" && /\D/.test(raw.trim());

function goalSchemaOf(paired: boolean) {
  return z
    .object({ days: z.unknown(), count: z.unknown() })
    .superRefine((raw, ctx) => {
      const message = !paired
        ? profileMessages.goalNoDevice
        : notDigits(raw.count)
          ? profileMessages.goalDigitsOnly
          : goalProblem(goalDraftOf(raw));
      if (!message) return;
      const field = !paired ? "" : message === profileMessages.goalNoDays ? "days" : "count";
      ctx.addIssue({ code: "custom", path: field ? [field] : [], message });
    })
    .transform(goalDraftOf);
}

/**
 * Submit of the goal dialog: the draft, refused when the count has anything but digits (the
 * browser ignores such a keystroke; without JavaScript it arrives) or by goalProblem's first
 * failing rule; a patient without a paired device can have no goal, whatever the draft (a
 * form-wide message).
 */
export const goalFormSchema = { paired: goalSchemaOf(true), unpaired: goalSchemaOf(false) };

/** Pair device: the serial as typed (Move device adds `confirm`, read with the intent). */
export const pairFormSchema = z.object({
  serial: z
    .string({
      required_error: pairingMessages.serialRequired,
      invalid_type_error: pairingMessages.serialRequired,
    })
    .trim()
    .min(1, pairingMessages.serialRequired),
});

/**
 * Phone display (spec 3 §5): a North American number as (xxx) xxx-xxxx, with +1 before it when
 * the stored number carries the country code; any other number as stored, with a + prefix when
 * it has more than 10 digits.
 */
export function formatPhone(phone: string | null | undefined) {
  const digits = (phone ?? "").replace(/\D/g, "");
  const nanp = (n: string) => `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}`;
  if (digits.length === 10) return nanp(digits);
  if (digits.length === 11 && digits.startsWith("1")) return `+1 ${nanp(digits.slice(1))}`;
  return digits.length > 10 ? `+${digits}` : digits;
}
