// The device API's own connection (docs/device-api.md "Storage"): the one place outside Prisma
// that reaches the database, for the ingest hot path (ingest.server.ts) and the device API's token
// check. Prisma's raw calls cost ~60 µs each, so a 500-therapy transmission with its cycles would
// take 3,000 of them; these prepared statements take a fraction of that.
//
// Writes run in synchronous BEGIN IMMEDIATE transactions (runWrite): a transaction runs start to
// finish without yielding, so nothing else of this process can interleave with it; another
// connection holding the write lock (a Prisma interactive transaction, a script) makes it wait
// asynchronously and try again. Requests that arrive together share one transaction and one
// commit (group commit). A 202 promises the data is kept: a write is acknowledged only once its
// commit is on disk. The fsync that puts it there runs off the main thread (walSync below), so
// the requests of the next batch are read and validated while the disk works.
import fs from "node:fs";
import Database from "better-sqlite3";
import { env } from "~/lib/env.server";
import {
  isStorageFull,
  noteStorageFull,
  noteWriteCommitted,
  StorageFullError,
} from "~/lib/storage.server";
import type { PrescriptionRow } from "~/domain/devices/deviation";

type Statements = ReturnType<typeof prepare>;
/** What ingest reads of a device before each transmission: its open pairing, its latest prescription. */
export type DeviceState = {
  pairing: { id: string; patientId: string } | null;
  latest: PrescriptionRow | null;
};
/** The connection and its prepared statements, as a write (runWrite) receives them. */
export type IngestDb = {
  db: Database.Database;
  s: Statements;
  /** The device's state, from the cache of this connection's batches (see deviceStates). */
  deviceState: (deviceId: string) => DeviceState;
  /** Drops a device's state from the cache (its prescriptions changed). */
  forgetDevice: (deviceId: string) => void;
};
/** ... and the transaction functions of the group commit, made once per connection. */
type Connection = IngestDb & {
  /** one batch: BEGIN IMMEDIATE … COMMIT (call `.immediate`) */
  batch: Database.Transaction<(pieces: Pending[]) => Outcome[]>;
  /** one piece of a batch, in a savepoint of its own (a nested better-sqlite3 transaction) */
  piece: Database.Transaction<(work: Pending["work"], c: IngestDb) => unknown>;
  /** puts the commits made so far on disk; resolved at once when COMMIT itself did (no WAL) */
  durable: () => Promise<void>;
  /** empties the device-state cache (a batch that failed) */
  forget: () => void;
};
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const globalForIngest = globalThis as unknown as { __arcIngestDb?: Connection };

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
    // SQLite only: changes when another connection (Prisma's, another process) has committed.
    dataVersion: db.prepare<[], number>("PRAGMA data_version").pluck(),
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

function connection(): Connection {
  const cached = globalForIngest.__arcIngestDb;
  if (cached?.db.open && cached.db.name === env.databaseFile) return cached;
  // timeout 0: never sleep inside SQLite's busy handler, which would block the event loop while
  // the connection that holds the lock (possibly a Prisma transaction of this very process)
  // waits for it; runWrite retries asynchronously instead.
  const db = new Database(env.databaseFile, { timeout: 0 });
  db.pragma("foreign_keys = ON");
  const durable = walSync(db);
  const s = prepare(db);
  const states = deviceStates(s);
  const c: IngestDb = { db, s, deviceState: states.get, forgetDevice: states.forget };
  const piece = db.transaction((work: Pending["work"], on: IngestDb) => work(on));
  const batch = db.transaction((pieces: Pending[]) => {
    states.check();
    return pieces.map(({ work }): Outcome => {
      try {
        return { ok: true, value: piece(work, c) };
      } catch (error) {
        // The piece's writes are undone: so is whatever it put in the cache.
        states.clear();
        // SQLite ended the whole transaction (it may, on some errors): the batch fails.
        if (!db.inTransaction) throw error;
        return { ok: false, error };
      }
    });
  });
  const opened: Connection = { ...c, batch, piece, durable, forget: states.clear };
  globalForIngest.__arcIngestDb = opened;
  return opened;
}

/** Devices whose state is kept at most; past it the cache starts again empty. */
const DEVICE_STATES_KEPT = 20_000;

/**
 * The open pairing and latest prescription of the devices this connection wrote for, kept between
 * batches: two lookups a transmission otherwise makes first (a fifth of its SQLite time,
 * docs/decisions.md "Ingest at 2,000 therapies/s"). Only this connection's batches read and write
 * them, inside BEGIN IMMEDIATE, so while no other connection commits the cache is exact: ingest
 * drops a device's state when it records a new prescription for it. Any commit of another connection (a pairing made or
 * ended by staff through Prisma, a script, another process) changes SQLite's data_version, and the
 * next batch (`check`, under the write lock) starts from an empty cache. A piece or batch that
 * fails empties it too (its writes were undone).
 */
function deviceStates(s: Statements) {
  let states = new Map<string, DeviceState>();
  let version: number | null = null;
  const clear = () => {
    states = new Map();
    version = null;
  };
  return {
    clear,
    /** At the start of a batch, with the write lock held. */
    check() {
      const now = s.dataVersion.get() ?? null;
      if (now !== version || states.size > DEVICE_STATES_KEPT) states = new Map();
      version = now;
    },
    forget(deviceId: string) {
      states.delete(deviceId);
    },
    get(deviceId: string): DeviceState {
      let state = states.get(deviceId);
      if (!state) {
        state = {
          pairing: s.openPairing.get(deviceId) ?? null,
          latest: s.latestPrescription.get(deviceId) ?? null,
        };
        states.set(deviceId, state);
      }
      return state;
    },
  };
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
  // Its write-ahead log's descriptor closes once the fsync in progress, if any, is done.
  if (cached) closeWal.get(cached.db)?.();
}

