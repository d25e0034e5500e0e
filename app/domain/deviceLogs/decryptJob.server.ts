// The server's side of the decrypt worker (decryptWorker.ts): one worker per log, fed the upload's
// chunks as they arrive (at most IN_FLIGHT_BYTES ahead of it) or pointed at a stored upload. The
// main thread only copies bytes; decrypting, parsing, modelling and writing the parsed forms
// happen in the worker, so other requests are answered meanwhile.
import { EventEmitter } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { env } from "~/lib/env.server";
import { startWorker } from "~/lib/workerThread.server";
import type { DecryptJobStart, DecryptWorkerReply } from "./decryptJobTypes";
import type { DeviceType } from "./fileName";
import { DeviceLogError } from "./messages";
import { parsedLogKey } from "./parsedLog.server";
import type { LogDetails } from "./tracker";

export const WORKER_NAME = "deviceLogWorker";
export const WORKER_ENTRY = "app/domain/deviceLogs/decryptWorker.ts";
/** Bytes sent to the worker and not yet decrypted: beyond this the upload waits (back-pressure). */
const IN_FLIGHT_BYTES = 8 << 20;

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

/** Tests and the bench listen: "start" (id) when a worker is started on a log. */
export const decryptJobs = Object.assign(new EventEmitter(), { started: 0 });

export type DecryptJob = ReturnType<typeof startDecryptJob>;

/** Starts a worker on one log: an upload fed with write(), or a stored upload (`source`). */
export function startDecryptJob(options: {
  id: string;
  deviceType: DeviceType;
  deviceId?: string;
  source?: string;
}) {
  decryptJobs.started += 1;
  fs.mkdirSync(parsedDir(), { recursive: true });
  const worker = startWorker(WORKER_NAME, WORKER_ENTRY);
  let inFlight = 0;
  let settled = false;
  let refusal: DeviceLogError | null = null;
  let drained: (() => void) | null = null;
  let resolveDone!: (details: LogDetails) => void;
  let rejectDone!: (error: Error) => void;
  const done = new Promise<LogDetails>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // Nobody may be waiting yet (a refusal during the upload is read by finish()).
  done.catch(() => {});
  const settle = (error: Error | null, details?: LogDetails) => {
    if (settled) return;
    settled = true;
    if (error) rejectDone(error);
    else resolveDone(details!);
    drained?.();
    void worker.terminate();
  };

  worker.on("message", (message: DecryptWorkerReply) => {
    switch (message.type) {
      case "ack":
        inFlight -= message.bytes;
        if (inFlight <= IN_FLIGHT_BYTES) drained?.();
        return;
      case "refused":
        refusal = new DeviceLogError(message.outcome, message.reason);
        return settle(refusal);
      case "done":
        return settle(null, message.details);
      case "failed":
        return settle(new Error(`decrypt worker: ${message.message}`));
    }
  });
  worker.on("error", (error) => settle(error));
  worker.on("exit", () => settle(new Error("decrypt worker stopped")));

  const start: DecryptJobStart = {
    type: "start",
    id: options.id,
    deviceType: options.deviceType,
    deviceId: options.deviceId,
    keys: [...env.deviceLogKeys.entries()].map(([id, key]) => [id, new Uint8Array(key)]),
    key: new Uint8Array(keyOfLog(options.id)),
    ...parsedPaths(options.id),
    source: options.source,
  };
  worker.postMessage(start);
  decryptJobs.emit("start", options.id);

  return {
    /** The refusal known so far (the worker is a few chunks behind the upload). */
    get refusal() {
      return refusal;
    },
    /** Sends a chunk (copied); waits while the worker is more than IN_FLIGHT_BYTES behind. */
    async write(chunk: Uint8Array) {
      if (settled) return;
      const copy = new Uint8Array(chunk);
      inFlight += copy.byteLength;
      worker.postMessage({ type: "chunk", bytes: copy }, [copy.buffer]);
      while (inFlight > IN_FLIGHT_BYTES && !settled)
        await new Promise<void>((resolve) => (drained = resolve));
      drained = null;
    },
    /** The log's details once every byte is checked; a refusal throws its DeviceLogError. */
    finish() {
      if (!settled && !options.source) worker.postMessage({ type: "end" });
      return done;
    },
    /** Stops the worker and removes whatever it wrote (an upload given up). */
    async abort() {
      settle(new Error("aborted"));
      await worker.terminate();
      await Promise.all(parsedFiles(options.id).map((f) => fsp.rm(f, { force: true })));
    },
  };
}
