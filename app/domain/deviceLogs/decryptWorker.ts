// The decrypt worker (issue 23 item 6): decrypts and checks one device log off the main thread,
// builds its cough model and writes the parsed forms (parsedLog.server.ts), so the server keeps
// answering other requests meanwhile; or reads a parsed model back. One worker per log
// (decryptJob.server.ts starts it); it is bundled on its own (build/deviceLogWorker.js, an asset of
// the release binary) and imports only the area's pure modules and node: built-ins: no database,
// no environment.
//
// Messages in: start (what to decrypt, the keys, where to write), then either chunks of the log
// and end, or nothing when `source` names a stored upload to read; upload (the same, for an
// upload's raw multipart body: the worker finds the file part, checks its name, writes it to
// `filePath` and decrypts it), then chunks and end; readModel (a parsed model to read). Out: ack
// (bytes taken, for back-pressure), refused (the outcome and reason), done (the details, and for
// an upload the file), failed (anything else); model or modelFailed. Refused or failed, nothing is
// left behind.
import fs from "node:fs";
import os from "node:os";
import { parentPort, threadId } from "node:worker_threads";
import { parseLogFileName, type DeviceType } from "./fileName";
import { DeviceLogError } from "./messages";
import { MalformedMultipart, MultipartReader } from "./multipart";
import {
  modelFromParts,
  ParsedLogStale,
  ParsedLogTampered,
  readModelParts,
  RowsWriter,
  writeModelFile,
} from "./parsedLog.server";
import { DeviceLogDecoder } from "./reader";
import type { DeviceLogHeader, DeviceLogRow } from "./rows";
import { summarize } from "./summary";
import { rowTracker } from "./tracker";
import type {
  DecryptJobStart,
  DecryptWorkerReply,
  ModelReadStart,
  UploadedFile,
  UploadJobStart,
  UploadRefusal,
} from "./decryptJobTypes";

const port = parentPort!;
const reply = (message: DecryptWorkerReply, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

/** A refusal of the upload's form (not of its log), as the worker finds it. */
class Refusal extends Error {
  constructor(readonly outcome: UploadRefusal) {
    super(outcome);
  }
}

type Job = { write(bytes: Buffer): void; end(): { details: unknown; file?: UploadedFile }; abort(): void }; // prettier-ignore

let job: Job | null = null;
let stopped = false;

/** How much a decrypt yields to the server's other work (a thread's nice value, 0 to 19). */
const DECRYPT_NICE = 10;

/**
 * Lowers this thread's CPU priority (Linux: the nice value is per thread; a thread may lower its
 * own without privilege): a 200 MB decrypt then takes the CPU the server's requests leave, not
 * half of it. Only past `yieldAfterBytes` of the log (DecryptJobStart): a small log, or a refusal
 * of the first bytes, is answered at the server's priority even on a busy machine. Reading a
 * sealed model (a user waits, about a second) keeps the normal priority. Elsewhere, or when
 * refused, nothing changes.
 */
function yieldToServer() {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return;
    os.setPriority(tid, DECRYPT_NICE);
    reply({ type: "priority", nice: os.getPriority(tid) });
  } catch {
    // Not Linux, or no /proc: the decrypt runs at the server's priority.
  }
}

/** Decrypts one log given in pieces, writing its parsed forms. */
function openLog(start: Omit<DecryptJobStart, "type">) {
  let header: DeviceLogHeader | null = null;
  const decoder = new DeviceLogDecoder({
    keys: new Map(start.keys.map(([id, key]) => [id, Buffer.from(key)])),
    expectedDeviceId: start.deviceId,
    deviceType: start.deviceType,
    onHeader: (h) => (header = h),
  });
  const key = Buffer.from(start.key);
  const tracker = rowTracker(start.deviceType);
  const rowsPart = `${start.rowsPath}.part`;
  const modelPart = `${start.modelPath}.part`;
  const rows = new RowsWriter(rowsPart, key, start.id);
  // A big log yields to the server once it is clearly big; a small one (or a refusal) is quick.
  let taken = 0;
  let yielded = false;
  const emit = (row: DeviceLogRow) => {
    tracker.emit(row);
    rows.add(row);
  };
  return {
    write: (bytes: Buffer) => {
      taken += bytes.length;
      if (!yielded && taken > start.yieldAfterBytes) {
        yielded = true;
        yieldToServer();
      }
      decoder.write(bytes, emit);
    },
    end() {
      decoder.end(emit);
      const { model, ...details } = tracker.finish(header!);
      rows.close();
      if (model) {
        writeModelFile(modelPart, key, start.id, model);
        fs.renameSync(modelPart, start.modelPath);
      }
      fs.renameSync(rowsPart, start.rowsPath);
      return details;
    },
    abort() {
      rows.abort();
      fs.rmSync(modelPart, { force: true });
    },
  };
}

