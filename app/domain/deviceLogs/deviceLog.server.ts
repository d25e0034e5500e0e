// Uploaded device logs (spec 3 §2.7, §2.8; DEVICE-LOG-FORMAT.md). An upload (upload.server.ts)
// streams through the decrypter while it is written to DATA_DIR/devicelogs/.incoming; only a log
// read to its #END record is moved into place and gets its LogFile row, whose id (a random uuid)
// is the only key to it. Beside the encrypted file as received, the decrypt worker writes its
// parsed forms once, sealed (parsedLog.server.ts): the cough model for the therapy dashboard and
// its PDF, the rows for the CSV. Opening a log again reads those, never decrypts the upload again
// (unless they are missing or were sealed under another secret). Models in use are kept in memory
// up to MODEL_CACHE_BYTES in all. A job removes uploads and their parsed forms 24 hours after they
// arrive (purgeExpiredLogFiles).
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { csvChunks } from "~/lib/csv";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { TOO_MANY_REQUESTS } from "~/lib/throttle.server";
import { DECRYPT_DIALOG } from "~/domain/deviceLogs/decryptDialog";
import { rangeMessages } from "~/lib/dateRange";
import { parseIsoDay, type DayRange } from "~/domain/deviceLogs/calendar";
import { dayBounds, packStamp, stampDay } from "~/domain/deviceLogs/calendar";
import { csvRowOf, DEVICE_LOG_CSV_FIELDS, type DeviceLogCsvRow } from "~/domain/deviceLogs/csv";
import {
  keyOfLog,
  parsedDir,
  parsedFiles,
  parsedPaths,
  readModelInWorker,
  startDecryptJob,
} from "~/domain/deviceLogs/decryptJob.server";
import { describeLogFile, type DeviceType } from "~/domain/deviceLogs/fileName";
import {
  DeviceLogError,
  deviceDateNote,
  INVALID_FILE_NAME,
  OUTCOME_MESSAGES,
  type DeviceLogOutcome,
} from "~/domain/deviceLogs/messages";
import type { CoughLogModel } from "~/domain/deviceLogs/model";
import { keepSummary } from "~/domain/deviceLogs/summary";
import {
  ParsedLogStale,
  ParsedLogTampered,
  readRowsFile,
} from "~/domain/deviceLogs/parsedLog.server";
import { createLimiter } from "~/lib/limiter";

/** The multipart field of the file (spec 3 §7.4). */
export const LOG_FILE_FIELD = "uploaded-csv";
/** Uploads are deleted this long after they arrive (issue 7). */
export const LOG_FILE_LIFETIME_MS = 24 * 3_600_000;
/**
 * Cough models kept in memory for the dashboard, in bytes (all together, least recently used
 * dropped first); others are read again from their parsed form. A 200 MB log's model is about
 * 67 MB: one of those stays beside a few small ones, within the server's 300 MB budget (issue 23
 * item 7). A model bigger than the bound is read for each request and not kept; reads run one at a
 * time (modelReads), so concurrent first opens of several big logs do not read them all at once.
 */
export const MODEL_CACHE_BYTES = 96 << 20;
const modelReads = createLimiter(1, 64);
/** A part-written upload older than this was cut off by a crash or restart. */
const STALE_INCOMING_MS = 3_600_000;

export type UploadFailure =
  DeviceLogOutcome | "fileName" | "missing" | "tooLarge" | "failed" | "busy";

export function uploadFailureMessage(failure: UploadFailure) {
  switch (failure) {
    case "fileName":
      return INVALID_FILE_NAME;
    case "missing":
      return "Please choose a log file.";
    case "tooLarge":
      return `The file is too large. Log files up to ${Math.floor(env.deviceLogMaxBytes / 1048576)} MB are accepted.`;
    case "failed":
      return "Something Went Wrong, Please Try Again!";
    case "busy":
      return TOO_MANY_REQUESTS;
    default:
      return OUTCOME_MESSAGES[failure];
  }
}

const UPLOAD_FAILURES = new Set<string>([
  "alreadyDecrypted",
  "invalidFile",
  "corrupted",
  "fileName",
  "missing",
  "tooLarge",
  "failed",
  "busy",
]);
export const isUploadFailure = (text: string | null): text is UploadFailure =>
  text !== null && UPLOAD_FAILURES.has(text);

