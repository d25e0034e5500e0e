// Device API ingest (DEVICE-API.md, DESIGN.md §5): one transmission in one transaction, therapies
// idempotent by (device, eventId), deviation judged against the prescription the device reported.
//
// Hot path: it writes through its own better-sqlite3 connection to the same file, in synchronous
// BEGIN IMMEDIATE transactions (docs/device-api.md "Storage"; Prisma's raw calls cost ~60 µs each,
// so a 500-therapy transmission with its cycles would take 3,000 of them). A transaction runs
// start to finish without yielding, so nothing else of this process can interleave with it;
// another connection holding the write lock (a Prisma interactive transaction, a script) makes it
// wait asynchronously and try again. A 202 promises the data is kept: the connection runs
// `synchronous = FULL` (the commit is on disk before the answer), and requests that arrive
// together share one commit (group commit, runWrite), so the fsync is paid once per batch.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { env } from "~/lib/env.server";
import {
  isStorageFull,
  noteStorageFull,
  noteWriteCommitted,
  StorageFullError,
} from "~/lib/storage.server";
import { notifyAdherenceQueued } from "~/domain/adherence/adherence.server";
import type {
  DeviceStatBody,
  PrescriptionBody,
  Settings,
  TransmissionBody,
} from "~/domain/devices/schema";

// ---------------------------------------------------------------------------------------------
// The deviation rule (DESIGN.md §5)
// ---------------------------------------------------------------------------------------------

/** cmH2O a delivered pressure may differ from the prescribed one without deviating. */
export const PRESSURE_TOLERANCE = 2;
/** Tenths of a second a delivered time may differ (0.5 s). */
export const TIME_TOLERANCE = 5;
// Decimal inputs such as 40.1 - 38.1 are not exact in binary; this keeps "exactly 2" at 2.
const EPSILON = 1e-9;

/**
 * A therapy deviates when it completed fewer cycles than prescribed, or a delivered pressure
 * (P_P, I_P, E_P) differs from the prescribed one by more than 2 cmH2O, or a delivered time
 * (P_T, I_T, E_T) by more than 5 tenths of a second, or oscillation (O_F) differs.
 */
export function therapyDeviates(
  prescription: Pick<PrescriptionBody, keyof Settings | "cycles">,
  therapy: { delivered: Settings; cyclesDelivered: number },
) {
  const d = therapy.delivered;
  const p = prescription;
  const off = (a: number, b: number, tolerance: number) => Math.abs(a - b) > tolerance + EPSILON;
  return (
    therapy.cyclesDelivered < p.cycles ||
    off(d.P_P, p.P_P, PRESSURE_TOLERANCE) ||
    off(d.I_P, p.I_P, PRESSURE_TOLERANCE) ||
    off(d.E_P, p.E_P, PRESSURE_TOLERANCE) ||
    off(d.P_T, p.P_T, TIME_TOLERANCE) ||
    off(d.I_T, p.I_T, TIME_TOLERANCE) ||
    off(d.E_T, p.E_T, TIME_TOLERANCE) ||
    d.O_F !== p.O_F
  );
}

type PrescriptionRow = {
  id: string;
  mode: string;
  cycles: number;
  pauseP: number;
  pauseT: number;
  inspP: number;
  inspT: number;
  expP: number;
  expT: number;
  oscillation: number;
};

/** Whether a stored prescription has exactly the reported settings (else: a therapy adjustment). */
export function samePrescription(row: Omit<PrescriptionRow, "id">, reported: PrescriptionBody) {
  return (
    row.mode === reported.mode &&
    row.cycles === reported.cycles &&
    row.pauseP === reported.P_P &&
    row.pauseT === reported.P_T &&
    row.inspP === reported.I_P &&
    row.inspT === reported.I_T &&
    row.expP === reported.E_P &&
    row.expT === reported.E_T &&
    Boolean(row.oscillation) === (reported.O_F === 1)
  );
}

