// Writes encrypted device log files (format 1) exactly as shared/DEVICE-LOG-FORMAT.md describes
// them, for the tests and benchmarks of the log-decrypt module: realistic, seeded content of a cough
// (C) or clear (K) device, and on request the faults a reader must reject. Nothing here knows the
// reader's code: only the contract.
//
//   npx tsx scripts/make-device-log.ts --type cough|clear --device <id> [--out-dir DIR] \
//     [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--therapies-per-day N] [--size-mb N] [--seed N] \
//     [--key-id demo] [--key-hex <64 hex>] [--file-date DDMMYYYY_HHmmss] [--crlf] \
//     [--clock-wrong] [--corrupt-record N] [--truncate [cut]] [--wrong-key] [--decrypted] \
//     [--unknown-key]
//
// Days run from --from to --to (default: the two weeks up to yesterday). --size-mb N keeps writing
// days from --from, past --to if need be, until the file holds N MiB; the file is then named after
// its last day. The file name's date is --file-date, else the last day at 18:30:00. Without
// --therapies-per-day a day has 1 to 4 therapies and now and then the device is not used at all.
// Faults: --clock-wrong stamps the first day in 2019 and the second (or a one-day log's closing
// rows) in the current year + 2; --corrupt-record N flips a ciphertext byte of record N (0 is the
// header record); --truncate drops the #END record, `--truncate cut` also cuts the last line half
// way (no final newline); --wrong-key encrypts with a random key under the same keyId;
// --unknown-key names a key that is not configured; --decrypted writes the plain CSV.
// Prints the written path.
import crypto from "node:crypto";
import fs from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { finished } from "node:stream/promises";
import { addDays, format } from "date-fns";
import { prng } from "./sim/prng";

export type DeviceType = "cough" | "clear";

export type DeviceLogOptions = {
  type: DeviceType;
  /** ASCII letters and digits, without the C/K prefix. */
  deviceId: string;
  /** First day, YYYY-MM-DD (device local); default 13 days before `to`. */
  from?: string;
  /** Last day, YYYY-MM-DD; default yesterday. Ignored with sizeMb. */
  to?: string;
  /** Exactly this many therapies every day (0 to 100); default 1 to 4, some days none. */
  therapiesPerDay?: number;
  /** Keep writing days until the file holds this many MiB. */
  sizeMb?: number;
  seed?: number;
  keyId?: string;
  /** 64 hex characters; needed unless keyId is `demo`. */
  keyHex?: string;
  /** DDMMYYYY_HHmmss for the file name (not checked for a real date, to name bad files too). */
  fileDate?: string;
  crlf?: boolean;
  clockWrong?: boolean;
  corruptRecord?: number;
  /** true: no #END record; "cut": also the last line cut half way, without a final newline. */
  truncate?: boolean | "cut";
  wrongKey?: boolean;
  decrypted?: boolean;
  unknownKey?: boolean;
};

export type WriteDeviceLogOptions = DeviceLogOptions & { dir: string };

export type EventType = "THERAPY" | "CYCLE" | "SETTINGS" | "SYSTEM" | "ALARM";
export type LogType = "INFO" | "WARNING" | "ERROR";

export type DeviceLogRow = {
  eventId: number;
  eventType: EventType;
  logType: LogType;
  timeStamp: string;
  value: string;
};

/** What a generator produced so far; filled in as its lines are consumed. */
export type DeviceLogStats = {
  rows: number;
  therapies: number;
  cycles: number;
  /** The last day generated, YYYY-MM-DD. */
  lastDay: string;
};

export const DEMO_KEY_ID = "demo";
export const DEMO_KEY_HEX = "abb91ebdce2a968d0da34512fa6b1704f9bc3e0f562636826ea2d51ee87e2618";
export const DEVICE_LOG_HEADER = "Event ID,Event Type,Log Type,Time Stamp,Value";
/** A keyId that no configuration holds (for --unknown-key). */
export const UNKNOWN_KEY_ID = "not-configured";

const DAY_MS = 86_400_000;
const MAX_THERAPIES_PER_DAY = 100;