export type UploadResult = { ok: true; id: string } | { ok: false; failure: UploadFailure };

const logRoot = () => path.join(env.dataDir, "devicelogs");
export const incomingDir = () => path.join(logRoot(), ".incoming");
export const storagePathOf = (id: string) => path.posix.join("devicelogs", `${id}.log`);
export const absolute = (storagePath: string) => path.join(env.dataDir, storagePath);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export type LogFileRecord = NonNullable<Awaited<ReturnType<typeof findLogFile>>>;

/** The upload a uuid names, unless it expired; null for anything else (never a list). */
export async function findLogFile(uuid: string | null, now = new Date()) {
  if (!uuid || !UUID.test(uuid)) return null;
  const row = await prisma.logFile.findUnique({ where: { id: uuid } });
  if (!row || row.expiresAt <= now) return null;
  return row;
}

// Least recently used first: a Map iterates in insertion order.
const models = new Map<string, { model: CoughLogModel; bytes: number }>();
let cachedBytes = 0;

let limitBytes = MODEL_CACHE_BYTES;

/** The models in memory (tests and the bench read it): how many, their bytes, the bound. */
export const modelCache = {
  get limitBytes() {
    return limitBytes;
  },
  set limitBytes(bytes: number) {
    limitBytes = bytes;
    while (cachedBytes > limitBytes) forgetModel(models.keys().next().value!);
  },
  has: (id: string) => models.has(id),
  get size() {
    return models.size;
  },
  get bytes() {
    return cachedBytes;
  },
  clear() {
    models.clear();
    cachedBytes = 0;
  },
};

function forgetModel(id: string) {
  const entry = models.get(id);
  if (!entry) return;
  models.delete(id);
  cachedBytes -= entry.bytes;
}

/** Keeps a model in memory, dropping the least recently used beyond the bound (a model bigger
 * than the bound is not kept at all). */
export function rememberModel(id: string, model: CoughLogModel, bytes: number) {
  forgetModel(id);
  if (bytes > limitBytes) return;
  models.set(id, { model, bytes });
  cachedBytes += bytes;
  while (cachedBytes > limitBytes) forgetModel(models.keys().next().value!);
}

/** Reads again from the stored upload, one log at a time (the worker runs beside the server). */
const rebuilds = createLimiter(1, 32);
const rebuilding = new Map<string, Promise<void>>();

/**
 * Decrypts a stored upload again in the worker, writing its parsed forms: for an upload whose
 * parsed forms are missing (made before they existed) or sealed under another secret.
 */
function rebuildParsed(file: LogFileRecord) {
  let pending = rebuilding.get(file.id);
  if (!pending) {
    pending = rebuilds
      .run(async () => {
        const job = startDecryptJob({
          id: file.id,
          deviceType: file.deviceType as DeviceType,
          source: absolute(file.storagePath),
        });
        try {
          await job.finish();
        } catch (error) {
          await job.abort();
          // The file passed every check on arrival: changed on disk, or its key was removed since.
          if (error instanceof DeviceLogError)
            logger.error("stored device log unreadable", { id: file.id });
          throw error;
        }
      })
      .finally(() => rebuilding.delete(file.id));
    rebuilding.set(file.id, pending);
  }
  return pending;
}

/** Runs `read` on the parsed forms, rebuilding them first when they are missing or stale. */
async function fromParsed<T>(file: LogFileRecord, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ParsedLogTampered) {
      logger.error("parsed device log fails authentication", { id: file.id });
      throw error;
    }
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    if (!missing && !(error instanceof ParsedLogStale)) throw error;
  }
  await rebuildParsed(file);
  return read();
}

const loading = new Map<string, Promise<CoughLogModel>>();

/**
 * The cough model of an upload: from memory, or read from its parsed form (never re-decrypted
 * while that form is there and authentic; a tampered one throws ParsedLogTampered). Read from
 * disk, it comes with its summary of `range` (summaryOf), computed in the worker.
 */
