// The messages between the server and its decrypt worker (decryptWorker.ts, decryptJob.server.ts).
import type { DeviceType } from "./fileName";
import type { DeviceLogOutcome } from "./messages";
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
};

export type DecryptWorkerReply =
  | { type: "ack"; bytes: number }
  | { type: "refused"; outcome: DeviceLogOutcome; reason: string }
  | { type: "done"; details: LogDetails }
  | { type: "failed"; message: string };