// ---------------------------------------------------------------------------------------------
// The connection
// ---------------------------------------------------------------------------------------------

type Statements = ReturnType<typeof prepare>;
type IngestDb = { db: Database.Database; s: Statements };

const globalForIngest = globalThis as unknown as { __arcIngestDb?: IngestDb };

function prepare(db: Database.Database) {
  return {
    openPairing: db.prepare<[string], { id: string; patientId: string }>(
      `SELECT "id", "patientId" FROM "Pairing" WHERE "deviceId" = ? AND "unpairedAt" IS NULL
       ORDER BY "pairedAt" DESC LIMIT 1`,
    ),
    latestPrescription: db.prepare<[string], PrescriptionRow>(
      `SELECT "id", "mode", "cycles", "pauseP", "pauseT", "inspP", "inspT", "expP", "expT",
              "oscillation"
       FROM "Prescription" WHERE "deviceId" = ? ORDER BY "firstSeenAt" DESC, rowid DESC LIMIT 1`,
    ),
    existingTherapy: db.prepare<[string, string], { transmissionId: string; receivedAt: number }>(
      `SELECT t."transmissionId", x."receivedAt" FROM "Therapy" t
       JOIN "Transmission" x ON x."id" = t."transmissionId"
       WHERE t."deviceId" = ? AND t."eventId" = ?`,
    ),
    insertPrescription: db.prepare(
      `INSERT INTO "Prescription" ("id", "deviceId", "mode", "cycles", "pauseP", "pauseT", "inspP",
         "inspT", "expP", "expT", "oscillation", "firstSeenAt", "isAdjustment")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertTransmission: db.prepare(
      `INSERT INTO "Transmission" ("id", "deviceId", "pairingId", "patientId", "prescriptionId",
         "sentAt", "receivedAt", "hmr", "therapiesAccepted", "therapiesDuplicate",
         "deviatingTherapies", "therapyAdjustment")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertTherapy: db.prepare(
      `INSERT INTO "Therapy" ("id", "deviceId", "eventId", "transmissionId", "prescriptionId",
         "pairingId", "patientId", "startedAt", "mode", "prescribedCycles", "cyclesDelivered",
         "completed", "deviates", "pauseP", "pauseT", "inspP", "inspT", "expP", "expT",
         "oscillation")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertCycle: db.prepare(
      `INSERT INTO "Cycle" ("id", "therapyId", "n", "peakInspP", "expVolume", "peakFlow", "spo2",
         "oscillation")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deviceBySerial: db.prepare<
      [string],
      { id: string; serial: string; type: string; tokenHash: string }
    >(`SELECT "id", "serial", "type", "tokenHash" FROM "Device" WHERE "serial" = ?`),
    touchDevice: db.prepare(`UPDATE "Device" SET "lastSeenAt" = ? WHERE "id" = ?`),
    queueAdherence: db.prepare(
      `INSERT INTO "AdherenceQueue" ("patientId", "fromAt") VALUES (?, ?)
       ON CONFLICT ("patientId") DO UPDATE
       SET "fromAt" = min("fromAt", excluded."fromAt"), "seq" = "seq" + 1`,
    ),
    insertStat: db.prepare(
      `INSERT INTO "DeviceStat" ("deviceId", "serial", "deviceType", "core", "memoryUsage",
         "cpuUsage", "temperature", "test", "createdAt", "receivedAt", "therapyStartTime",
         "therapyEndTime", "profile", "testType", "usr", "sys", "nic", "idle", "io", "irq", "sirq",
         "mode", "oscillation", "frequency", "amplitude", "cycle", "flow", "pausePressure",
         "inspPressure", "expPressure", "duration", "testDec")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
               ?, ?, ?, ?)`,
    ),
  };
}

function connection(): IngestDb {
  const cached = globalForIngest.__arcIngestDb;
  if (cached?.db.open && cached.db.name === env.databaseFile) return cached;
  // timeout 0: never sleep inside SQLite's busy handler, which would block the event loop while
  // the connection that holds the lock (possibly a Prisma transaction of this very process)
  // waits for it; runWrite retries asynchronously instead.
  const db = new Database(env.databaseFile, { timeout: 0 });
  db.pragma("foreign_keys = ON");
  // FULL: a commit is fsynced before the 202 that acknowledges it (NORMAL, in WAL mode, could
  // lose the last commits on a power loss). Group commit keeps the cost to one fsync per batch.
  db.pragma("synchronous = FULL");
  const opened = { db, s: prepare(db) };
  globalForIngest.__arcIngestDb = opened;
  return opened;
}

/** A device and its token hash by serial, for the device API's authentication (device.server.ts). */
export function deviceForToken(serial: string) {
  return connection().s.deviceBySerial.get(serial) ?? null;
}

/** Closes the ingest connection (server shutdown, tests). The next ingest opens it again. */
export function closeIngestDatabase() {
  const cached = globalForIngest.__arcIngestDb;
  delete globalForIngest.__arcIngestDb;
  if (cached?.db.open) cached.db.close();
}

/** The write lock stayed taken for this long: the request fails with 503 (and can be resent). */
export class IngestBusyError extends Error {
  constructor() {
    super("The database stayed busy; try again.");
    this.name = "IngestBusyError";
  }
}

const BUSY_DEADLINE_MS = 10_000;

function isBusy(error: unknown) {
  const code = (error as { code?: string }).code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code === "SQLITE_LOCKED");
}

type Pending = {
  work: (c: IngestDb) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** Work waiting for the next group commit; `flushing` while a batch is being written. */
const queue: Pending[] = [];
let flushing = false;

/** A SQLite error as the caller sees it: "disk is full" becomes a StorageFullError (503). */
function asIngestError(error: unknown) {
  if (!isStorageFull(error)) return error;
  noteStorageFull(error);
  return error instanceof StorageFullError ? error : new StorageFullError(error);
}

/**
 * Runs `work` in a BEGIN IMMEDIATE transaction and resolves once that transaction is committed
 * (on disk: synchronous = FULL). Group commit: everything queued until the batch starts (the
 * requests whose bodies arrived in the same turn of the event loop, and those that arrived while
 * the previous batch was written or waited for the lock) runs in one transaction, each piece in a
 * savepoint of its own, so one piece that fails is undone alone and the others commit. A commit
 * that fails (the disk is full) fails every piece of its batch: nothing of it was stored.
 */
function runWrite<T>(work: (c: IngestDb) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    if (!flushing) {
      flushing = true;
      setImmediate(flush);
    }
  });
}

