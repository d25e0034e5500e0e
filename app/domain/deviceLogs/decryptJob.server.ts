// The server's side of the decrypt worker (decryptWorker.ts): one worker per log, fed an upload's
// raw request body as it arrives (at most IN_FLIGHT_BYTES ahead of it), or pointed at a stored
// upload, or asked to read a parsed model. The main thread only moves the body's chunks to it; finding the file in the multipart body, writing it, decrypting, parsing, modelling,
// writing and reading the parsed forms happen in the worker, so other requests are answered
// meanwhile.
import { EventEmitter } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { env } from "~/lib/env.server";
import { startWorker } from "~/lib/workerThread.server";
import type {
  DecryptJobStart,
  DecryptWorkerReply,
  ModelReadStart,
  UploadedFile,
  UploadJobStart,
  UploadRefusal,
} from "./decryptJobTypes";
import type { DayRange } from "./calendar";
import type { DeviceType } from "./fileName";
import { DeviceLogError, type DeviceLogOutcome } from "./messages";
import {
  modelFromParts,
  ParsedLogStale,
  ParsedLogTampered,
  parsedLogKey,
  type ModelParts,
} from "./parsedLog.server";
import type { LogDetails } from "./tracker";

export const WORKER_NAME = "deviceLogWorker";
export const WORKER_ENTRY = "app/domain/deviceLogs/decryptWorker.ts";
/** Bytes sent to the worker and not yet taken: beyond this the upload waits (back-pressure). */
const IN_FLIGHT_BYTES = 8 << 20;
/** A log this big takes seconds to decrypt: past it, the worker yields to the server's requests. */
const YIELD_AFTER_BYTES = 32 << 20;

export const parsedDir = () => path.join(env.dataDir, "devicelogs", "parsed");
export const parsedPaths = (id: string) => ({
  modelPath: path.join(parsedDir(), `${id}.model`),
  rowsPath: path.join(parsedDir(), `${id}.rows`),
});
/** Every file the parsed forms of an upload may leave, finished or not. */
export const parsedFiles = (id: string) => {
  const { modelPath, rowsPath } = parsedPaths(id);
  return [modelPath, rowsPath, `${modelPath}.part`, `${rowsPath}.part`];
};
export const keyOfLog = (id: string) => parsedLogKey(env.sessionSecret, id);

/**
 * Tests and the bench listen: "start" (id) when a worker is started to decrypt a log (an upload
 * or a stored one: `started` counts them), "priority" (id, its nice value) when that worker has
 * lowered its CPU priority, "modelRead" (id, the worker's threadId) when a worker has read a
 * parsed model. `yieldAfterBytes`: how much of a log a worker decrypts at the server's priority
 * before it lowers its own (tests set it to 0).
 */
export const decryptJobs = Object.assign(new EventEmitter(), {
  started: 0,
  yieldAfterBytes: YIELD_AFTER_BYTES,
});

/** An upload refused for its form rather than its log: no file, a wrong name, too large, not a form. */
export class UploadRefused extends Error {
  constructor(
    readonly outcome: Exclude<UploadRefusal, DeviceLogOutcome>,
    reason: string,
  ) {
    super(reason);
    this.name = "UploadRefused";
  }
}

const LOG_OUTCOMES = new Set<string>(["alreadyDecrypted", "invalidFile", "corrupted"]);
const refusalError = (outcome: UploadRefusal, reason: string) =>
  LOG_OUTCOMES.has(outcome)
    ? new DeviceLogError(outcome as DeviceLogOutcome, reason)
    : new UploadRefused(outcome as Exclude<UploadRefusal, DeviceLogOutcome>, reason);

const workerKeys = () =>
  [...env.deviceLogKeys.entries()].map(([id, key]) => [id, new Uint8Array(key)] as [string, Uint8Array]); // prettier-ignore

