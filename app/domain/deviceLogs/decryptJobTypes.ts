// The messages between the server and its decrypt worker (decryptWorker.ts, decryptJob.server.ts).
import type { DayRange } from "./calendar";
import type { DeviceType } from "./fileName";
import type { DeviceLogOutcome } from "./messages";
import type { LogSummary } from "./summary";
import type { LogDetails } from "./tracker";

export type DecryptJobStart = {
  type: "start";
  id: string;
  deviceType: DeviceType;
  /** The file name's device id (line 1 must name it); none for a stored upload read again. */
  deviceId?: string;
  /** The device log keys by key id. */
  keys: [string, Uint8Array][];
  /** The upload's key for its parsed forms (parsedLog.server.ts). */
  key: Uint8Array;
  modelPath: string;
  rowsPath: string;
  /** A stored upload to read; without it, the bytes come as chunk messages. */
  source?: string;
  /** Past this many bytes of the log, the worker lowers its CPU priority (decryptWorker.ts). */
  yieldAfterBytes: number;
};

/**
 * An upload's raw request body, sent as chunk messages: the worker finds the file part
 * (`field`), checks its name, writes its bytes to `filePath` and decrypts them as they come.
 */
export type UploadJobStart = Omit<
  DecryptJobStart,
  "type" | "deviceType" | "deviceId" | "source"
> & {
  type: "upload";
  boundary: string;
  field: string;
  filePath: string;
  /** The file part's size limit in bytes. */
  maxFileBytes: number;
};

/** Why the worker refused an upload: the log's own outcomes, or the form's. */
export type UploadRefusal = DeviceLogOutcome | "missing" | "fileName" | "tooLarge" | "malformed";

/** The file an upload held, once every byte of it is checked and on disk. */
export type UploadedFile = {
  fileName: string;
  deviceId: string;
  deviceType: DeviceType;
  sizeBytes: number;
  details: LogDetails;
};

/**
 * A parsed model to read (parsedLog.server.ts); the worker answers `model` (with the model's
 * summary of `range`, when given) or `modelFailed`.
 */
export type ModelReadStart = {
  type: "readModel";
  path: string;
  key: Uint8Array;
  logId: string;
  range?: DayRange;
};

/** A column of a model read by the worker: its parts' buffers are transferred, not copied. */
export type ModelColumnPart = {
  group: "therapies" | "cycles" | "hmr";
  key: string;
  type: string;
  parts: ArrayBufferView[];
};

export type DecryptWorkerReply =
  | { type: "ack"; bytes: number }
  | { type: "priority"; nice: number }
  | { type: "refused"; outcome: UploadRefusal; reason: string }
  | { type: "done"; details: LogDetails; file?: UploadedFile }
  | { type: "failed"; message: string }
  | { type: "model"; head: unknown; columns: ModelColumnPart[]; headBytes: number; threadId: number; summary: LogSummary | null } // prettier-ignore
  | { type: "modelFailed"; kind: "tampered" | "stale" | "missing" | "other"; message: string };
