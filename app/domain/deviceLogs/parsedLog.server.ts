// A decrypted log kept on disk (issue 23 item 6), so that opening it again reads this instead of
// decrypting the upload again. Two files per upload under DATA_DIR/devicelogs/parsed/, written
// once by the decrypt worker (decryptWorker.ts) and removed with the upload:
//   <id>.model  the cough model (model.ts) as it sits in memory: a JSON head, then each column's
//               numbers as raw bytes (cough logs only);
//   <id>.rows   every data row (id, types, time stamp, Value as written) for the CSV download.
// Both are sealed the same way: an 8-byte magic, a 16-byte key check, then segments of at most
// SEGMENT_BYTES of plaintext, each AES-256-GCM with a random nonce and, as associated data, the
// file's kind, the upload's id, the segment's index and whether it is the last one. So a segment
// cannot be changed, moved, swapped with another upload's or dropped from the end without the read
// failing (ParsedLogTampered): the reader gives nothing of a file it cannot authenticate.
// The key is derived per upload with HKDF-SHA256 from the server's session secret (its input key
// material) and the upload's id (its info): nothing secret is stored beside the files. The key
// check tells a file sealed under another secret (SESSION_SECRET changed: ParsedLogStale, which
// the caller answers by decrypting the upload again) from a tampered one.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { EVENT_TYPES, LOG_TYPES, type DeviceLogRow, type EventType, type LogType } from "./rows";
import {
  Column,
  COLUMN_TYPES,
  type ColumnType,
  type CoughLogModel,
  type NumberArray,
  type SettingsChange,
  type Alarm,
} from "./model";

const MAGIC = Buffer.from("ARCPLOG1", "latin1");
const CHECK_BYTES = 16;
const HEAD_BYTES = MAGIC.length + CHECK_BYTES;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Plaintext per segment at most: a segment is decrypted whole, on the main thread when read. */
export const SEGMENT_BYTES = 2 << 20;
/** length (u32) and last-segment flag (u8) before each segment's nonce. */
const SEGMENT_HEAD = 5;
const HKDF_SALT = "arc-connect/device-log-parsed/1";
/**
 * 2: the head and each column start a segment of their own, so a column's segments are its
 * values as they are (read back without a copy). 1 (one stream of bytes) is read as stale.
 */
const MODEL_VERSION = 2;

export type ParsedKind = "model" | "rows";

/** A file that fails any check: changed, cut, or not one of ours. Nothing of it is used. */
export class ParsedLogTampered extends Error {
  constructor(reason: string) {
    super(`parsed device log fails authentication: ${reason}`);
    this.name = "ParsedLogTampered";
  }
}

/** A file sealed under another server secret: decrypt the upload again. */
export class ParsedLogStale extends Error {
  constructor() {
    super("parsed device log sealed under another secret");
    this.name = "ParsedLogStale";
  }
}

/** The upload's own key: HKDF-SHA256(session secret, salt, upload id). */
export function parsedLogKey(secret: string, logId: string) {
  return Buffer.from(hkdfSync("sha256", secret, HKDF_SALT, logId, 32));
}

const keyCheck = (key: Buffer) =>
  createHmac("sha256", key).update("ARCPLOG1 key check").digest().subarray(0, CHECK_BYTES);

const aad = (kind: ParsedKind, logId: string, index: number, last: boolean) =>
  Buffer.from(`ARCPLOG1|${kind}|${logId}|${index}|${last ? 1 : 0}`, "latin1");