// ---------------------------------------------------------------------------------------------
// SQLite only: durability of a commit in write-ahead-log mode (PostgreSQL: synchronous_commit)
// ---------------------------------------------------------------------------------------------

const closeWal = new WeakMap<Database.Database, () => void>();

/** The ingest connection checkpoints the write-ahead log once it holds this many pages. */
export const INGEST_WAL_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * Makes the connection's commits durable with the fsync off the main thread. In WAL mode the
 * connection runs `synchronous = NORMAL`: COMMIT appends the transaction's frames to the
 * write-ahead log without an fsync (SQLite still syncs the log before a checkpoint copies it into
 * the database, and the database after). The returned function then fsyncs the log's file through
 * libuv's thread pool, and a batch is acknowledged when it resolves: what FULL would have done
 * inside COMMIT, on the main thread, blocking every other request for the disk's time. The log
 * file is not deleted or replaced while this connection is open (SQLite removes it only when the
 * last connection closes; a checkpoint rewrites it in place), so one descriptor, opened at the
 * first commit, serves the connection's life. Not in WAL mode (a database another tool left in a
 * rollback journal): FULL, and COMMIT is durable when it returns.
 */
function walSync(db: Database.Database): () => Promise<void> {
  const wal = String(db.pragma("journal_mode", { simple: true })).toLowerCase() === "wal";
  // FULL: a commit is on disk before the 202 that acknowledges it (NORMAL alone, in WAL mode,
  // could lose the last commits on a power loss).
  db.pragma(wal ? "synchronous = NORMAL" : "synchronous = FULL");
  if (!wal) return () => Promise.resolve();
  // A checkpoint runs inside the COMMIT that takes the log past the threshold, on the main thread:
  // it copies every page the log holds into the database and fsyncs both, while no request is
  // read. A daily transmission adds about 11 pages to the log (8 in one commit: 87), so SQLite's
  // default of 1,000 pages checkpointed every ~90 transmissions, a third of the device API's SQLite
  // time (docs/decisions.md "Ingest at 2,000 therapies/s"). At 10,000 pages (40 MB of log) it runs
  // ten times less often, and copies less in all: the pages written again and again (the ends of
  // the tables and indexes, a patient's index pages) are copied once per checkpoint. The log's
  // size on disk is bounded by it; a checkpoint of another connection (Prisma's, at 1,000 pages)
  // may still come first.
  db.pragma(`wal_autocheckpoint = ${INGEST_WAL_AUTOCHECKPOINT_PAGES}`);
  let fd: number | null = null;
  let inFlight = 0;
  let closing = false;
  const release = () => {
    if (fd !== null && inFlight === 0) {
      fs.close(fd, () => {});
      fd = null;
    }
  };
  closeWal.set(db, () => {
    closing = true;
    release();
  });
  return () =>
    new Promise<void>((resolve, reject) => {
      if (closing) return reject(new Error("the ingest connection is closed"));
      try {
        fd ??= fs.openSync(`${db.name}-wal`, "r");
      } catch (error) {
        return reject(error);
      }
      inFlight++;
      fs.fsync(fd, (error) => {
        inFlight--;
        if (closing) release();
        if (error) reject(error);
        else resolve();
      });
    });
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

/** Writes waiting for their batch (not the one being written or synced): for tests and metrics. */
export function queuedWrites() {
  return queue.length;
}

/** A SQLite error as the caller sees it: "disk is full" becomes a StorageFullError (503). */
function asIngestError(error: unknown) {
  if (!isStorageFull(error)) return error;
  noteStorageFull(error);
  return error instanceof StorageFullError ? error : new StorageFullError(error);
}

/**
 * Runs `work` in a BEGIN IMMEDIATE transaction and resolves once that transaction is committed
 * and on disk. Group commit: everything queued until the batch starts (the requests whose bodies
 * arrived in the same turn of the event loop, and those that arrived while the previous batch was
 * written, synced or waited for the lock) runs in one transaction, each piece in a savepoint of
 * its own, so one piece that fails is undone alone and the others commit. A commit that fails
 * (the disk is full) fails every piece of its batch: nothing of it was stored. A batch whose
 * fsync fails is not acknowledged either (503 when the disk is full, else 500): it may or may not
 * be kept, and the device's resend is harmless (idempotent).
 * The next batch starts once this one is on disk: one transaction per tick of the disk.
 */
export function runWrite<T>(work: (c: IngestDb) => T): Promise<T> {
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
        const outcomes = c.batch.immediate(batch);
        const wrote = outcomes.some((o) => o.ok);
        // Failed pieces wrote nothing: they are answered without waiting for the disk.
        outcomes.forEach((o, i) => {
          if (!o.ok) batch[i].reject(asIngestError(o.error));
        });
        if (!wrote) return;
        try {
          await c.durable();
        } catch (error) {
          const failure = asIngestError(error);
          outcomes.forEach((o, i) => o.ok && batch[i].reject(failure));
          return;
        }
        noteWriteCommitted();
        outcomes.forEach((o, i) => o.ok && batch[i].resolve(o.value));
        return;
      }
    } catch (error) {
      c.forget();
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