const pad2 = (n: number) => (n < 10 ? "0" : "") + n;

function parseDay(text: string, name: string) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = match ? Date.UTC(+match[1], +match[2] - 1, +match[3]) : NaN;
  if (!match || Number.isNaN(ms) || dayText(ms) !== text) {
    throw new Error(`--${name} must be a real date YYYY-MM-DD, not "${text}"`);
  }
  return ms;
}

/** YYYY-MM-DD of a UTC midnight, optionally in another year (29 February becomes the 28th). */
function dayText(ms: number, year?: number) {
  const date = new Date(ms);
  const month = date.getUTCMonth() + 1;
  let day = date.getUTCDate();
  const y = year ?? date.getUTCFullYear();
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (month === 2 && day === 29 && !leap) day = 28;
  return `${String(y).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`;
}

function clockText(seconds: number) {
  const s = Math.min(Math.max(Math.round(seconds), 0), DAY_MS / 1000 - 1);
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
}

/** One RFC 4180 field: quoted when it must be, or always (the Value, which holds commas). */
function csvField(text: string, always = false) {
  return always || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A row as its CSV record (no line ending). */
export function csvRow(row: DeviceLogRow) {
  return [
    String(row.eventId),
    csvField(row.eventType),
    csvField(row.logType),
    csvField(row.timeStamp),
    csvField(row.value, true),
  ].join(",");
}

/** `<T><deviceId>_<DD><MM><YYYY>_<HH><mm><ss>_system.csv`; fileDate is DDMMYYYY_HHmmss. */
export function deviceLogFileName(type: DeviceType, deviceId: string, fileDate: string) {
  return `${type === "cough" ? "C" : "K"}${deviceId}_${fileDate}_system.csv`;
}

/** The file name's date for a log whose last day is `day` (YYYY-MM-DD): that day at 18:30:00. */
function fileDateOf(day: string) {
  const [y, m, d] = day.split("-");
  return `${d}${m}${y}_183000`;
}

type Resolved = {
  type: DeviceType;
  deviceId: string;
  fromMs: number;
  /** Last day, or null when the size decides. */
  toMs: number | null;
  therapiesPerDay: number | null;
  sizeBytes: number | null;
  seed: number;
  keyId: string;
  key: Buffer;
};

function resolve(options: DeviceLogOptions): Resolved {
  if (options.type !== "cough" && options.type !== "clear") {
    throw new Error(`--type must be cough or clear, not "${String(options.type)}"`);
  }
  if (!/^[A-Za-z0-9]+$/.test(options.deviceId ?? "")) {
    throw new Error("--device must be one or more ASCII letters and digits");
  }
  const toMs = parseDay(
    options.to ?? format(addDays(new Date(), -1), "yyyy-MM-dd"),
    options.to ? "to" : "to (default)",
  );
  const fromMs = options.from ? parseDay(options.from, "from") : toMs - 13 * DAY_MS;
  if (!options.sizeMb && fromMs > toMs) throw new Error("--from must not be after --to");
  const perDay = options.therapiesPerDay;
  if (
    perDay !== undefined &&
    (!Number.isInteger(perDay) || perDay < 0 || perDay > MAX_THERAPIES_PER_DAY)
  ) {
    throw new Error(`--therapies-per-day must be an integer from 0 to ${MAX_THERAPIES_PER_DAY}`);
  }
  if (options.sizeMb !== undefined && !(options.sizeMb > 0)) {
    throw new Error("--size-mb must be a positive number");
  }
  if (options.fileDate !== undefined && !/^\d{8}_\d{6}$/.test(options.fileDate)) {
    throw new Error("--file-date must be DDMMYYYY_HHmmss");
  }
  if (
    options.corruptRecord !== undefined &&
    (!Number.isInteger(options.corruptRecord) || options.corruptRecord < 0)
  ) {
    throw new Error("--corrupt-record must be a record index (0 is the header record)");
  }
  const keyId = options.unknownKey ? UNKNOWN_KEY_ID : (options.keyId ?? DEMO_KEY_ID);
  if (!/^[A-Za-z0-9-]{1,32}$/.test(keyId)) {
    throw new Error("--key-id must be 1 to 32 of A-Z, a-z, 0-9 and -");
  }
  let key: Buffer;
  if (options.wrongKey || options.unknownKey) {
    key = crypto.randomBytes(32);
  } else {
    const hex = options.keyHex ?? (keyId === DEMO_KEY_ID ? DEMO_KEY_HEX : undefined);
    if (!hex || !/^[0-9a-fA-F]{64}$/.test(hex)) {
      throw new Error(`--key-hex must be 64 hex characters (needed for key "${keyId}")`);
    }
    key = Buffer.from(hex, "hex");
  }
  return {
    type: options.type,
    deviceId: options.deviceId,
    fromMs,
    toMs: options.sizeMb ? null : toMs,
    therapiesPerDay: perDay ?? null,
    sizeBytes: options.sizeMb ? Math.ceil(options.sizeMb * 1024 * 1024) : null,
    seed: options.seed ?? 42,
    keyId,
    key,
  };
}

type CoughPrescription = {
  MODE: "Auto" | "Manual";
  R_C: number;
  P_P: number;
  I_P: number;
  E_P: number;
  P_T: number;
  I_T: number;
  E_T: number;
  O_F: 0 | 1;
};

const COUGH_ALARMS: [LogType, string, string][] = [
  ["WARNING", "A01", "Low battery"],
  ["WARNING", "A07", "Circuit leak detected"],
  ["WARNING", "A15", 'Therapy stopped by "Stop" key'],
  ["ERROR", "E12", "High pressure"],
  ["ERROR", "E03", "Blower overheat"],
];
const CLEAR_ALARMS: [LogType, string, string][] = [
  ["WARNING", "A02", "Low battery"],
  ["WARNING", "A09", "Nebulizer not detected"],
  ["WARNING", "A11", 'Session paused by "Pause" key'],
  ["ERROR", "E21", "Compressor fault"],
];

function settingsValue(rx: CoughPrescription, delivered?: number) {
  return (
    `MODE:${rx.MODE},R_C:${rx.R_C}` +
    (delivered === undefined ? "" : `,N_C:${delivered}`) +
    `,P_P:${rx.P_P},I_P:${rx.I_P},E_P:${rx.E_P},P_T:${rx.P_T},I_T:${rx.I_T},E_T:${rx.E_T},O_F:${rx.O_F}`
  );
}

/** A therapy adjustment: one setting moves, as a clinician would change it. */
function adjust(rx: CoughPrescription, rng: ReturnType<typeof prng>): CoughPrescription {
  const next = { ...rx };
  switch (rng.int(0, 4)) {
    case 0:
      next.I_P = Math.min(50, Math.max(25, rx.I_P + rng.pick([-5, 5])));
      next.E_P = -Math.min(50, Math.max(25, -rx.E_P + rng.pick([-5, 0, 5])));
      break;
    case 1:
      next.MODE = rx.MODE === "Auto" ? "Manual" : "Auto";
      break;
    case 2:
      next.R_C = Math.min(8, Math.max(3, rx.R_C + rng.pick([-1, 1])));
      break;
    case 3:
      next.O_F = rx.O_F ? 0 : 1;
      break;
    default:
      next.I_T = Math.min(30, Math.max(10, rx.I_T + rng.pick([-5, 5])));
  }
  return next;
}

/**
 * The data rows, one array per day (empty when the device was not used that day). Endless when
 * the size decides; `stats.lastDay` follows the days handed out.
 */
export function* deviceLogDays(
  options: DeviceLogOptions,
  stats: DeviceLogStats = { rows: 0, therapies: 0, cycles: 0, lastDay: "" },
): Generator<DeviceLogRow[]> {
  const r = resolve(options);
  const rng = prng(r.seed);
  const lastIndex = r.toMs === null ? Infinity : Math.round((r.toMs - r.fromMs) / DAY_MS);
  const futureYear = new Date().getFullYear() + 2;
  const futureDay = Math.min(1, lastIndex);
  let eventId = 0;
  let hmr = rng.int(40, 900) + rng.int(0, 99) / 100;
  let rx: CoughPrescription = {
    MODE: rng.chance(0.7) ? "Auto" : "Manual",
    R_C: rng.pick([4, 5, 5, 6]),
    P_P: rng.pick([0, 0, 5]),
    I_P: rng.pick([35, 40, 40, 45]),
    E_P: 0,
    P_T: rng.pick([5, 10, 10]),
    I_T: rng.pick([15, 20, 20, 25]),
    E_T: rng.pick([10, 15, 20]),
    O_F: rng.chance(0.6) ? 1 : 0,
  };
  rx.E_P = -(rx.I_P - rng.pick([0, 0, 5]));
  const evBase = rng.int(900, 1500);
  const pfBase = rng.int(170, 280);
  const spo2Base = rng.int(91, 97);
  const oximeterUse = rng.pick([0.2, 0.8, 0.95]);

  for (let index = 0; index <= lastIndex; index++) {
    const dayMs = r.fromMs + index * DAY_MS;
    let prefix = dayText(dayMs);
    if (options.clockWrong && index === 0) prefix = dayText(dayMs, 2019);
    else if (options.clockWrong && index === futureDay) prefix = dayText(dayMs, futureYear);
    const rows: DeviceLogRow[] = [];
    let clock = 0; // seconds after midnight of the last row: stamps always move forward
    const emit = (eventType: EventType, logType: LogType, at: number, value: string) => {
      clock = Math.max(Math.round(at), clock + 1);
      rows.push({
        eventId: ++eventId,
        eventType,
        logType,
        timeStamp: `${prefix} ${clockText(clock)}`,
        value,
      });
    };
    const idle = index > 1 && index < lastIndex && r.therapiesPerDay === null && rng.chance(0.08);
    const therapies = idle ? 0 : (r.therapiesPerDay ?? rng.int(1, 4));
    if (!idle) {
      const start = 7 * 3600 + rng.int(0, 5400);
      const end = 21 * 3600 + rng.int(0, 1800);
      const slot = (end - start - 120) / Math.max(1, therapies);
      emit("SYSTEM", "INFO", start, "EVENT:POWER_ON");
      let runSeconds = 0;
      for (let t = 0; t < therapies; t++) {
        const slotStart = start + 60 + t * slot;
        if (r.type === "cough") {
          if (rng.chance(0.05)) {
            rx = adjust(rx, rng);
            emit("SETTINGS", "INFO", slotStart, settingsValue(rx));
          }
          const cycleSeconds = (rx.P_T + rx.I_T + rx.E_T) / 10;
          const delivered = rng.chance(0.12) ? rng.int(1, rx.R_C - 1) : rx.R_C;
          const length = delivered * cycleSeconds;
          const therapyStart = slotStart + rng.int(0, Math.max(0, Math.floor(slot - length - 90)));
          const given = rng.chance(0.06) ? { ...rx, I_P: rx.I_P + rng.pick([-2, 2]) } : rx;
          emit("THERAPY", "INFO", therapyStart, settingsValue(given, delivered));
          const therapyId = eventId;
          const started = clock;
          const oximeter = rng.chance(oximeterUse);
          for (let c = 1; c <= delivered; c++) {
            const spo2 = oximeter ? Math.min(100, spo2Base + rng.int(-2, 2)) : "false";
            emit(
              "CYCLE",
              "INFO",
              started + Math.ceil(c * cycleSeconds),
              `TS_REF:${therapyId},C_N:${c},P_IP:${given.I_P - rng.int(0, 4)},` +
                `E_V:${evBase + 15 * c + rng.int(-150, 150)},P_F:${pfBase + rng.int(-35, 35)},` +
                `SPO2:${spo2},O_F:${given.O_F}`,
            );
          }
          stats.therapies++;
          stats.cycles += delivered;
          runSeconds += length + 60;
          if (rng.chance(0.03)) {
            const [logType, code, msg] = rng.pick(COUGH_ALARMS);
            emit("ALARM", logType, clock + rng.int(1, 30), `CODE:${code},MSG:${msg}`);
          }
        } else {
          const mode = rng.pick(["CPEP", "CHFO", "CHFO", "NEB"] as const);
          const duration = mode === "NEB" ? rng.int(10, 30) * 30 : rng.int(4, 20) * 30;
          const pressure = mode === "NEB" ? rng.int(0, 5) : rng.int(5, 20);
          const frequency = mode === "CHFO" ? rng.int(2, 5) : 0;
          const therapyStart =
            slotStart + rng.int(0, Math.max(0, Math.floor(slot - duration - 90)));
          emit(
            "THERAPY",
            "INFO",
            therapyStart,
            `MODE:${mode},DUR:${duration},PRES:${pressure},FREQ:${frequency}`,
          );
          clock += duration; // the next row comes after the therapy ran
          stats.therapies++;
          runSeconds += duration + 60;
          if (rng.chance(0.03)) {
            const [logType, code, msg] = rng.pick(CLEAR_ALARMS);
            emit("ALARM", logType, clock + rng.int(1, 30), `CODE:${code},MSG:${msg}`);
          }
        }
      }
      hmr += runSeconds / 3600 + rng.int(5, 30) / 100;
      if (options.clockWrong && index === 0 && futureDay === 0) {
        prefix = dayText(dayMs, futureYear); // a one-day log: its closing rows take the wrong year
      }
      const closing = Math.max(end, clock + 60);
      emit("SYSTEM", "INFO", closing, `EVENT:HMR,HMR:${hmr.toFixed(2)}`);
      emit("SYSTEM", "INFO", closing + rng.int(5, 300), "EVENT:POWER_OFF");
    }
    stats.rows += rows.length;
    stats.lastDay = dayText(dayMs);
    yield rows;
  }
}

/** Random 12-byte nonces, drawn from the system generator in batches (one call each is slow). */
function nonceSource() {
  const pool = Buffer.alloc(12 * 4096);
  let used = pool.length;
  return () => {
    if (used === pool.length) {
      crypto.randomFillSync(pool);
      used = 0;
    }
    used += 12;
    return pool.subarray(used - 12, used);
  };
}

function encryptRecord(
  key: Buffer,
  keyId: string,
  index: number,
  text: string,
  nonce: Buffer,
  corrupt: boolean,
) {
  const plain = Buffer.from(text, "utf8");
  const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(`${keyId}:${index}`, "ascii"));
  const record = Buffer.allocUnsafe(12 + plain.length + 16);
  nonce.copy(record, 0);
  const body = cipher.update(plain);
  const rest = cipher.final();
  body.copy(record, 12);
  rest.copy(record, 12 + body.length);
  cipher.getAuthTag().copy(record, 12 + plain.length);
  if (corrupt) record[12 + (plain.length >> 1)] ^= 0x5a;
  return record.toString("base64");
}

