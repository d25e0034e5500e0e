// Receiving an upload (spec 3 §2.8, §7.4; DEVICE-LOG-FORMAT.md): the multipart body streams through
// the decrypter while it is written to DATA_DIR/devicelogs/.incoming; only a log read to its #END
// record is moved into place and gets its LogFile row. This is the one domain function that takes
// the body itself (its headers and stream): the file is never held whole in memory, so the route
// cannot parse it first. Its other fields are none: the page to go back to is in the query.
import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { parsedFiles, startDecryptJob, type DecryptJob } from "./decryptJob.server";
import { parseLogFileName, type DeviceType } from "./fileName";
import { DeviceLogError } from "./messages";
import type { LogDetails } from "./tracker";
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

type Received = {
  id: string;
  fileName: string;
  deviceId: string;
  deviceType: DeviceType;
  sizeBytes: number;
  temp: string;
  details: LogDetails;
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
  const jobs: DecryptJob[] = [];
  const giveUp = async () => {
    await Promise.all(jobs.map((job) => job.abort()));
    await removeAll(temps);
  };

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
    // The worker decrypts, checks and models the log as it arrives, a few chunks behind.
    const job = startDecryptJob({
      id,
      deviceType: name.meta.deviceType,
      deviceId: name.meta.deviceId,
    });
    jobs.push(job);
    temps.push(...parsedFiles(id));
    let size = 0;
    try {
      for await (const chunk of counted(part.data)) {
        if (failure) continue; // refused: read on to the end, keep nothing
        size += chunk.byteLength;
        if (size > limit) throw new TooLarge();
        if (job.refusal) {
          failure = refusal(job.refusal);
          continue;
        }
        await job.write(chunk);
        await file.write(chunk);
      }
      if (!failure) {
        try {
          const details = await job.finish();
          await file.sync();
          received = {
            id,
            fileName: name.meta.fileName,
            deviceId: name.meta.deviceId,
            deviceType: name.meta.deviceType,
            sizeBytes: size,
            temp,
            details,
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
    await giveUp();
    if (error instanceof TooLarge) return { ok: false, failure: "tooLarge" };
    // A cut-off upload or a body that is not multipart: the sender's side, not a 500.
    logger.warn("device log upload not read", { reason: (error as Error).message });
    return { ok: false, failure: "failed" };
  }
  const done = received as Received | null;
  if (failure || !done) {
    await giveUp();
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
    await removeAll([done.temp, absolute(storagePath), ...parsedFiles(done.id)]);
    throw error;
  }
  return { ok: true, id: done.id };
}

function refusal(error: unknown): UploadFailure {
  if (error instanceof DeviceLogError) return error.outcome;
  throw error;
}

async function removeAll(files: string[]) {
  await Promise.all(files.map((f) => fsp.rm(f, { force: true })));
}
