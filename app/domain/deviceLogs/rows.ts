// A decrypted data row (DEVICE-LOG-FORMAT.md "Rows") and its Value's KEY:value pairs.

export const LOG_HEADER_FIELDS = [
  "Event ID",
  "Event Type",
  "Log Type",
  "Time Stamp",
  "Value",
] as const;
/** Record 0 of every log, and the first line of a log that was already decrypted. */
export const LOG_HEADER = LOG_HEADER_FIELDS.join(",");

export const EVENT_TYPES = ["THERAPY", "CYCLE", "SETTINGS", "SYSTEM", "ALARM"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const LOG_TYPES = ["INFO", "WARNING", "ERROR"] as const;
export type LogType = (typeof LOG_TYPES)[number];

export type ValuePair = [key: string, value: string];

/** Line 1 of an encrypted log (DEVICE-LOG-FORMAT.md "Container"): its key id and device. */
export type DeviceLogHeader = { keyId: string; deviceId: string };

export type DeviceLogRow = {
  /** Record index in the file (1 for the first data row, on line 3). */
  record: number;
  eventId: number;
  eventType: EventType;
  logType: LogType;
  /** As written: `YYYY-MM-DD HH:mm:ss`, device local time, not necessarily a real date. */
  timeStamp: string;
  /** timeStamp packed as yyyymmddhhmmss (calendar.ts). */
  stamp: number;
  /** As written, for CSV output. */
  value: string;
  pairs: ValuePair[];
};

const PAIR_START = /^([A-Za-z][A-Za-z0-9_]*):/;

/**
 * `KEY:value` pairs joined by commas. A piece without a `KEY:` of its own continues the previous
 * value (an alarm's MSG may hold a comma). Returns null when the Value does not start with a pair;
 * an empty Value has no pairs.
 */
export function parseValuePairs(value: string): ValuePair[] | null {
  const pairs: ValuePair[] = [];
  if (value === "") return pairs;
  for (const piece of value.split(",")) {
    const m = PAIR_START.exec(piece);
    if (m) pairs.push([m[1], piece.slice(m[1].length + 1)]);
    else if (pairs.length === 0) return null;
    else pairs[pairs.length - 1][1] += `,${piece}`;
  }
  return pairs;
}

const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A decimal number as written, or NaN (missing, `false`, anything else). */
export function decimal(text: string | undefined) {
  return text !== undefined && DECIMAL.test(text) ? Number(text) : NaN;
}