/** An upload's raw multipart body: the first file part of `field` is the log. */
function openUpload(start: UploadJobStart): Job {
  let log: ReturnType<typeof openLog> | null = null;
  let fd: number | null = null;
  let seen = false;
  let file: Omit<UploadedFile, "details"> | null = null;
  const reader = new MultipartReader(start.boundary, {
    part(head) {
      if (head.name !== start.field || head.filename === undefined || seen) return "skip";
      seen = true;
      if (head.filename === "") throw new Refusal("missing");
      const name = parseLogFileName(head.filename);
      if (!name.ok) throw new Refusal("fileName");
      const deviceType: DeviceType = name.meta.deviceType;
      file = { fileName: name.meta.fileName, deviceId: name.meta.deviceId, deviceType, sizeBytes: 0 }; // prettier-ignore
      fd = fs.openSync(start.filePath, "wx", 0o600);
      log = openLog({ ...start, deviceType, deviceId: name.meta.deviceId });
      return "take";
    },
    data(bytes) {
      file!.sizeBytes += bytes.byteLength;
      if (file!.sizeBytes > start.maxFileBytes) throw new Refusal("tooLarge");
      log!.write(bytes);
      fs.writeSync(fd!, bytes);
    },
    partEnd() {},
  });
  const close = () => {
    if (fd !== null) fs.closeSync(fd);
    fd = null;
  };
  return {
    write: (bytes) => reader.write(bytes),
    end() {
      reader.end();
      if (!log || !file) throw new Refusal("missing");
      const details = (log as ReturnType<typeof openLog>).end();
      fs.fsyncSync(fd!);
      close();
      return { details, file: { ...(file as Omit<UploadedFile, "details">), details } };
    },
    abort() {
      (log as ReturnType<typeof openLog> | null)?.abort();
      close();
      fs.rmSync(start.filePath, { force: true });
    },
  };
}

function fail(error: unknown) {
  stopped = true;
  try {
    job?.abort();
  } catch {
    // The reply below matters more than a part file the purge sweeps later.
  }
  if (error instanceof DeviceLogError)
    reply({ type: "refused", outcome: error.outcome, reason: error.reason });
  else if (error instanceof Refusal)
    reply({ type: "refused", outcome: error.outcome, reason: error.outcome });
  else if (error instanceof MalformedMultipart)
    reply({ type: "refused", outcome: "malformed", reason: error.message });
  else reply({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}

function finish() {
  try {
    const { details, file } = job!.end();
    reply({ type: "done", details: details as UploadedFile["details"], file });
  } catch (error) {
    fail(error);
  }
  stopped = true;
}

function readModel(start: ModelReadStart) {
  try {
    const parts = readModelParts(start.path, Buffer.from(start.key), start.logId);
    const { head, headBytes, columns } = parts;
    // The summary reads every cycle: done here, before the columns move, not on the main thread.
    const summary = start.range ? summarize(modelFromParts(parts).model, start.range) : null;
    reply(
      { type: "model", head, headBytes, columns, threadId, summary },
      // Each part owns its buffer (a segment's plaintext), so it moves whole.
      columns.flatMap((c) => c.parts.map((part) => part.buffer as ArrayBuffer)),
    );
  } catch (error) {
    const kind =
      error instanceof ParsedLogTampered
        ? "tampered"
        : error instanceof ParsedLogStale
          ? "stale"
          : (error as NodeJS.ErrnoException).code === "ENOENT"
            ? "missing"
            : "other";
    reply({ type: "modelFailed", kind, message: (error as Error).message });
  }
}

port.on("message", (message: { type: string } & Record<string, unknown>) => {
  if (stopped) {
    if (message.type === "chunk")
      reply({ type: "ack", bytes: (message.bytes as Uint8Array).length });
    return;
  }
  try {
    switch (message.type) {
      case "readModel":
        stopped = true;
        return readModel(message as unknown as ModelReadStart);
      case "upload":
        job = openUpload(message as unknown as UploadJobStart);
        return;
      case "start": {
        const start = message as unknown as DecryptJobStart;
        const log = openLog(start);
        job = { write: log.write, end: () => ({ details: log.end() }), abort: log.abort };
        if (start.source) {
          const fd = fs.openSync(start.source, "r");
          try {
            // A fresh buffer per read: the decoder keeps a view of a line cut at the chunk's end.
            for (;;) {
              const buffer = Buffer.allocUnsafe(1 << 20);
              const n = fs.readSync(fd, buffer, 0, buffer.length, null);
              if (n === 0) break;
              job.write(buffer.subarray(0, n));
            }
          } finally {
            fs.closeSync(fd);
          }
          finish();
        }
        return;
      }
      case "chunk": {
        const bytes = message.bytes as Uint8Array;
        job!.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        reply({ type: "ack", bytes: bytes.length });
        return;
      }
      case "end":
        return finish();
    }
  } catch (error) {
    if (message.type === "chunk")
      reply({ type: "ack", bytes: (message.bytes as Uint8Array).length });
    fail(error);
  }
});