/**
 * The file, line by line, each with its line ending. `done` is asked after every day when the
 * options have a size (the writer counts the bytes it has taken). Nonces are random, so two runs
 * give the same records only once decrypted.
 */
export function* deviceLogLines(
  options: DeviceLogOptions,
  stats: DeviceLogStats = { rows: 0, therapies: 0, cycles: 0, lastDay: "" },
  done: () => boolean = () => false,
): Generator<string> {
  const r = resolve(options);
  const eol = options.crlf ? "\r\n" : "\n";
  const sized = r.sizeBytes !== null;
  if (options.decrypted) {
    yield DEVICE_LOG_HEADER + eol;
    for (const rows of deviceLogDays(options, stats)) {
      for (const row of rows) yield csvRow(row) + eol;
      if (sized && done()) break;
    }
    return;
  }
  const nonce = nonceSource();
  let index = 0;
  const record = (text: string) => {
    const line = encryptRecord(
      r.key,
      r.keyId,
      index,
      text,
      nonce(),
      index === options.corruptRecord,
    );
    index++;
    return line;
  };
  // With `--truncate cut` the last line is held back until it is known to be the last.
  const cut = options.truncate === "cut";
  const held: { line: string | null } = { line: null };
  const out = (line: string) => {
    if (!cut) return line + eol;
    const previous = held.line;
    held.line = line;
    return previous === null ? "" : previous + eol;
  };
  yield `BWZLOG/1;key=${r.keyId};device=${r.deviceId}${eol}`;
  yield out(record(DEVICE_LOG_HEADER));
  let rowCount = 0;
  for (const rows of deviceLogDays(options, stats)) {
    for (const row of rows) {
      yield out(record(csvRow(row)));
      rowCount++;
    }
    if (sized && done()) break;
  }
  if (!options.truncate) yield out(record(`#END;records=${rowCount}`));
  if (held.line !== null) yield held.line.slice(0, Math.ceil(held.line.length / 2));
  if (options.corruptRecord !== undefined && options.corruptRecord >= index) {
    throw new Error(`--corrupt-record ${options.corruptRecord}: the file has ${index} records`);
  }
}

