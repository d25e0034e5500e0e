// The compact in-memory model of a cough log: one column of numbers per field, filled in chunks,
// so a log of a million cycles costs tens of megabytes rather than a million row objects.
// Missing numbers are NaN (null to callers); flags use 255 for missing.
import {
  decimal,
  LOG_TYPES,
  type DeviceLogHeader,
  type DeviceLogRow,
  type LogType,
  type ValuePair,
} from "./rows";

const SHIFT = 13;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;
const NO_FLAG = 255;

export type NumberArray = Float64Array | Float32Array | Int32Array | Uint8Array;

/** An append-only column of numbers in fixed chunks: growing never copies what is stored. */
export class Column {
  private readonly chunks: NumberArray[] = [];
  readonly make: (size: number) => NumberArray;
  length = 0;

  constructor(make: (size: number) => NumberArray) {
    this.make = make;
  }

  push(value: number) {
    const chunk = this.length >>> SHIFT;
    if (chunk === this.chunks.length) this.chunks.push(this.make(CHUNK));
    this.chunks[chunk][this.length & MASK] = value;
    this.length += 1;
  }

  get(index: number) {
    return this.chunks[index >>> SHIFT][index & MASK];
  }

  /** The stored values, chunk by chunk (views, no copy): what the disk form writes. */
  *views(): Generator<NumberArray> {
    for (let i = 0, left = this.length; left > 0; i++, left -= CHUNK)
      yield this.chunks[i].subarray(0, Math.min(CHUNK, left));
  }

  /** Bytes held (whole chunks). */
  get byteLength() {
    return this.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  }

  /** A column over values read back whole (the disk form): chunks are views into `values`. */
  static of(values: NumberArray, make: (size: number) => NumberArray) {
    return Column.ofParts([values], make);
  }

  /**
   * A column over values read back in parts (the disk form's segments): chunks are views into
   * them, so every part but the last must hold whole chunks (a multiple of CHUNK values).
   */
  static ofParts(parts: readonly NumberArray[], make: (size: number) => NumberArray) {
    const column = new Column(make);
    parts.forEach((values, i) => {
      if (i < parts.length - 1 && values.length % CHUNK !== 0)
        throw new RangeError("a column part that is not the last must hold whole chunks");
      for (let start = 0; start < values.length; start += CHUNK)
        column.chunks.push(values.subarray(start, Math.min(values.length, start + CHUNK)));
      column.length += values.length;
    });
    return column;
  }
}

/** Values per chunk of a Column: the disk form's segments hold whole chunks. */
export const COLUMN_CHUNK = CHUNK;

/** The element types of the model's columns, by the name the disk form records. */
export const COLUMN_TYPES = {
  f64: (n: number) => new Float64Array(n),
  f32: (n: number) => new Float32Array(n),
  i32: (n: number) => new Int32Array(n),
  u8: (n: number) => new Uint8Array(n),
} as const;
export type ColumnType = keyof typeof COLUMN_TYPES;

const f64 = () => new Column(COLUMN_TYPES.f64);
const f32 = () => new Column(COLUMN_TYPES.f32);
const i32 = () => new Column(COLUMN_TYPES.i32);
const u8 = () => new Column(COLUMN_TYPES.u8);

export type PrescriptionKey = "R_C" | "P_P" | "I_P" | "E_P" | "P_T" | "I_T" | "E_T";
const PRESCRIPTION_KEYS: PrescriptionKey[] = ["R_C", "P_P", "I_P", "E_P", "P_T", "I_T", "E_T"];

function therapyColumns() {
  return {
    eventId: f64(),
    stamp: f64(),
    logType: u8(),
    /** Index into CoughLogModel.modes, -1 when missing. */
    mode: i32(),
    N_C: f64(),
    O_F: u8(),
    R_C: f64(),
    P_P: f64(),
    I_P: f64(),
    E_P: f64(),
    P_T: f64(),
    I_T: f64(),
    E_T: f64(),
  };
}

function cycleColumns() {
  return {
    eventId: f64(),
    stamp: f64(),
    /** Index of its therapy in CoughLogModel.therapies (TS_REF resolved). */
    therapy: i32(),
    C_N: f32(),
    P_IP: f64(),
    E_V: f64(),
    P_F: f64(),
    SPO2: f64(),
    O_F: u8(),
  };
}

export type SettingsChange = {
  eventId: number;
  timeStamp: string;
  logType: LogType;
  MODE: string | null;
  O_F: number | null;
} & Record<PrescriptionKey, number | null>;

export type Alarm = {
  eventId: number;
  timeStamp: string;
  logType: LogType;
  CODE: string | null;
  MSG: string | null;
};

export type CoughLogModel = {
  keyId: string;
  deviceId: string;
  /** Data rows in the file (the #END count). */
  rows: number;
  /** Smallest and largest time stamps of all rows, packed (calendar.ts); null without rows. */
  firstStamp: number | null;
  lastStamp: number | null;
  modes: string[];
  therapies: ReturnType<typeof therapyColumns>;
  /** Keys of a THERAPY Value beyond the contract's, by therapy index (rare). */
  therapyExtras: Map<number, ValuePair[]>;
  cycles: ReturnType<typeof cycleColumns>;
  /** CYCLE rows whose TS_REF names no THERAPY row: not in the model. */
  orphanCycles: number;
  settings: SettingsChange[];
  hmr: { eventId: Column; stamp: Column; value: Column };
  alarms: Alarm[];
  /** SYSTEM rows by EVENT (POWER_ON, POWER_OFF, HMR, ...). */
  systemEvents: Record<string, number>;
};

