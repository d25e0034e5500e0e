// Receiving an upload (spec 3 §2.8, §7.4; DEVICE-LOG-FORMAT.md): the raw multipart body goes, as
// it arrives, to a decrypt worker (decryptJob.server.ts), which finds the file part, checks its
// name, writes it to DATA_DIR/devicelogs/.incoming and decrypts it; only a log read to its #END
// record is moved into place and gets its LogFile row. The main thread reads no byte of the form:
// it counts the body against the size limit and moves its chunks to the worker (a 200 MB
// upload scanned by a multipart parser in JavaScript held it for seconds). This is the one domain
// function that takes the body itself (its headers and stream): the file is never held whole in
// memory, so the route cannot parse it first. Its other fields are none: the page to go back to
// is in the query.
import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { parsedFiles, startUploadJob, UploadRefused } from "./decryptJob.server";
import type { UploadedFile } from "./decryptJobTypes";
import { DeviceLogError } from "./messages";
import { multipartBoundary } from "./multipart";
import {
  absolute,
  incomingDir,
  LOG_FILE_FIELD,
  LOG_FILE_LIFETIME_MS,
  storagePathOf,
  type UploadFailure,
  type UploadResult,
} from "./deviceLog.server";

/** Room for the small fields posted beside the file. */
const FORM_SLACK_BYTES = 64 * 1024;
/**
 * Uploads decrypted at once, each by its own worker (decryptJob.server.ts), which models a cough
 * log in memory while it streams in and writes its parsed forms.
 */
const MAX_CONCURRENT_UPLOADS = 3;
let activeUploads = 0;
/** An upload that sends nothing for this long is given up. */
const UPLOAD_IDLE_MS = 30_000;

class TooLarge extends Error {}
class Stalled extends Error {}

/** The upload as it arrives: its headers (Content-Type, Content-Length) and its body stream. */
export type UploadBody = Pick<Request, "headers" | "body">;

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
  const boundary = multipartBoundary(upload.headers.get("content-type"));
  if (!boundary || !upload.body) {
    logger.warn("device log upload not read", { reason: "not a multipart/form-data body" });
    return { ok: false, failure: "failed" };
  }

  const id = randomUUID();
  await fsp.mkdir(incomingDir(), { recursive: true });
  const temp = path.join(incomingDir(), `${id}.part`);
  const temps = [temp, ...parsedFiles(id)];
  const job = startUploadJob({
    id,
    boundary,
    field: LOG_FILE_FIELD,
    filePath: temp,
    maxFileBytes: limit,
  });
  const giveUp = async () => {
    await job.abort();
    await removeAll(temps);
  };

  let done: UploadedFile;
  try {
    // A refused file is read on to the end of the request and thrown away (so the browser gets
    // the answer); over the size limit the reading stops.
    await readBody(upload.body, limit + FORM_SLACK_BYTES, async (chunk) => {
      const refused = job.refusal;
      if (refused instanceof UploadRefused && refused.outcome === "tooLarge") throw new TooLarge();
      if (!refused) await job.write(chunk);
    });
    done = await job.finish();
  } catch (error) {
    await giveUp();
    if (error instanceof TooLarge) return { ok: false, failure: "tooLarge" };
    if (error instanceof DeviceLogError || error instanceof UploadRefused) {
      const failure = refusal(error);
      if (failure === "failed")
        logger.warn("device log upload not read", { reason: (error as Error).message });
      return { ok: false, failure };
    }
    // A cut-off or stalled upload, or a worker that failed: the sender sees a failure, not a 500.
    logger.warn("device log upload not read", { reason: (error as Error).message });
    return { ok: false, failure: "failed" };
  }

  const storagePath = storagePathOf(id);
  const now = options.now ?? new Date();
  try {
    // The file is in place before the row commits: a row never names a missing file.
    await fsp.rename(temp, absolute(storagePath));
    await prisma.logFile.create({
      data: {
        id,
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
    await removeAll([temp, absolute(storagePath), ...parsedFiles(id)]);
    throw error;
  }
  return { ok: true, id };
}

/**
 * Reads a body to its end, giving each chunk to `take`: every byte counts towards `maxBytes`
 * (TooLarge beyond), and a sender that goes quiet for UPLOAD_IDLE_MS is dropped (Stalled): a
 * stalled upload must not hold one of the few upload slots until the server's request timeout.
 * One watchdog timer for the whole body, not one per chunk.
 */
async function readBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  take: (chunk: Uint8Array) => Promise<void>,
) {
  const reader = body.getReader();
  // Only waiting for the sender counts: the worker (which yields to the server's other work, see
  // decryptWorker.ts) may hold a chunk back for a while on a busy machine.
  let waitingSince: number | null = null;
  let stall!: (error: Stalled) => void;
  const stalled = new Promise<never>((_, reject) => (stall = reject));
  stalled.catch(() => {});
  const watchdog = setInterval(() => {
    if (waitingSince !== null && Date.now() - waitingSince >= UPLOAD_IDLE_MS)
      stall(new Stalled("the upload stalled"));
  }, UPLOAD_IDLE_MS / 6);
  let total = 0;
  try {
    for (;;) {
      waitingSince = Date.now();
      const next = await Promise.race([reader.read(), stalled]);
      waitingSince = null;
      if (next.done) return;
      total += next.value.byteLength;
      if (total > maxBytes) throw new TooLarge();
      await take(next.value);
    }
  } finally {
    clearInterval(watchdog);
    reader.releaseLock();
  }
}

function refusal(error: DeviceLogError | UploadRefused): UploadFailure {
  if (error instanceof DeviceLogError) return error.outcome;
  return error.outcome === "malformed" ? "failed" : error.outcome;
}

async function removeAll(files: string[]) {
  await Promise.all(files.map((f) => fsp.rm(f, { force: true })));
}
