// Uploaded device logs (spec 3 §2.7, §2.8; DEVICE-LOG-FORMAT.md). An upload streams through the
// decrypter while it is written to DATA_DIR/devicelogs/.incoming; only a log read to its #END
// record is moved into place and gets its LogFile row, whose id (a random uuid) is the only key
// to it. What is kept is the encrypted file as received: the decrypted rows exist only in memory
// (a small cache of cough models) and in the responses. A job removes uploads 24 hours after they
// arrive (purgeExpiredLogFiles).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { csvChunks } from "~/lib/csv";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { TOO_MANY_REQUESTS } from "~/lib/throttle.server";
import { DECRYPT_DIALOG } from "~/domain/deviceLogs/decryptDialog";
import { rangeMessages } from "~/lib/dateRange";
import {
  formatDayDmy,
  formatStampIso,
  parseIsoDay,
  stampDay,
  type DayRange,
} from "~/domain/deviceLogs/calendar";
import { DEVICE_LOG_CSV_FIELDS, deviceLogCsvRows } from "~/domain/deviceLogs/csv";
import { describeLogFile, parseLogFileName, type DeviceType } from "~/domain/deviceLogs/fileName";
import {
  DeviceLogError,
  deviceDateNote,
  INVALID_FILE_NAME,
  OUTCOME_MESSAGES,
  type DeviceLogOutcome,
} from "~/domain/deviceLogs/messages";
import { buildCoughLog, type CoughLogModel } from "~/domain/deviceLogs/model";
import { DeviceLogDecoder, decryptToRows, type DeviceLogHeader } from "~/domain/deviceLogs/reader";
import type { DeviceLogRow } from "~/domain/deviceLogs/rows";
import { summarize } from "~/domain/deviceLogs/summary";

/** The multipart field of the file (spec 3 §7.4). */
export const LOG_FILE_FIELD = "uploaded-csv";
/** Uploads are deleted this long after they arrive (issue 7). */
export const LOG_FILE_LIFETIME_MS = 24 * 3_600_000;
/** Decrypted cough logs kept in memory for the dashboard; others are read again from disk. */
const MODEL_CACHE_SIZE = 2;
/** Room for the small fields posted beside the file. */
const FORM_SLACK_BYTES = 64 * 1024;
/** Uploads decrypted at once; each cough log is modelled in memory while it streams in. */
const MAX_CONCURRENT_UPLOADS = 3;
let activeUploads = 0;
/** An upload that sends nothing for this long is given up. */
const UPLOAD_IDLE_MS = 30_000;
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
const incomingDir = () => path.join(logRoot(), ".incoming");
const storagePathOf = (id: string) => path.posix.join("devicelogs", `${id}.log`);
const absolute = (storagePath: string) => path.join(env.dataDir, storagePath);

class TooLarge extends Error {}
class Stalled extends Error {}

/** What is learnt from the rows while they stream in. */
function rowTracker(deviceType: DeviceType) {
  const builder = deviceType === "cough" ? buildCoughLog() : null;
  let rows = 0;
  let first = Infinity;
  let last = -Infinity;
  let firstTherapyDay = Infinity;
  let lastTherapyDay = -Infinity;
  return {
    emit(row: DeviceLogRow) {
      rows += 1;
      if (row.stamp < first) first = row.stamp;
      if (row.stamp > last) last = row.stamp;
      if (row.eventType === "THERAPY") {
        const day = stampDay(row.stamp);
        if (day < firstTherapyDay) firstTherapyDay = day;
        if (day > lastTherapyDay) lastTherapyDay = day;
      }
      builder?.add(row);
    },
    finish(header: DeviceLogHeader) {
      const model = builder?.finish(header) ?? null;
      // A cough log's therapy dates are the summary's (real calendar days only).
      const summary = model ? summarize(model) : null;
      return {
        model,
        rows,
        logsFrom: rows > 0 ? formatStampIso(first) : null,
        logsTo: rows > 0 ? formatStampIso(last) : null,
        firstTherapyAt: summary
          ? summary.firstTherapyAt
          : Number.isFinite(firstTherapyDay)
            ? formatDayDmy(firstTherapyDay)
            : null,
        lastTherapyAt: summary
          ? summary.lastTherapyAt
          : Number.isFinite(lastTherapyDay)
            ? formatDayDmy(lastTherapyDay)
            : null,
      };
    },
  };
}

/** The upload as it arrives: its headers (Content-Type, Content-Length) and its body stream. */
export type UploadBody = Pick<Request, "headers" | "body">;

type Received = {
  id: string;
  fileName: string;
  deviceId: string;
  deviceType: DeviceType;
  sizeBytes: number;
  temp: string;
  details: ReturnType<ReturnType<typeof rowTracker>["finish"]>;
};