/** A Value's pairs by key (the last of a repeated key), without building a Map per row. */
class PairLookup {
  private readonly pairs: ValuePair[];
  constructor(pairs: ValuePair[]) {
    this.pairs = pairs;
  }
  get(key: string) {
    for (let i = this.pairs.length - 1; i >= 0; i--)
      if (this.pairs[i][0] === key) return this.pairs[i][1];
    return undefined;
  }
}

const nullable = (n: number) => (Number.isNaN(n) ? null : n);
const flag = (text: string | undefined) => (text === "1" ? 1 : text === "0" ? 0 : NO_FLAG);

/** A stored flag (O_F) as 1, 0 or null. */
export const flagValue = (stored: number) => (stored === NO_FLAG ? null : stored);
export const numberOrNull = nullable;

/** Binary search: therapies are in Event ID order because Event IDs strictly increase. */
export function therapyIndexOf(model: Pick<CoughLogModel, "therapies">, eventId: number) {
  const ids = model.therapies.eventId;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const id = ids.get(mid);
    if (id === eventId) return mid;
    if (id < eventId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function buildCoughLog() {
  const model: CoughLogModel = {
    keyId: "",
    deviceId: "",
    rows: 0,
    firstStamp: null,
    lastStamp: null,
    modes: [],
    therapies: therapyColumns(),
    therapyExtras: new Map(),
    cycles: cycleColumns(),
    orphanCycles: 0,
    settings: [],
    hmr: { eventId: f64(), stamp: f64(), value: f64() },
    alarms: [],
    systemEvents: {},
  };
  const modeIndex = new Map<string, number>();
  const internMode = (mode: string | undefined) => {
    if (mode === undefined) return -1;
    let index = modeIndex.get(mode);
    if (index === undefined) {
      index = model.modes.length;
      model.modes.push(mode);
      modeIndex.set(mode, index);
    }
    return index;
  };

  function therapy(row: DeviceLogRow, values: PairLookup) {
    const t = model.therapies;
    const index = t.eventId.length;
    t.eventId.push(row.eventId);
    t.stamp.push(row.stamp);
    t.logType.push(LOG_TYPES.indexOf(row.logType));
    t.mode.push(internMode(values.get("MODE")));
    t.N_C.push(decimal(values.get("N_C")));
    t.O_F.push(flag(values.get("O_F")));
    for (const key of PRESCRIPTION_KEYS) t[key].push(decimal(values.get(key)));
    const extras = row.pairs.filter(([key]) => !THERAPY_KEYS.has(key));
    if (extras.length > 0) model.therapyExtras.set(index, extras);
  }

  function cycle(row: DeviceLogRow, values: PairLookup) {
    const therapyIndex = therapyIndexOf(model, decimal(values.get("TS_REF")));
    if (therapyIndex === -1) {
      model.orphanCycles += 1;
      return;
    }
    const c = model.cycles;
    c.eventId.push(row.eventId);
    c.stamp.push(row.stamp);
    c.therapy.push(therapyIndex);
    c.C_N.push(decimal(values.get("C_N")));
    c.P_IP.push(decimal(values.get("P_IP")));
    c.E_V.push(decimal(values.get("E_V")));
    c.P_F.push(decimal(values.get("P_F")));
    c.SPO2.push(decimal(values.get("SPO2")));
    c.O_F.push(flag(values.get("O_F")));
  }

  function add(row: DeviceLogRow) {
    model.rows += 1;
    if (model.firstStamp === null || row.stamp < model.firstStamp) model.firstStamp = row.stamp;
    if (model.lastStamp === null || row.stamp > model.lastStamp) model.lastStamp = row.stamp;
    const values = new PairLookup(row.pairs);
    switch (row.eventType) {
      case "THERAPY":
        return therapy(row, values);
      case "CYCLE":
        return cycle(row, values);
      case "SETTINGS": {
        const change = {
          eventId: row.eventId,
          timeStamp: row.timeStamp,
          logType: row.logType,
          MODE: values.get("MODE") ?? null,
          O_F: flagValue(flag(values.get("O_F"))),
        } as SettingsChange;
        for (const key of PRESCRIPTION_KEYS) change[key] = nullable(decimal(values.get(key)));
        model.settings.push(change);
        return;
      }
      case "SYSTEM": {
        const event = values.get("EVENT") ?? "";
        model.systemEvents[event] = (model.systemEvents[event] ?? 0) + 1;
        const hours = decimal(values.get("HMR"));
        if (event === "HMR" && !Number.isNaN(hours)) {
          model.hmr.eventId.push(row.eventId);
          model.hmr.stamp.push(row.stamp);
          model.hmr.value.push(hours);
        }
        return;
      }
      case "ALARM":
        model.alarms.push({
          eventId: row.eventId,
          timeStamp: row.timeStamp,
          logType: row.logType,
          CODE: values.get("CODE") ?? null,
          MSG: values.get("MSG") ?? null,
        });
    }
  }

  function finish(header: DeviceLogHeader): CoughLogModel {
    model.keyId = header.keyId;
    model.deviceId = header.deviceId;
    return model;
  }

  return { add, finish };
}

const THERAPY_KEYS = new Set(["MODE", "N_C", "O_F", ...PRESCRIPTION_KEYS]);

/** The log type stored for therapy i. */
export const therapyLogType = (model: CoughLogModel, i: number) =>
  LOG_TYPES[model.therapies.logType.get(i)];

/** The MODE of therapy i, or null. */
export function therapyMode(model: CoughLogModel, i: number) {
  const index = model.therapies.mode.get(i);
  return index === -1 ? null : model.modes[index];
}
