// A decrypted log as CSV rows (both device types): the five columns of the log's header, the
// Value as the device wrote it. Rows stream out as they are decrypted, so a corrupted file can
// fail after some rows: write to a temporary file and keep it only when iteration completes.
//
// The CSV writer (lib/csv) with `{ fields: [...DEVICE_LOG_CSV_FIELDS], quote: "needed" }` writes
// the log's text back: the plain header, quotes only where a field needs them (and a Value that
// would start a spreadsheet formula behind a single quote). Default quoting is valid CSV too, and
// uploading either form again is recognised as already decrypted.
import { dayBounds, stampDay, type DayRange } from "./calendar";
import { readDeviceLog, type DeviceLogOptions, type LogSource } from "./reader";
import { LOG_HEADER_FIELDS } from "./rows";

export const DEVICE_LOG_CSV_FIELDS = LOG_HEADER_FIELDS;

export type DeviceLogCsvRow = {
  "Event ID": number;
  "Event Type": string;
  "Log Type": string;
  "Time Stamp": string;
  Value: string;
};

/** A record as its CSV row (the columns of DEVICE_LOG_CSV_FIELDS). */
export function csvRowOf(row: {
  eventId: DeviceLogCsvRow["Event ID"];
  eventType: DeviceLogCsvRow["Event Type"];
  logType: DeviceLogCsvRow["Log Type"];
  timeStamp: DeviceLogCsvRow["Time Stamp"];
  value: DeviceLogCsvRow["Value"];
}): DeviceLogCsvRow {
  return {
    "Event ID": row.eventId,
    "Event Type": row.eventType,
    "Log Type": row.logType,
    "Time Stamp": row.timeStamp,
    Value: row.value,
  };
}

/**
 * The log's rows for CSV output; with a range, only rows whose own Time Stamp date lies within
 * From..To (inclusive). Throws a DeviceLogError at the first fault.
 */
export async function* deviceLogCsvRows(
  source: LogSource,
  options: DeviceLogOptions & DayRange,
): AsyncGenerator<DeviceLogCsvRow, void, undefined> {
  const { from, to } = dayBounds(options);
  for await (const row of readDeviceLog(source, options)) {
    const day = stampDay(row.stamp);
    if (day < from || day > to) continue;
    yield csvRowOf(row);
  }
}