/**
 * Reads a multipart upload (the file in `uploaded-csv`) as a stream: the name is checked before a
 * byte is kept, every chunk goes through the decrypter as it arrives and to a temporary file, and
 * only a log read to its end is moved into place with its row. A refused file is read to the end
 * of the request and thrown away (so the browser gets the answer); a body over the size limit, or
 * one cut off, stops the reading. Nothing of a refused or partial upload stays behind.
 */
export async function receiveLogUpload(
  upload: UploadBody,
  options: { uploadedById?: string | null; now?: Date } = {},
): Promise<UploadResult> {
  if (activeUploads >= MAX_CONCURRENT_UPLOADS) return { ok: false, failure: "failed" };
  activeUploads += 1;
  try {
    return await receive(upload, options);
  } finally {
    activeUploads -= 1;
  }
}

async function receive(
  upload: UploadBody,
  options: { uploadedById?: string | null; now?: Date },
): Promise<UploadResult> {
  const limit = env.deviceLogMaxBytes;
  const declared = Number(upload.headers.get("content-length") ?? NaN);
  if (declared > limit + FORM_SLACK_BYTES) return { ok: false, failure: "tooLarge" };

  let total = 0;
  let failure: UploadFailure | null = null;
  let received: Received | null = null;
  const temps: string[] = [];

  // Every byte counts towards the limit, and a sender that goes quiet is dropped: a stalled
  // upload must not hold one of the few upload slots until the server's request timeout.
  async function* counted(data: AsyncIterable<Uint8Array>) {
    const chunks = data[Symbol.asyncIterator]();
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Stalled()), UPLOAD_IDLE_MS);
      });
      const next = await Promise.race([chunks.next(), stalled]).finally(() => clearTimeout(timer));
      if (next.done) return;
      total += next.value.byteLength;
      if (total > limit + FORM_SLACK_BYTES) throw new TooLarge();
      yield next.value;
    }
  }
  const drain = async (data: AsyncIterable<Uint8Array>) => {
    for await (const _ of counted(data));
  };

  const handler: UploadHandler = async (part) => {
    if (part.name !== LOG_FILE_FIELD || part.filename === undefined || received || failure) {
      await drain(part.data);
      return undefined;
    }
    if (part.filename === "") {
      await drain(part.data);
      failure = "missing";
      return undefined;
    }
    const name = parseLogFileName(part.filename);
    if (!name.ok) {
      await drain(part.data);
      failure = "fileName";
      return undefined;
    }
    const id = randomUUID();
    await fsp.mkdir(incomingDir(), { recursive: true });
    const temp = path.join(incomingDir(), `${id}.part`);
    temps.push(temp);
    const file = await fsp.open(temp, "wx", 0o600);
    let header: DeviceLogHeader | null = null;
    const decoder = new DeviceLogDecoder({
      keys: env.deviceLogKeys,
      expectedDeviceId: name.meta.deviceId,
      deviceType: name.meta.deviceType,
      onHeader: (h) => (header = h),
    });
    const tracker = rowTracker(name.meta.deviceType);
    let size = 0;
    try {
      for await (const chunk of counted(part.data)) {
        if (failure) continue; // refused: read on to the end, keep nothing
        size += chunk.byteLength;
        if (size > limit) throw new TooLarge();
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        try {
          decoder.write(bytes, tracker.emit);
        } catch (error) {
          failure = refusal(error);
          continue;
        }
        await file.write(bytes);
      }
      if (!failure) {
        try {
          decoder.end(tracker.emit);
          await file.sync();
          received = {
            id,
            fileName: name.meta.fileName,
            deviceId: name.meta.deviceId,
            deviceType: name.meta.deviceType,
            sizeBytes: size,
            temp,
            details: tracker.finish(header!),
          };
        } catch (error) {
          failure = refusal(error);
        }
      }
    } finally {
      await file.close();
    }
    return undefined;
  };

  try {
    // The parser reads only the Content-Type header and the body stream of what it is given.
    await unstable_parseMultipartFormData(upload as Request, handler);
  } catch (error) {
    await removeAll(temps);
    if (error instanceof TooLarge) return { ok: false, failure: "tooLarge" };
    // A cut-off upload or a body that is not multipart: the sender's side, not a 500.
    logger.warn("device log upload not read", { reason: (error as Error).message });
    return { ok: false, failure: "failed" };
  }
  const done = received as Received | null;
  if (failure || !done) {
    await removeAll(temps);
    return { ok: false, failure: failure ?? "missing" };
  }

  const storagePath = storagePathOf(done.id);
  const now = options.now ?? new Date();
  try {
    // The file is in place before the row commits: a row never names a missing file.
    await fsp.rename(done.temp, absolute(storagePath));
    await prisma.logFile.create({
      data: {
        id: done.id,
        fileName: done.fileName,
        deviceSerial: done.deviceId,
        deviceType: done.deviceType,
        sizeBytes: done.sizeBytes,
        rowCount: done.details.rows,
        storagePath,
        firstTherapyAt: done.details.firstTherapyAt,
        lastTherapyAt: done.details.lastTherapyAt,
        logsFrom: done.details.logsFrom,
        logsTo: done.details.logsTo,
        uploadedById: options.uploadedById ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + LOG_FILE_LIFETIME_MS),
      },
    });
  } catch (error) {
    await removeAll([done.temp, absolute(storagePath)]);
    throw error;
  }
  if (done.details.model) remember(done.id, done.details.model);
  return { ok: true, id: done.id };
}