export async function loadCoughModel(file: LogFileRecord, range?: DayRange) {
  if (file.deviceType !== "cough") throw new Error("only cough logs have a model");
  const cached = models.get(file.id);
  if (cached) {
    rememberModel(file.id, cached.model, cached.bytes);
    return cached.model;
  }
  let pending = loading.get(file.id);
  if (!pending) {
    // Read, authenticated and decrypted in a worker: the main thread only assembles the columns.
    pending = fromParsed(file, () => modelReads.run(() => readModelInWorker(file.id, range)))
      .then(({ model, bytes, summary }) => {
        if (summary) keepSummary(model, summary.range, summary.value);
        rememberModel(file.id, model, bytes);
        return model;
      })
      .finally(() => loading.delete(file.id));
    loading.set(file.id, pending);
  }
  return pending;
}

/** The log's rows of a range (by their own date), from its parsed form. */
async function* storedCsvRows(
  file: LogFileRecord,
  range: DayRange,
): AsyncGenerator<DeviceLogCsvRow, void, undefined> {
  const { from, to } = dayBounds(range);
  const { rowsPath } = parsedPaths(file.id);
  // The first segment is read (the file found, and authentic) before any row goes out.
  const first = await fromParsed(file, async () => {
    const source = readRowsFile(rowsPath, keyOfLog(file.id), file.id);
    return { source, next: await source.next() };
  });
  let next = first.next;
  while (!next.done) {
    const row = next.value;
    const day = stampDay(packStamp(row.timeStamp));
    if (day >= from && day <= to) {
      yield csvRowOf(row);
    }
    next = await first.source.next();
  }
}

/**
 * The decrypted log as CSV (rows of the range by their own date), streamed from its parsed form:
 * the CSV writer (lib/csv) writes the log's plain header and quotes only where a field needs it
 * (a Value holding commas).
 */
export function logCsvStream(file: LogFileRecord, range: DayRange): ReadableStream<Uint8Array> {
  const csv = csvChunks(storedCsvRows(file, range), {
    fields: [...DEVICE_LOG_CSV_FIELDS],
    quote: "needed",
  });
  return Readable.toWeb(Readable.from(csv)) as ReadableStream<Uint8Array>;
}

/** The CSV's file name: the upload's name with the range, e.g. C1001_..._system_decrypted.csv. */
export function logCsvFileName(file: LogFileRecord, range: DayRange) {
  const base = file.fileName.replace(/\.csv$/, "");
  const span = range.from || range.to ? `_${range.from ?? "start"}_${range.to ?? "end"}` : "";
  return `${base}_decrypted${span}.csv`;
}

/**
 * Removes uploads whose 24 hours are over with their parsed forms (row first, then files: a crash
 * in between leaves stray files, which the sweep below removes), files without a row, and
 * part-written uploads.
 */
export async function purgeExpiredLogFiles(now = new Date()) {
  const expired = await prisma.logFile.findMany({
    where: { expiresAt: { lte: now } },
    select: { id: true, storagePath: true },
  });
  for (const row of expired) {
    await prisma.logFile.deleteMany({ where: { id: row.id } });
    forgetModel(row.id);
    await fsp.rm(absolute(row.storagePath), { force: true });
    await Promise.all(parsedFiles(row.id).map((f) => fsp.rm(f, { force: true })));
  }
  let strays = 0;
  const known = new Set(
    (await prisma.logFile.findMany({ select: { storagePath: true } })).map((r) => r.storagePath),
  );
  for (const entry of await listDir(logRoot())) {
    if (!entry.endsWith(".log")) continue;
    const storagePath = path.posix.join("devicelogs", entry);
    const stat = await fsp.stat(absolute(storagePath)).catch(() => null);
    // A file renamed into place a moment ago may be waiting for its row to commit.
    if (!known.has(storagePath) && stat && now.getTime() - stat.mtimeMs > STALE_INCOMING_MS) {
      await fsp.rm(absolute(storagePath), { force: true });
      strays += 1;
    }
  }
  // Parsed forms whose upload has no row (its purge was cut short, or it never got one).
  const knownIds = new Set([...known].map((p) => path.posix.basename(p, ".log")));
  for (const entry of await listDir(parsedDir())) {
    const file = path.join(parsedDir(), entry);
    const stat = await fsp.stat(file).catch(() => null);
    if (
      !knownIds.has(entry.split(".")[0]) &&
      stat &&
      now.getTime() - stat.mtimeMs > STALE_INCOMING_MS
    ) {
      await fsp.rm(file, { force: true });
      strays += 1;
    }
  }
  for (const entry of await listDir(incomingDir())) {
    const file = path.join(incomingDir(), entry);
    const stat = await fsp.stat(file).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs > STALE_INCOMING_MS) {
      await fsp.rm(file, { force: true });
      strays += 1;
    }
  }
  return { expired: expired.length, strays };
}

