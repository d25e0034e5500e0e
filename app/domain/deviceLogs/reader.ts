// The streaming decrypter and parser of DEVICE-LOG-FORMAT.md "Container" and "Rows". It reads the
// input a chunk at a time, splits lines itself and keeps at most one partial line and a small
// batch of rows awaiting CSV parsing, so memory does not grow with the file. It stops at the
// first fault with a DeviceLogError; since the #END check comes last, rows seen before a fault
// must be thrown away by the caller (decryptToRows does this: it returns only on success).
import { createDecipheriv } from "node:crypto";
import { parse } from "csv-parse/sync";
import { packStamp } from "./calendar";
import type { DeviceType } from "./fileName";
import { DeviceLogError } from "./messages";
import { buildCoughLog, type CoughLogModel } from "./model";
import {
  EVENT_TYPES,
  LOG_HEADER,
  LOG_HEADER_FIELDS,
  LOG_TYPES,
  parseValuePairs,
  type DeviceLogHeader,
  type DeviceLogRow,
  type EventType,
  type LogType,
} from "./rows";

export type LogSource = AsyncIterable<Buffer | string> | NodeJS.ReadableStream;

export type { DeviceLogHeader };

export type DeviceLogOptions = {
  keys: Map<string, Buffer>;
  /** The file name's device id; line 1 must name the same device. */
  expectedDeviceId?: string;
  deviceType: DeviceType;
  /** Called once line 1 is accepted. */
  onHeader?: (header: DeviceLogHeader) => void;
};

const LOG_LINE = /^BWZLOG\/1;key=([A-Za-z0-9-]{1,32});device=([A-Za-z0-9]+)$/;
// What json2csv writes by default when the decrypted CSV is downloaded and uploaded again.
const QUOTED_HEADER = LOG_HEADER_FIELDS.map((f) => `"${f}"`).join(",");
const END_RECORD = /^#END;records=(0|[1-9][0-9]*)$/;
const EVENT_ID = /^[1-9][0-9]*$/;
const TIME_STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const LINE_BREAK = /[\r\n]/;
const EVENT_TYPE_SET = new Set<string>(EVENT_TYPES);
const LOG_TYPE_SET = new Set<string>(LOG_TYPES);

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Longer than any BWZLOG line or plain header: past this, line 1 is neither. */
const MAX_FIRST_LINE = 4096;
/** A record line far longer than any row; past this the file is not a device log. */
const MAX_RECORD_LINE = 1 << 20;
/** Rows parsed per csv-parse call: one call per row costs more than the decryption. */
const CSV_BATCH = 256;

const LF = 10;
const CR = 13;

const corrupted = (reason: string) => new DeviceLogError("corrupted", reason);

/**
 * The push parser behind readDeviceLog and decryptToRows: write() chunks, then end(). Rows go to
 * `emit` as they are checked; a fault throws (and rows emitted so far must be discarded).
 */
export class DeviceLogDecoder {
  private readonly options: DeviceLogOptions;
  private carry: Buffer | null = null;
  private lines = 0;
  private keyId = "";
  private key: Buffer | null = null;
  private records = 0;
  private dataRows = 0;
  private lastEventId = 0;
  private ended = false;
  private batch: string[] = [];
  /** Record index of batch[0]. */
  private batchStart = 1;
  private readonly utf8 = new TextDecoder("utf-8", { fatal: true });

  constructor(options: DeviceLogOptions) {
    this.options = options;
  }

