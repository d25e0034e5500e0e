// What the user reads about a log file (DEVICE-LOG-FORMAT.md outcomes, spec 3 §8), verbatim,
// misspellings and all, plus the date-plausibility rule (spec 3 §5, §9).

export const INVALID_FILE_NAME =
  "Invalid File uploaded please upload BiWaze System encrypted log file";
export const ALREADY_DECRYPTED = "Looks like you have uploaded already decrypted file";
export const INVALID_FILE =
  "Invalid File uploaded. Please upload BiWaze System encrypted log file.";
export const CORRUPTED =
  "Error occurred! The encrypted file is corrupted. Please re-download it from the device and try again";

/** Device date looks wrong: start year before 2020, or end year after next year. */
export const DEVICE_DATE_NOTE =
  "Note: We found dates on your device system that may be incorrect. Please verify and update the system date to ensure accurate therapy dates moving forward.";
/** A log year is implausible. */
export const LOG_YEAR_WARNING =
  "We found dates on your device system that may be incorrect; please verify and update the system date.";

export const MIN_PLAUSIBLE_YEAR = 2020;

export type DeviceLogOutcome = "alreadyDecrypted" | "invalidFile" | "corrupted";

/** The user's text for each refusal outcome. */
export const OUTCOME_MESSAGES: Record<DeviceLogOutcome, string> = {
  alreadyDecrypted: ALREADY_DECRYPTED,
  invalidFile: INVALID_FILE,
  corrupted: CORRUPTED,
};

/**
 * Why a log was refused. `message` is the user's text; `reason` says what was wrong and where,
 * for logs only (it never holds decrypted content).
 */
export class DeviceLogError extends Error {
  readonly outcome: DeviceLogOutcome;
  readonly reason: string;
  constructor(outcome: DeviceLogOutcome, reason: string) {
    super(OUTCOME_MESSAGES[outcome]);
    this.name = "DeviceLogError";
    this.outcome = outcome;
    this.reason = reason;
  }
}

/** A year is plausible from 2020 to the current year plus one; `now` is the caller's clock. */
export function isPlausibleYear(year: number, now: Date) {
  return year >= MIN_PLAUSIBLE_YEAR && year <= now.getFullYear() + 1;
}

/** The device-date note for a log whose dates run from startYear to endYear, or null. */
export function deviceDateNote(years: { startYear: number; endYear: number }, now: Date) {
  return years.startYear < MIN_PLAUSIBLE_YEAR || years.endYear > now.getFullYear() + 1
    ? DEVICE_DATE_NOTE
    : null;
}

/** The warning for one implausible log year, or null. */
export function logYearWarning(year: number, now: Date) {
  return isPlausibleYear(year, now) ? null : LOG_YEAR_WARNING;
}