async function listDir(dir: string) {
  try {
    return await fsp.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** DD-MM-YYYY (the summary's form) as YYYY-MM-DD. */
export const dmyToIso = (dmy: string) => `${dmy.slice(6)}-${dmy.slice(3, 5)}-${dmy.slice(0, 2)}`;

/** A From/To pair from a query: real YYYY-MM-DD dates or nothing, and the spec's two messages. */
export function readLogRange(from: string | null, to: string | null) {
  const valid = (text: string | null) => {
    if (!text || !ISO_DAY.test(text)) return undefined;
    try {
      parseIsoDay(text);
      return text;
    } catch {
      return undefined;
    }
  };
  const range: DayRange = { from: valid(from), to: valid(to) };
  const swapped = Boolean(range.from && range.to && range.from > range.to);
  return {
    range,
    errors: swapped
      ? { from: rangeMessages.fromAfterTo, to: rangeMessages.toBeforeFrom }
      : { from: null, to: null },
  };
}

/** What the decrypt dialog shows (spec 3 §2.8): the upload form, or an upload's result view. */
export async function loadDecryptDialog(search: URLSearchParams, now = new Date()) {
  if (search.get("dialog") !== DECRYPT_DIALOG) return null;
  const maxBytes = env.deviceLogMaxBytes;
  const uuid = search.get("log");
  const file = await findLogFile(uuid, now);
  if (!file) {
    const error = search.get("error");
    return {
      step: "choose" as const,
      maxBytes,
      error: isUploadFailure(error)
        ? uploadFailureMessage(error)
        : uuid
          ? "This log file is no longer here: uploads are deleted after 24 hours. Please upload it again."
          : null,
    };
  }
  const { range, errors } = readLogRange(search.get("from"), search.get("to"));
  const described = describeLogFile(file.fileName, file.sizeBytes);
  if (!described.ok) throw new Error(`stored log ${file.id} has an invalid name`);
  const years = {
    startYear: Number(file.logsFrom?.slice(0, 4) ?? now.getFullYear()),
    endYear: Number(file.logsTo?.slice(0, 4) ?? now.getFullYear()),
  };
  const rangeOk = !errors.from;
  const dashboard = new URLSearchParams({
    uuid: file.id,
    id: file.deviceSerial,
    startDate: range.from ?? (file.firstTherapyAt ? dmyToIso(file.firstTherapyAt) : ""),
    endDate: range.to ?? (file.lastTherapyAt ? dmyToIso(file.lastTherapyAt) : ""),
  });
  return {
    step: "result" as const,
    maxBytes,
    file: {
      uuid: file.id,
      fileName: file.fileName,
      deviceId: file.deviceSerial,
      deviceType: file.deviceType as DeviceType,
      date: described.meta.date.split("-").reverse().join(""),
      time: described.meta.time.replace(/:/g, ""),
      sizeKB: described.meta.sizeKB,
      estimatedSeconds: described.meta.estimatedSeconds,
      startDate: file.firstTherapyAt,
      endDate: file.lastTherapyAt,
      logsFrom: file.logsFrom,
      logsTo: file.logsTo,
      expiresAt: file.expiresAt.toISOString(),
    },
    range: { from: search.get("from") ?? "", to: search.get("to") ?? "" },
    errors,
    dateNote: deviceDateNote(years, now),
    dashboardHref: rangeOk && file.deviceType === "cough" ? `/decrypt?${dashboard}` : null,
  };
}

export type DecryptDialogData = NonNullable<Awaited<ReturnType<typeof loadDecryptDialog>>>;