  write(chunk: Buffer | string, emit: (row: DeviceLogRow) => void) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    for (let nl = buf.indexOf(LF); nl !== -1; nl = buf.indexOf(LF, start)) {
      let line = buf.subarray(start, nl);
      if (this.carry) {
        line = Buffer.concat([this.carry, line]);
        this.carry = null;
      }
      start = nl + 1;
      this.line(
        line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line,
        emit,
      );
    }
    if (start < buf.length) {
      const rest = buf.subarray(start);
      this.carry = this.carry ? Buffer.concat([this.carry, rest]) : rest;
      if (this.carry.length > (this.lines === 0 ? MAX_FIRST_LINE : MAX_RECORD_LINE))
        throw this.lines === 0
          ? new DeviceLogError("invalidFile", "line 1 is not a BWZLOG/1 line")
          : corrupted(`line ${this.lines + 1} is too long to be a record`);
    }
  }

  end(emit: (row: DeviceLogRow) => void) {
    // A last line without a newline; a newline at the very end adds no line.
    if (this.carry) {
      const last = this.carry;
      this.carry = null;
      this.line(last, emit);
    }
    if (this.lines === 0) throw new DeviceLogError("invalidFile", "the file is empty");
    if (!this.ended) {
      this.flush(emit);
      throw corrupted(
        this.records === 0 ? "no records after line 1" : "no #END record: the file is truncated",
      );
    }
  }

  private line(line: Buffer, emit: (row: DeviceLogRow) => void) {
    this.lines += 1;
    if (this.lines === 1) return this.firstLine(line.toString("latin1"));
    if (line.length === 0) return this.fail(corrupted(`line ${this.lines} is blank`), emit);
    if (this.ended) return this.fail(corrupted(`line ${this.lines} follows the #END record`), emit);
    const index = this.records++;
    const text = this.decrypt(line, index, emit);
    if (index === 0) {
      if (text !== LOG_HEADER) throw corrupted("record 0 is not the header");
    } else if (text.startsWith("#END")) {
      this.flush(emit);
      const m = END_RECORD.exec(text);
      if (!m) throw corrupted(`record ${index}: malformed #END record`);
      if (Number(m[1]) !== this.dataRows)
        throw corrupted(`#END counts ${m[1]} records, the file has ${this.dataRows}`);
      this.ended = true;
    } else {
      this.dataRows += 1;
      if (LINE_BREAK.test(text)) {
        this.flush(emit);
        emit(this.row(this.parseOne(text, index), index));
      } else {
        if (this.batch.length === 0) this.batchStart = index;
        this.batch.push(text);
        if (this.batch.length === CSV_BATCH) this.flush(emit);
      }
    }
  }

  private firstLine(text: string) {
    const m = LOG_LINE.exec(text);
    if (!m) {
      // Line 1 is read as latin1, so a UTF-8 byte-order mark shows as these three characters.
      const bare = text.startsWith("\u00ef\u00bb\u00bf") ? text.slice(3) : text;
      if (bare === LOG_HEADER || bare === QUOTED_HEADER)
        throw new DeviceLogError("alreadyDecrypted", "line 1 is the plain CSV header");
      throw new DeviceLogError("invalidFile", "line 1 is not a BWZLOG/1 line");
    }
    const [, keyId, deviceId] = m;
    const key = this.options.keys.get(keyId);
    if (!key) throw corrupted(`unknown key id ${keyId}`);
    if (key.length !== 32) throw corrupted(`key ${keyId} is not 32 bytes`);
    if (this.options.expectedDeviceId !== undefined && deviceId !== this.options.expectedDeviceId)
      throw corrupted(`line 1 names device ${deviceId}, the file name another`);
    this.keyId = keyId;
    this.key = key;
    this.options.onHeader?.({ keyId, deviceId });
  }

  private decrypt(line: Buffer, index: number, emit: (row: DeviceLogRow) => void) {
    const b64 = line.toString("latin1");
    const raw = Buffer.from(b64, "base64");
    // Buffer.from skips what is not base64; only canonical, padded text survives the round trip.
    if (raw.toString("base64") !== b64)
      return this.fail(corrupted(`record ${index} is not standard padded base64`), emit);
    if (raw.length < NONCE_BYTES + TAG_BYTES)
      return this.fail(corrupted(`record ${index} is shorter than nonce and tag`), emit);
    let plain: Buffer;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key!, raw.subarray(0, NONCE_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(`${this.keyId}:${index}`, "latin1"));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      plain = decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES));
      decipher.final();
    } catch {
      return this.fail(corrupted(`record ${index} fails authentication`), emit);
    }
    try {
      return this.utf8.decode(plain);
    } catch {
      return this.fail(corrupted(`record ${index} is not UTF-8 text`), emit);
    }
  }

  /** Reports the earliest fault: rows waiting in the batch come before this one. */
  private fail(error: DeviceLogError, emit: (row: DeviceLogRow) => void): never {
    this.flush(emit);
    throw error;
  }

  private flush(emit: (row: DeviceLogRow) => void) {
    const batch = this.batch;
    if (batch.length === 0) return;
    this.batch = [];
    const first = this.batchStart;
    let fields: string[][] | null = null;
    try {
      fields = parse(batch.join("\n"), { record_delimiter: "\n" }) as string[][];
    } catch {
      fields = null;
    }
    // No row holds a line break, so a quote running past one merges rows and changes the count;
    // on any doubt, each row again alone to find the first bad one.
    if (!fields || fields.length !== batch.length || fields.some((f) => f.length !== 5))
      fields = batch.map((text, i) => this.parseOne(text, first + i));
    for (let i = 0; i < fields.length; i++) emit(this.row(fields[i], first + i));
  }

  private parseOne(text: string, index: number) {
    let rows: string[][];
    try {
      rows = parse(text) as string[][];
    } catch {
      throw corrupted(`record ${index} is not a valid CSV row`);
    }
    if (rows.length !== 1 || rows[0].length !== 5 || /[\r\n]$/.test(text))
      throw corrupted(`record ${index} is not one CSV row of 5 fields`);
    return rows[0];
  }

  private row(fields: string[], index: number): DeviceLogRow {
    const [id, eventType, logType, timeStamp, value] = fields;
    if (!EVENT_ID.test(id) || id.length > 15)
      throw corrupted(`record ${index}: Event ID is not a positive integer`);
    const eventId = Number(id);
    if (eventId <= this.lastEventId) throw corrupted(`record ${index}: records out of order`);
    this.lastEventId = eventId;
    if (!EVENT_TYPE_SET.has(eventType)) throw corrupted(`record ${index}: unknown Event Type`);
    if (!LOG_TYPE_SET.has(logType)) throw corrupted(`record ${index}: unknown Log Type`);
    if (!TIME_STAMP.test(timeStamp)) throw corrupted(`record ${index}: malformed Time Stamp`);
    const pairs = parseValuePairs(value);
    if (!pairs) throw corrupted(`record ${index}: Value is not KEY:value pairs`);
    return {
      record: index,
      eventId,
      eventType: eventType as EventType,
      logType: logType as LogType,
      timeStamp,
      stamp: packStamp(timeStamp),
      value,
      pairs,
    };
  }
}

