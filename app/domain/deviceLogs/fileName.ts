// The log file's name (DEVICE-LOG-FORMAT.md "File name"): what it tells before the file is read.
import { isRealDate, isRealTime } from "./calendar";
import { INVALID_FILE_NAME } from "./messages";

export type DeviceType = "cough" | "clear";

export type LogFileMeta = {
  fileName: string;
  deviceId: string;
  deviceType: DeviceType;
  prefix: "C" | "K";
  /** YYYY-MM-DD */
  date: string;
  /** HH:mm:ss */
  time: string;
};

export type ParsedLogFileName = { ok: true; meta: LogFileMeta } | { ok: false; message: string };

const LOG_FILE_NAME =
  /^([CK])([A-Za-z0-9]+)_(\d{2})(\d{2})(\d{4})_(\d{2})(\d{2})(\d{2})_system\.csv$/;

export function parseLogFileName(name: string): ParsedLogFileName {
  const m = LOG_FILE_NAME.exec(name);
  if (!m) return { ok: false, message: INVALID_FILE_NAME };
  const [, prefix, deviceId, dd, mm, yyyy, hh, mi, ss] = m;
  if (!isRealDate(Number(yyyy), Number(mm), Number(dd)) || !isRealTime(+hh, +mi, +ss))
    return { ok: false, message: INVALID_FILE_NAME };
  return {
    ok: true,
    meta: {
      fileName: name,
      deviceId,
      deviceType: prefix === "C" ? "cough" : "clear",
      prefix: prefix as "C" | "K",
      date: `${yyyy}-${mm}-${dd}`,
      time: `${hh}:${mi}:${ss}`,
    },
  };
}

/** Seconds of processing per KB of log (spec 3 §9). */
export const SECONDS_PER_KB = 0.27;
/** A KB here is 1024 bytes. */
export const BYTES_PER_KB = 1024;

/** The estimate shown before processing: 0.27 s per KB, KB = 1024 bytes; unrounded. */
export function estimateSeconds(sizeBytes: number) {
  return (sizeBytes / BYTES_PER_KB) * SECONDS_PER_KB;
}

export type LogFileDescription = LogFileMeta & { sizeKB: number; estimatedSeconds: number };

/** The metadata the decryption dialog shows before processing (spec 3 §2.8); numbers unrounded. */
export function describeLogFile(
  name: string,
  sizeBytes: number,
): { ok: true; meta: LogFileDescription } | { ok: false; message: string } {
  const parsed = parseLogFileName(name);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    meta: {
      ...parsed.meta,
      sizeKB: sizeBytes / BYTES_PER_KB,
      estimatedSeconds: estimateSeconds(sizeBytes),
    },
  };
}