/** One worker on one log: bytes in (with back-pressure), one outcome out. */
function runJob<T>(id: string, start: DecryptJobStart | UploadJobStart, fed: boolean) {
  decryptJobs.started += 1;
  fs.mkdirSync(parsedDir(), { recursive: true });
  const worker = startWorker(WORKER_NAME, WORKER_ENTRY);
  let inFlight = 0;
  let settled = false;
  let refusal: Error | null = null;
  let drained: (() => void) | null = null;
  let resolveDone!: (value: T) => void;
  let rejectDone!: (error: Error) => void;
  const done = new Promise<T>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // Nobody may be waiting yet (a refusal during the upload is read by finish()).
  done.catch(() => {});
  const settle = (error: Error | null, value?: T) => {
    if (settled) return;
    settled = true;
    if (error) rejectDone(error);
    else resolveDone(value!);
    drained?.();
    void worker.terminate();
  };

  worker.on("message", (message: DecryptWorkerReply) => {
    switch (message.type) {
      case "ack":
        inFlight -= message.bytes;
        if (inFlight <= IN_FLIGHT_BYTES) drained?.();
        return;
      case "priority":
        decryptJobs.emit("priority", id, message.nice);
        return;
      case "refused":
        refusal = refusalError(message.outcome, message.reason);
        return settle(refusal);
      case "done":
        return settle(null, (message.file ?? message.details) as T);
      case "failed":
        return settle(new Error(`decrypt worker: ${message.message}`));
    }
  });
  worker.on("error", (error) => settle(error));
  worker.on("exit", () => settle(new Error("decrypt worker stopped")));
  worker.postMessage(start);
  decryptJobs.emit("start", id);

  // A chunk that owns its whole buffer (what the HTTP parser gives for a body) moves to the
  // worker without a copy; any other is copied first. The main thread then neither copies the
  // body nor leaves a second copy of it for its garbage collector (which held it longest).
  const post = (chunk: Uint8Array) => {
    const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    const bytes = whole ? chunk : chunk.slice();
    inFlight += bytes.byteLength;
    try {
      worker.postMessage({ type: "chunk", bytes }, [bytes.buffer as ArrayBuffer]);
    } catch {
      // A buffer that may not move (a pooled one): sent as a copy.
      worker.postMessage({ type: "chunk", bytes });
    }
  };

  return {
    /** The refusal known so far (the worker is a few chunks behind the upload). */
    get refusal() {
      return refusal;
    },
    /**
     * Sends a chunk (moved: the caller must not use it again); waits while the worker is more
     * than IN_FLIGHT_BYTES behind.
     */
    async write(chunk: Uint8Array) {
      if (settled || chunk.byteLength === 0) return;
      post(chunk);
      while (inFlight > IN_FLIGHT_BYTES && !settled)
        await new Promise<void>((resolve) => (drained = resolve));
      drained = null;
    },
    /** The outcome once every byte is checked; a refusal throws its error. */
    finish() {
      if (!settled && fed) worker.postMessage({ type: "end" });
      return done;
    },
    /** Stops the worker and removes whatever it wrote (an upload given up). */
    async abort() {
      settle(new Error("aborted"));
      await worker.terminate();
      await Promise.all(parsedFiles(id).map((f) => fsp.rm(f, { force: true })));
    },
  };
}

export type DecryptJob = ReturnType<typeof startDecryptJob>;

/** Starts a worker on one log: fed with write(), or a stored upload (`source`). */
export function startDecryptJob(options: {
  id: string;
  deviceType: DeviceType;
  deviceId?: string;
  source?: string;
}) {
  const start: DecryptJobStart = {
    type: "start",
    id: options.id,
    deviceType: options.deviceType,
    deviceId: options.deviceId,
    keys: workerKeys(),
    key: new Uint8Array(keyOfLog(options.id)),
    ...parsedPaths(options.id),
    source: options.source,
    yieldAfterBytes: decryptJobs.yieldAfterBytes,
  };
  return runJob<LogDetails>(options.id, start, !options.source);
}

/**
 * Starts a worker on an upload's raw multipart body (fed with write()): it writes the file part
 * to `filePath` and decrypts it as it comes. finish() gives the file once it is all checked and
 * on disk; a refusal throws a DeviceLogError (the log) or an UploadRefused (the form).
 */
export function startUploadJob(options: {
  id: string;
  boundary: string;
  field: string;
  filePath: string;
  maxFileBytes: number;
}) {
  const start: UploadJobStart = {
    type: "upload",
    ...options,
    keys: workerKeys(),
    key: new Uint8Array(keyOfLog(options.id)),
    ...parsedPaths(options.id),
    yieldAfterBytes: decryptJobs.yieldAfterBytes,
  };
  return runJob<UploadedFile>(options.id, start, true);
}

export type UploadJob = ReturnType<typeof startUploadJob>;

/**
 * Reads an upload's parsed model in a worker: the file is read, authenticated and decrypted there
 * and the columns' buffers are moved (not copied) to this thread, so a model of tens of MB costs
 * the main thread almost nothing. Throws as the reader does: ParsedLogTampered, ParsedLogStale,
 * or an ENOENT error when there is no file.
 */
export async function readModelInWorker(id: string, range?: DayRange) {
  const worker = startWorker(WORKER_NAME, WORKER_ENTRY);
  try {
    const reply = await new Promise<DecryptWorkerReply>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", () => reject(new Error("decrypt worker stopped")));
      const start: ModelReadStart = {
        type: "readModel",
        path: parsedPaths(id).modelPath,
        key: new Uint8Array(keyOfLog(id)),
        logId: id,
        range,
      };
      worker.postMessage(start);
    });
    if (reply.type === "modelFailed") {
      if (reply.kind === "tampered") throw new ParsedLogTampered(reply.message);
      if (reply.kind === "stale") throw new ParsedLogStale();
      if (reply.kind === "missing")
        throw Object.assign(new Error(reply.message), { code: "ENOENT" });
      throw new Error(`decrypt worker: ${reply.message}`);
    }
    if (reply.type !== "model") throw new Error(`decrypt worker: unexpected ${reply.type}`);
    decryptJobs.emit("modelRead", id, reply.threadId);
    const { model, bytes } = modelFromParts({
      head: reply.head,
      headBytes: reply.headBytes,
      columns: reply.columns,
    } as ModelParts);
    return { model, bytes, summary: range && reply.summary ? { range, value: reply.summary } : null }; // prettier-ignore
  } finally {
    void worker.terminate();
  }
}