/**
 * Decrypts and checks a log as it streams in, yielding its data rows. It throws a DeviceLogError
 * at the first fault, possibly after yielding rows (the #END check is last): a caller that writes
 * rows somewhere must write to a temporary place and keep it only when the loop completes.
 */
export async function* readDeviceLog(
  source: LogSource,
  options: DeviceLogOptions,
): AsyncGenerator<DeviceLogRow, void, undefined> {
  const decoder = new DeviceLogDecoder(options);
  const ready: DeviceLogRow[] = [];
  const emit = (row: DeviceLogRow) => void ready.push(row);
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    decoder.write(chunk, emit);
    if (ready.length > 0) {
      const rows = ready.splice(0);
      yield* rows;
    }
  }
  decoder.end(emit);
  yield* ready;
}

/**
 * A whole cough log checked and collected into the compact model (model.ts). Either every check
 * passes and the model comes back, or a DeviceLogError is thrown and nothing is kept. Clear logs
 * have no model (the product offers them as CSV only): use csv.ts.
 */
export async function decryptToRows(
  source: LogSource,
  options: DeviceLogOptions,
): Promise<CoughLogModel> {
  if (options.deviceType !== "cough")
    throw new Error("decryptToRows: only cough logs have a model; clear logs are CSV only");
  let header: DeviceLogHeader | null = null;
  const decoder = new DeviceLogDecoder({
    ...options,
    onHeader: (h) => {
      header = h;
      options.onHeader?.(h);
    },
  });
  const builder = buildCoughLog();
  const emit = (row: DeviceLogRow) => builder.add(row);
  for await (const chunk of source as AsyncIterable<Buffer | string>) decoder.write(chunk, emit);
  decoder.end(emit);
  return builder.finish(header!);
}
