// The decrypt worker (issue 23 item 6): decrypts and checks one device log off the main thread,
// builds its cough model and writes the parsed forms (parsedLog.server.ts), so the server keeps
// answering other requests meanwhile. One worker per log (decryptJob.server.ts starts it); it is
// bundled on its own (build/deviceLogWorker.js, an asset of the release binary) and imports only
// the area's pure modules and node: built-ins: no database, no environment.
//
// Messages in: start (what to decrypt, the keys, where to write), then either chunks of the upload
// as they arrive and end, or nothing when `source` names a stored upload to read. Out: ack (bytes
// taken, for back-pressure), refused (a DeviceLogError: the outcome and reason), done (the
// details), failed (anything else). Refused or failed, nothing is left behind.
import fs from "node:fs";
import { parentPort } from "node:worker_threads";
import { DeviceLogError } from "./messages";
import { RowsWriter, writeModelFile } from "./parsedLog.server";
import { DeviceLogDecoder } from "./reader";
import type { DeviceLogHeader, DeviceLogRow } from "./rows";
import { rowTracker } from "./tracker";
import type { DecryptJobStart, DecryptWorkerReply } from "./decryptJobTypes";

const port = parentPort!;
const reply = (message: DecryptWorkerReply) => port.postMessage(message);

let job: ReturnType<typeof open> | null = null;
let stopped = false;

function open(start: DecryptJobStart) {
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
  const emit = (row: DeviceLogRow) => {
    tracker.emit(row);
    rows.add(row);
  };
  return {
    write: (bytes: Uint8Array) =>
      decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), emit),
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

function fail(error: unknown) {
  stopped = true;
  try {
    job?.abort();
  } catch {
    // The reply below matters more than a part file the purge sweeps later.
  }
  if (error instanceof DeviceLogError)
    reply({ type: "refused", outcome: error.outcome, reason: error.reason });
  else reply({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}

function finish() {
  try {
    reply({ type: "done", details: job!.end() });
  } catch (error) {
    fail(error);
  }
  stopped = true;
}

port.on("message", (message: { type: string } & Record<string, unknown>) => {
  if (stopped) {
    if (message.type === "chunk")
      reply({ type: "ack", bytes: (message.bytes as Uint8Array).length });
    return;
  }
  try {
    switch (message.type) {
      case "start": {
        const start = message as unknown as DecryptJobStart;
        job = open(start);
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
        job!.write(bytes);
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