async function flush() {
  const batch = queue.splice(0);
  try {
    await writeBatch(batch);
  } finally {
    if (queue.length > 0) setImmediate(flush);
    else flushing = false;
  }
}

async function writeBatch(batch: Pending[]) {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const c = connection();
    try {
      if (!c.db.inTransaction) {
        const outcomes = c.db
          .transaction(() =>
            batch.map(({ work }) => {
              try {
                // A nested better-sqlite3 transaction is a savepoint.
                return { ok: true as const, value: c.db.transaction(() => work(c))() };
              } catch (error) {
                // SQLite ended the whole transaction (it may, on some errors): the batch fails.
                if (!c.db.inTransaction) throw error;
                return { ok: false as const, error };
              }
            }),
          )
          .immediate();
        if (outcomes.some((o) => o.ok)) noteWriteCommitted();
        outcomes.forEach((o, i) =>
          o.ok ? batch[i].resolve(o.value) : batch[i].reject(asIngestError(o.error)),
        );
        return;
      }
    } catch (error) {
      if (!isBusy(error)) {
        const failure = asIngestError(error);
        for (const p of batch) p.reject(failure);
        return;
      }
    }
    if (Date.now() - started > BUSY_DEADLINE_MS) {
      for (const p of batch) p.reject(new IngestBusyError());
      return;
    }
    const delay = Math.min(2 ** attempt, 50) * (0.5 + Math.random());
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

const newId = () => crypto.randomUUID();
const bit = (value: boolean) => (value ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Transmissions
// ---------------------------------------------------------------------------------------------

export type IngestResult = {
  transmissionId: string;
  therapiesAccepted: number;
  therapiesDuplicate: number;
  /** false: every therapy was already stored and the prescription is unchanged; nothing written. */
  recorded: boolean;
  patientId: string | null;
  pairingId: string | null;
  therapyAdjustment: boolean;
  deviatingTherapies: number;
  /**
   * The instants the transmission brought data for: the distinct start instants of the therapies
   * accepted now and its sentAt (its HMR reading), earliest first; the earliest is queued for the
   * adherence engine. Empty when nothing was recorded.
   */
  days: Date[];
};

/**
 * Stores a validated transmission of a device (DEVICE-API.md): attributes it to the patient the
 * device is paired with now (or nobody), reuses the device's latest prescription when every setting
 * is equal (else records a new one: a therapy adjustment when there was an earlier one), skips
 * therapies already stored by (device, eventId), and judges each new therapy against the reported
 * prescription. A resend of stored therapies with an unchanged prescription records nothing and
 * answers with the transmission that first brought them. A recorded transmission of a paired device
 * queues its patient for the adherence engine in the same transaction (AdherenceQueue); the
 * adherence worker recomputes shortly after, off the request path.
 */
export async function ingestTransmission(
  device: { id: string },
  body: TransmissionBody,
  options: { receivedAt?: Date } = {},
): Promise<IngestResult> {
  const rx = body.prescription;
  // Everything that does not depend on the database is worked out before the lock is taken.
  const therapies = body.therapies.map((t) => {
    const cyclesDelivered = t.cycles.length;
    return {
      body: t,
      startedAt: Date.parse(t.startedAt),
      cyclesDelivered,
      completed: cyclesDelivered >= rx.cycles,
      deviates: therapyDeviates(rx, { delivered: t.delivered, cyclesDelivered }),
    };
  });
  const sentAt = Date.parse(body.sentAt);

  const result = await runWrite(({ s }): IngestResult => {
    const now = options.receivedAt?.getTime() ?? Date.now();
    const pairing = s.openPairing.get(device.id) ?? null;
    const latest = s.latestPrescription.get(device.id) ?? null;
    const unchanged = latest !== null && samePrescription(latest, rx);

    const seen = new Set<string>();
    let earliest: { transmissionId: string; receivedAt: number } | null = null;
    const accepted: typeof therapies = [];
    for (const t of therapies) {
      if (seen.has(t.body.eventId)) continue;
      seen.add(t.body.eventId);
      const stored = s.existingTherapy.get(device.id, t.body.eventId);
      if (!stored) accepted.push(t);
      else if (!earliest || stored.receivedAt < earliest.receivedAt) earliest = stored;
    }
    const duplicates = therapies.length - accepted.length;

    if (accepted.length === 0 && unchanged && earliest) {
      // "Sending it again changes nothing" (only the device was seen).
      s.touchDevice.run(now, device.id);
      return {
        transmissionId: earliest.transmissionId,
        therapiesAccepted: 0,
        therapiesDuplicate: duplicates,
        recorded: false,
        patientId: pairing?.patientId ?? null,
        pairingId: pairing?.id ?? null,
        therapyAdjustment: false,
        deviatingTherapies: 0,
        days: [],
      };
    }

    let prescriptionId: string;
    if (unchanged) {
      prescriptionId = latest.id;
    } else {
      prescriptionId = newId();
      s.insertPrescription.run(
        prescriptionId,
        device.id,
        rx.mode,
        rx.cycles,
        rx.P_P,
        rx.P_T,
        rx.I_P,
        rx.I_T,
        rx.E_P,
        rx.E_T,
        rx.O_F,
        now,
        bit(latest !== null),
      );
    }
    const therapyAdjustment = !unchanged && latest !== null;
    const deviating = accepted.filter((t) => t.deviates).length;
    const transmissionId = newId();
    const pairingId = pairing?.id ?? null;
    const patientId = pairing?.patientId ?? null;
    s.insertTransmission.run(
      transmissionId,
      device.id,
      pairingId,
      patientId,
      prescriptionId,
      sentAt,
      now,
      body.hmr,
      accepted.length,
      duplicates,
      deviating,
      bit(therapyAdjustment),
    );
    for (const t of accepted) {
      const therapyId = newId();
      const d = t.body.delivered;
      s.insertTherapy.run(
        therapyId,
        device.id,
        t.body.eventId,
        transmissionId,
        prescriptionId,
        pairingId,
        patientId,
        t.startedAt,
        t.body.mode,
        rx.cycles,
        t.cyclesDelivered,
        bit(t.completed),
        bit(t.deviates),
        d.P_P,
        d.P_T,
        d.I_P,
        d.I_T,
        d.E_P,
        d.E_T,
        d.O_F,
      );
      for (const c of t.body.cycles) {
        s.insertCycle.run(newId(), therapyId, c.n, c.P_IP, c.E_V, c.P_F, c.SPO2, c.O_F);
      }
    }
    s.touchDevice.run(now, device.id);
    const days = [...new Set([...accepted.map((t) => t.startedAt), sentAt])].sort((a, b) => a - b);
    // The adherence engine's work, committed with the data it is for (processAdherenceQueue).
    if (patientId) s.queueAdherence.run(patientId, days[0]);
    return {
      transmissionId,
      therapiesAccepted: accepted.length,
      therapiesDuplicate: duplicates,
      recorded: true,
      patientId,
      pairingId,
      therapyAdjustment,
      deviatingTherapies: deviating,
      days: days.map((ms) => new Date(ms)),
    };
  });

  if (result.patientId && result.recorded) notifyAdherenceQueued();
  return result;
}

// ---------------------------------------------------------------------------------------------
// Device stats
// ---------------------------------------------------------------------------------------------

const time = (value: string | null | undefined) => (value ? Date.parse(value) : null);
const orNull = <T>(value: T | null | undefined) => (value === undefined ? null : value);

/** Stores a device's performance records in one transaction; returns how many. */
export async function ingestDeviceStats(
  device: { id: string; serial: string },
  rows: DeviceStatBody[],
  options: { receivedAt?: Date } = {},
) {
  if (rows.length === 0) return 0;
  return runWrite(({ s }) => {
    const now = options.receivedAt?.getTime() ?? Date.now();
    for (const r of rows) {
      s.insertStat.run(
        device.id,
        device.serial,
        orNull(r.device_type),
        orNull(r.core),
        orNull(r.memory_usage_percentage),
        orNull(r.cpu_usage_percentage),
        orNull(r.temperature),
        orNull(r.test),
        time(r.created_at),
        now,
        time(r.theraphy_start_time),
        time(r.theraphy_end_time),
        r.profile == null ? null : JSON.stringify(r.profile),
        orNull(r.test_type),
        orNull(r.usr),
        orNull(r.sys),
        orNull(r.nic),
        orNull(r.idle),
        orNull(r.io),
        orNull(r.irq),
        orNull(r.sirq),
        orNull(r.mode),
        orNull(r.oscillation),
        orNull(r.frequency),
        orNull(r.amplitude),
        orNull(r.cycle),
        orNull(r.flow),
        orNull(r.pause_pressure),
        orNull(r.insp_pressure),
        orNull(r.exp_pressure),
        orNull(r.duration),
        orNull(r.test_dec),
      );
    }
    return rows.length;
  });
}