/** Writes a sealed file (synchronously: it runs in the decrypt worker). */
export class SealedFileWriter {
  private readonly fd: number;
  private index = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly key: Buffer,
    private readonly kind: ParsedKind,
    private readonly logId: string,
  ) {
    this.fd = fs.openSync(path, "w", 0o600);
    fs.writeSync(this.fd, Buffer.concat([MAGIC, keyCheck(key)]));
  }

  /** Appends bytes (kept by reference until sealed); full segments are sealed as they fill. */
  push(bytes: Uint8Array) {
    let offset = 0;
    while (offset < bytes.length) {
      const take = Math.min(SEGMENT_BYTES - this.pendingBytes, bytes.length - offset);
      this.pending.push(bytes.subarray(offset, offset + take));
      this.pendingBytes += take;
      offset += take;
      if (this.pendingBytes === SEGMENT_BYTES) this.seal(false);
    }
  }

  /** Seals what is pending as one segment now (rows: a segment holds whole rows). */
  flush() {
    if (this.pendingBytes > 0) this.seal(false);
  }

  /** Seals the last segment (possibly empty) and makes the file durable. */
  close() {
    this.seal(true);
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    this.closed = true;
  }

  abort() {
    if (!this.closed) fs.closeSync(this.fd);
    this.closed = true;
    fs.rmSync(this.path, { force: true });
  }

  private seal(last: boolean) {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(this.kind, this.logId, this.index, last));
    const head = Buffer.alloc(SEGMENT_HEAD);
    head.writeUInt32LE(this.pendingBytes, 0);
    head[4] = last ? 1 : 0;
    const parts: Buffer[] = [head, nonce];
    for (const piece of this.pending) parts.push(cipher.update(piece));
    parts.push(cipher.final(), cipher.getAuthTag());
    fs.writevSync(this.fd, parts);
    this.index += 1;
    this.pending = [];
    this.pendingBytes = 0;
  }
}