/** Writes the log into `dir`, streaming, and answers where and what. */
export async function writeDeviceLog(options: WriteDeviceLogOptions) {
  const r = resolve(options);
  await fs.promises.mkdir(options.dir, { recursive: true });
  // A sized log is named after its last day, known only at the end: written aside, then renamed.
  const knownName =
    options.fileDate || r.toMs === null ? options.fileDate : fileDateOf(dayText(r.toMs));
  const target = path.join(
    options.dir,
    knownName
      ? deviceLogFileName(r.type, r.deviceId, knownName)
      : `.make-device-log-${process.pid}-${crypto.randomBytes(4).toString("hex")}.partial`,
  );
  const stats: DeviceLogStats = { rows: 0, therapies: 0, cycles: 0, lastDay: "" };
  const stream = fs.createWriteStream(target);
  let bytes = 0;
  try {
    let chunk = "";
    const limit = r.sizeBytes ?? Infinity;
    for (const line of deviceLogLines(options, stats, () => bytes >= limit)) {
      bytes += Buffer.byteLength(line);
      chunk += line;
      if (chunk.length >= 1 << 16) {
        if (!stream.write(chunk)) await once(stream, "drain");
        chunk = "";
      }
    }
    stream.end(chunk);
    await finished(stream);
  } catch (error) {
    stream.destroy();
    await fs.promises.rm(target, { force: true });
    throw error;
  }
  const fileName = knownName
    ? path.basename(target)
    : deviceLogFileName(r.type, r.deviceId, fileDateOf(stats.lastDay));
  const finalPath = path.join(options.dir, fileName);
  if (finalPath !== target) await fs.promises.rename(target, finalPath);
  return {
    path: finalPath,
    fileName,
    bytes,
    rows: stats.rows,
    therapies: stats.therapies,
    cycles: stats.cycles,
  };
}