function refusal(error: unknown): UploadFailure {
  if (error instanceof DeviceLogError) return error.outcome;
  throw error;
}

async function removeAll(files: string[]) {
  await Promise.all(files.map((f) => fsp.rm(f, { force: true })));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export type LogFileRecord = NonNullable<Awaited<ReturnType<typeof findLogFile>>>;

/** The upload a uuid names, unless it expired; null for anything else (never a list). */
export async function findLogFile(uuid: string | null, now = new Date()) {
  if (!uuid || !UUID.test(uuid)) return null;
  const row = await prisma.logFile.findUnique({ where: { id: uuid } });
  if (!row || row.expiresAt <= now) return null;
  return row;
}

const keyOptions = (file: LogFileRecord) => ({
  keys: env.deviceLogKeys,
  expectedDeviceId: file.deviceSerial,
  deviceType: file.deviceType as DeviceType,
});

// Least recently used first: a Map iterates in insertion order.
const models = new Map<string, CoughLogModel>();

function remember(id: string, model: CoughLogModel) {
  models.delete(id);
  models.set(id, model);
  while (models.size > MODEL_CACHE_SIZE) models.delete(models.keys().next().value!);
}

/** The decrypted cough log of an upload, from memory or decrypted again from its file. */
export async function loadCoughModel(file: LogFileRecord) {
  if (file.deviceType !== "cough") throw new Error("only cough logs have a model");
  const cached = models.get(file.id);
  if (cached) {
    remember(file.id, cached);
    return cached;
  }
  try {
    const model = await decryptToRows(
      fs.createReadStream(absolute(file.storagePath)),
      keyOptions(file),
    );
    remember(file.id, model);
    return model;
  } catch (error) {
    // The file passed every check on arrival: changed on disk, or its key was removed since.
    if (error instanceof DeviceLogError)
      logger.error("stored device log unreadable", { id: file.id });
    throw error;
  }
}

/**
 * The decrypted log as CSV (rows of the range by their own date), streamed: the CSV writer
 * (lib/csv) writes the log's plain header and quotes only where a field needs it (a Value holding
 * commas).
 */
export function logCsvStream(file: LogFileRecord, range: DayRange): ReadableStream<Uint8Array> {
  const rows = deviceLogCsvRows(fs.createReadStream(absolute(file.storagePath)), {
    ...keyOptions(file),
    ...range,
  });
  const csv = csvChunks(rows, { fields: [...DEVICE_LOG_CSV_FIELDS], quote: "needed" });
  return Readable.toWeb(Readable.from(csv)) as ReadableStream<Uint8Array>;
}

/** The CSV's file name: the upload's name with the range, e.g. C1001_..._system_decrypted.csv. */
export function logCsvFileName(file: LogFileRecord, range: DayRange) {
  const base = file.fileName.replace(/\.csv$/, "");
  const span = range.from || range.to ? `_${range.from ?? "start"}_${range.to ?? "end"}` : "";
  return `${base}_decrypted${span}.csv`;
}

/**
 * Removes uploads whose 24 hours are over (row first, then file: a crash in between leaves a
 * stray file, which the sweep below removes), files without a row, and part-written uploads.
 */
export async function purgeExpiredLogFiles(now = new Date()) {
  const expired = await prisma.logFile.findMany({
    where: { expiresAt: { lte: now } },
    select: { id: true, storagePath: true },
  });
  for (const row of expired) {
    await prisma.logFile.deleteMany({ where: { id: row.id } });
    models.delete(row.id);
    await fsp.rm(absolute(row.storagePath), { force: true });
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
  const query = new URLSearchParams({ uuid: file.id });
  if (range.from) query.set("from", range.from);
  if (range.to) query.set("to", range.to);
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
    csvHref: rangeOk ? `/decrypt/csv?${query}` : null,
    dashboardHref: rangeOk && file.deviceType === "cough" ? `/decrypt?${dashboard}` : null,
  };
}

export type DecryptDialogData = NonNullable<Awaited<ReturnType<typeof loadDecryptDialog>>>;