async function readAt(file: fsp.FileHandle, position: number, length: number) {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

function readAtSync(fd: number, position: number, length: number) {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const bytesRead = fs.readSync(fd, buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** Checks the head of a sealed file: throws ParsedLogTampered or ParsedLogStale. */
function checkHead(head: Buffer, key: Buffer) {
  if (head.length < HEAD_BYTES || !head.subarray(0, MAGIC.length).equals(MAGIC))
    throw new ParsedLogTampered("not a parsed log");
  if (!timingSafeEqual(head.subarray(MAGIC.length), keyCheck(key))) throw new ParsedLogStale();
}

/** A segment's head: its plaintext length and whether it is the last. */
function segmentHeadOf(segmentHead: Buffer) {
  if (segmentHead.length < SEGMENT_HEAD) throw new ParsedLogTampered("cut short");
  const length = segmentHead.readUInt32LE(0);
  const flag = segmentHead[4];
  if (flag > 1 || length > SEGMENT_BYTES) throw new ParsedLogTampered("bad segment head");
  return { length, last: flag === 1 };
}

/** A segment's plaintext, authenticated, from its nonce, ciphertext and tag. */
function openSegment(
  body: Buffer,
  length: number,
  where: { key: Buffer; kind: ParsedKind; logId: string; index: number; last: boolean },
) {
  if (body.length < NONCE_BYTES + length + TAG_BYTES) throw new ParsedLogTampered("cut short");
  try {
    const decipher = createDecipheriv("aes-256-gcm", where.key, body.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad(where.kind, where.logId, where.index, where.last));
    decipher.setAuthTag(body.subarray(NONCE_BYTES + length));
    const update = decipher.update(body.subarray(NONCE_BYTES, NONCE_BYTES + length));
    const tail = decipher.final();
    return tail.length ? Buffer.concat([update, tail]) : update;
  } catch {
    throw new ParsedLogTampered(`segment ${where.index}`);
  }
}

/**
 * The plaintext segments of a sealed file, each authenticated before it is given out; throws
 * ParsedLogTampered at the first fault (including a file cut after a segment, or bytes after the
 * last), ParsedLogStale for another secret's file, and ENOENT when there is no file.
 */
export async function* readSealedFile(
  path: string,
  key: Buffer,
  kind: ParsedKind,
  logId: string,
): AsyncGenerator<Buffer, void, undefined> {
  const file = await fsp.open(path, "r");
  const read: ReadAt = (position, length) => readAt(file, position, length);
  try {
    checkHead(await read(0, HEAD_BYTES), key);
    let position = HEAD_BYTES;
    for (let index = 0; ; index++) {
      const { length, last } = segmentHeadOf(await read(position, SEGMENT_HEAD));
      const body = await read(position + SEGMENT_HEAD, NONCE_BYTES + length + TAG_BYTES);
      const plain = openSegment(body, length, { key, kind, logId, index, last });
      position += SEGMENT_HEAD + NONCE_BYTES + length + TAG_BYTES;
      if (last) {
        if ((await read(position, 1)).length > 0)
          throw new ParsedLogTampered("bytes after the last segment");
        if (plain.length) yield plain;
        return;
      }
      yield plain;
    }
  } finally {
    await file.close();
  }
}

/**
 * readSealedFile, synchronously (for the decrypt worker, which has nothing else to do). One read
 * per segment (its nonce, ciphertext and tag, and the next segment's head) into one buffer used
 * again for every segment: only the plaintexts are new memory (fresh pages cost more than the
 * decrypt on a busy machine).
 */
export function* readSealedFileSync(
  path: string,
  key: Buffer,
  kind: ParsedKind,
  logId: string,
): Generator<Buffer, void, undefined> {
  const fd = fs.openSync(path, "r");
  try {
    checkHead(readAtSync(fd, 0, HEAD_BYTES), key);
    let position = HEAD_BYTES;
    let head = readAtSync(fd, position, SEGMENT_HEAD);
    let scratch = Buffer.allocUnsafe(0);
    for (let index = 0; ; index++) {
      const { length, last } = segmentHeadOf(head);
      const bodyBytes = NONCE_BYTES + length + TAG_BYTES;
      // The last segment reads one byte more: there must be none.
      const want = bodyBytes + (last ? 1 : SEGMENT_HEAD);
      if (scratch.length < want) scratch = Buffer.allocUnsafe(Math.max(want, NONCE_BYTES + SEGMENT_BYTES + TAG_BYTES + SEGMENT_HEAD)); // prettier-ignore
      const got = readInto(fd, scratch.subarray(0, want), position + SEGMENT_HEAD);
      const body = scratch.subarray(0, Math.min(got, bodyBytes));
      const plain = openSegment(body, length, { key, kind, logId, index, last });
      position += SEGMENT_HEAD + bodyBytes;
      if (last) {
        if (got > bodyBytes) throw new ParsedLogTampered("bytes after the last segment");
        if (plain.length) yield plain;
        return;
      }
      // Copied out: the scratch buffer is read into again.
      head = Buffer.from(scratch.subarray(bodyBytes, got));
      yield plain;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Fills `target` from `position` on, as far as the file goes; the bytes read. */
function readInto(fd: number, target: Buffer, position: number) {
  let done = 0;
  while (done < target.length) {
    const bytesRead = fs.readSync(fd, target, done, target.length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

// ---- The cough model ----

const GROUPS = ["therapies", "cycles", "hmr"] as const;
type ColumnHead = { group: (typeof GROUPS)[number]; key: string; type: ColumnType; length: number };
export type ModelHead = {
  version: number;
  keyId: string;
  deviceId: string;
  rows: number;
  firstStamp: number | null;
  lastStamp: number | null;
  modes: string[];
  therapyExtras: [number, [string, string][]][];
  orphanCycles: number;
  settings: SettingsChange[];
  alarms: Alarm[];
  systemEvents: Record<string, number>;
  columns: ColumnHead[];
};

const typeOf = (column: Column) =>
  (Object.keys(COLUMN_TYPES) as ColumnType[]).find((t) => COLUMN_TYPES[t] === column.make)!;

function columnsOf(model: CoughLogModel) {
  return GROUPS.flatMap((group) =>
    Object.entries(model[group] as Record<string, Column>).map(([key, column]) => ({
      group,
      key,
      column,
    })),
  );
}

/** What a model holds in memory, roughly: its columns' chunks plus its lists. */
export function modelBytes(model: CoughLogModel, headBytes = 0) {
  const columns = columnsOf(model).reduce((sum, c) => sum + c.column.byteLength, 0);
  return columns + headBytes * 2;
}

export function writeModelFile(path: string, key: Buffer, logId: string, model: CoughLogModel) {
  const columns = columnsOf(model);
  const head: ModelHead = {
    version: MODEL_VERSION,
    keyId: model.keyId,
    deviceId: model.deviceId,
    rows: model.rows,
    firstStamp: model.firstStamp,
    lastStamp: model.lastStamp,
    modes: model.modes,
    therapyExtras: [...model.therapyExtras.entries()],
    orphanCycles: model.orphanCycles,
    settings: model.settings,
    alarms: model.alarms,
    systemEvents: model.systemEvents,
    columns: columns.map(({ group, key, column }) => ({
      group,
      key,
      type: typeOf(column),
      length: column.length,
    })),
  };
  const json = Buffer.from(JSON.stringify(head), "utf8");
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length, 0);
  const writer = new SealedFileWriter(path, key, "model", logId);
  try {
    writer.push(size);
    writer.push(json);
    writer.flush();
    // SEGMENT_BYTES is a multiple of every column's chunk in bytes: a column's full segments
    // hold whole chunks, and each column ends its last segment.
    for (const { column } of columns) {
      for (const view of column.views())
        writer.push(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
      writer.flush();
    }
    writer.close();
  } catch (error) {
    writer.abort();
    throw error;
  }
}

/** A model as read from its sealed file: its head and its columns' values, in parts. */
export type ModelParts = {
  head: ModelHead;
  headBytes: number;
  /** Each part owns its whole buffer (the decrypt worker transfers them). */
  columns: { group: ColumnHead["group"]; key: string; type: ColumnType; parts: NumberArray[] }[];
};

const ELEMENT_BYTES: Record<ColumnType, number> = { f64: 8, f32: 4, i32: 4, u8: 1 };
const VIEWS = { f64: Float64Array, f32: Float32Array, i32: Int32Array, u8: Uint8Array } as const;

/** A segment's bytes as a column's values: a view when it owns its buffer and is aligned. */
function valuesOf(segment: Buffer, type: ColumnType): NumberArray {
  const bytes = ELEMENT_BYTES[type];
  const owned = segment.byteOffset === 0 && segment.byteLength === segment.buffer.byteLength;
  // A copy starts at offset 0 of its own buffer.
  const source = owned ? segment : new Uint8Array(segment);
  return new VIEWS[type](
    source.buffer as ArrayBuffer,
    source.byteOffset,
    source.byteLength / bytes,
  );
}

/**
 * Reads a sealed model synchronously (the decrypt worker; it transfers the parts' buffers to the
 * main thread, which builds the model: modelFromParts). Each column's values are the plaintext
 * of its own segments, used as they are: no copy, no zeroed arrays.
 */
export function readModelParts(path: string, key: Buffer, logId: string): ModelParts {
  const segments = readSealedFileSync(path, key, "model", logId);
  const next = () => {
    const segment = segments.next();
    if (segment.done) throw new ParsedLogTampered("ends early");
    return segment.value;
  };
  // The head: its size, then its JSON, ending a segment.
  let headBuffer = next();
  if (headBuffer.length < 4) throw new ParsedLogTampered("bad head");
  const size = headBuffer.readUInt32LE(0);
  if (size > 256 << 20) throw new ParsedLogTampered("head too large");
  const pieces = [headBuffer];
  let have = headBuffer.length;
  while (have < 4 + size) {
    headBuffer = next();
    pieces.push(headBuffer);
    have += headBuffer.length;
  }
  const json = Buffer.concat(pieces).subarray(4, 4 + size);
  let head: ModelHead;
  try {
    head = JSON.parse(json.toString("utf8")) as ModelHead;
  } catch {
    throw new ParsedLogTampered("bad head");
  }
  // Another version's form (1: the head and the columns in one stream): decrypt the upload again.
  if (head.version !== MODEL_VERSION) throw new ParsedLogStale();
  if (have !== 4 + size) throw new ParsedLogTampered("bad head");
  const columns = head.columns.map((c) => {
    if (!(c.type in COLUMN_TYPES)) throw new ParsedLogTampered("unknown column type");
    const bytes = c.length * ELEMENT_BYTES[c.type];
    const parts: NumberArray[] = [];
    for (let taken = 0; taken < bytes;) {
      const segment = next();
      taken += segment.length;
      if (taken > bytes || segment.length % ELEMENT_BYTES[c.type] !== 0)
        throw new ParsedLogTampered("column does not end a segment");
      parts.push(valuesOf(segment, c.type));
    }
    return { group: c.group, key: c.key, type: c.type, parts };
  });
  if (!segments.next().done) throw new ParsedLogTampered("bytes after the model");
  return { head, headBytes: size, columns };
}

/** The model of its parts, and what it holds in memory. */
export function modelFromParts({ head, headBytes, columns }: ModelParts) {
  const groups: Record<string, Record<string, Column>> = { therapies: {}, cycles: {}, hmr: {} };
  for (const c of columns) {
    try {
      groups[c.group][c.key] = Column.ofParts(c.parts, COLUMN_TYPES[c.type]);
    } catch {
      throw new ParsedLogTampered("column parts");
    }
  }
  const model = {
    keyId: head.keyId,
    deviceId: head.deviceId,
    rows: head.rows,
    firstStamp: head.firstStamp,
    lastStamp: head.lastStamp,
    modes: head.modes,
    therapies: groups.therapies,
    therapyExtras: new Map(head.therapyExtras),
    cycles: groups.cycles,
    orphanCycles: head.orphanCycles,
    settings: head.settings,
    hmr: groups.hmr,
    alarms: head.alarms,
    systemEvents: head.systemEvents,
  } as unknown as CoughLogModel;
  return { model, bytes: modelBytes(model, headBytes) };
}

// ---- The rows (CSV) ----

/** A row as the CSV download needs it. */
export type StoredRow = Pick<
  DeviceLogRow,
  "eventId" | "eventType" | "logType" | "timeStamp" | "value"
>;

const ROWS_FLUSH = 256 * 1024;
const STAMP_BYTES = 19;

/** Rows into a sealed file, whole rows per segment: Event ID (f64), types (u8 each), Time Stamp
 * (19 bytes), Value (u32 length, UTF-8). */
export class RowsWriter {
  private buffer = Buffer.allocUnsafe(ROWS_FLUSH * 2);
  private used = 0;
  private readonly writer: SealedFileWriter;

  constructor(path: string, key: Buffer, logId: string) {
    this.writer = new SealedFileWriter(path, key, "rows", logId);
  }

  add(row: DeviceLogRow) {
    const valueBytes = Buffer.byteLength(row.value, "utf8");
    const size = 8 + 2 + STAMP_BYTES + 4 + valueBytes;
    if (this.used + size > this.buffer.length) {
      this.flush();
      if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    }
    const b = this.buffer;
    let at = this.used;
    b.writeDoubleLE(row.eventId, at);
    b[at + 8] = EVENT_TYPES.indexOf(row.eventType);
    b[at + 9] = LOG_TYPES.indexOf(row.logType);
    b.write(row.timeStamp, at + 10, STAMP_BYTES, "latin1");
    at += 10 + STAMP_BYTES;
    b.writeUInt32LE(valueBytes, at);
    b.write(row.value, at + 4, valueBytes, "utf8");
    this.used = at + 4 + valueBytes;
    if (this.used >= ROWS_FLUSH) this.flush();
  }

  close() {
    this.flush();
    this.writer.close();
  }

  abort() {
    this.writer.abort();
  }

  private flush() {
    if (this.used === 0) return;
    // Sealing copies the bytes (the cipher's output), so the buffer is reused at once.
    this.writer.push(this.buffer.subarray(0, this.used));
    this.writer.flush();
    this.used = 0;
  }
}

/** The stored rows in order, each segment authenticated before its rows are given out. */
export async function* readRowsFile(
  path: string,
  key: Buffer,
  logId: string,
): AsyncGenerator<StoredRow, void, undefined> {
  for await (const segment of readSealedFile(path, key, "rows", logId)) {
    const rows: StoredRow[] = [];
    let at = 0;
    while (at < segment.length) {
      const eventId = segment.readDoubleLE(at);
      const eventType = EVENT_TYPES[segment[at + 8]] as EventType;
      const logType = LOG_TYPES[segment[at + 9]] as LogType;
      const timeStamp = segment.toString("latin1", at + 10, at + 10 + STAMP_BYTES);
      at += 10 + STAMP_BYTES;
      const length = segment.readUInt32LE(at);
      const value = segment.toString("utf8", at + 4, at + 4 + length);
      at += 4 + length;
      rows.push({ eventId, eventType, logType, timeStamp, value });
    }
    yield* rows;
  }
}