function argValue(name: string, fallback?: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function numberArg(name: string) {
  const text = argValue(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || Number.isNaN(value)) throw new Error(`--${name} needs a number`);
  return value;
}

if (process.argv[1] && /make-device-log(\.ts)?$/.test(process.argv[1])) {
  const flag = (name: string) => process.argv.includes(`--${name}`);
  Promise.resolve()
    .then(() =>
      writeDeviceLog({
        type: argValue("type") as DeviceType,
        deviceId: argValue("device") ?? "",
        dir: path.resolve(argValue("out-dir", ".")!),
        from: argValue("from"),
        to: argValue("to"),
        therapiesPerDay: numberArg("therapies-per-day"),
        sizeMb: numberArg("size-mb"),
        seed: numberArg("seed"),
        keyId: argValue("key-id"),
        keyHex: argValue("key-hex"),
        fileDate: argValue("file-date"),
        crlf: flag("crlf"),
        clockWrong: flag("clock-wrong"),
        corruptRecord: numberArg("corrupt-record"),
        truncate: flag("truncate") ? (argValue("truncate") === "cut" ? "cut" : true) : false,
        wrongKey: flag("wrong-key"),
        decrypted: flag("decrypted"),
        unknownKey: flag("unknown-key"),
      }),
    )
    .then((result) => console.log(result.path))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
