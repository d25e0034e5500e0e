// The one Prisma client of the process (shared by the Remix build, server.ts and the jobs).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client";
import { env } from "./env.server";
import { closeReader } from "./reader.server";
import {
  freeBytes,
  isStorageFull,
  noteStorageFull,
  storageFullSince,
  noteWriteCommitted,
  StorageFullError,
} from "./storage.server";

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
type Query = Parameters<Adapter["executeRaw"]>[0];

const statement = (sql: string): Query => ({ sql, args: [], argTypes: [] });
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;
const NO_TRANSACTION = /no transaction is active/i;

/**
 * A driver error as the caller should see it: "database or disk is full" becomes a
 * StorageFullError (remembered for readiness); anything else is passed on as it was.
 */
function failed(error: unknown): never {
  if (isStorageFull(error)) {
    noteStorageFull(error);
    throw error instanceof StorageFullError ? error : new StorageFullError(error);
  }
  throw error;
}

/**
 * The adapter keeps one SQLite connection for the process and, while an interactive transaction
 * waits between its statements, runs any other query of the process on that same connection:
 * inside the open transaction. A write awaited to success elsewhere (a request, a job) was then
 * undone by that transaction's rollback, and reads saw its uncommitted rows. Here every query
 * outside a transaction waits until the open transaction commits or rolls back, and a
 * transaction waits for the query in progress: one at a time on the connection.
 *
 * The transaction is begun here, not by the adapter's startTransaction: that one takes a mutex of
 * its own which it releases only when Prisma calls commit() or rollback() after the COMMIT or
 * ROLLBACK statement succeeded. When COMMIT failed (a full disk; a deferred foreign key) Prisma
 * called neither, the transaction stayed open on the connection and both locks stayed taken: every
 * later query of the process waited for ever. Here a transaction ends, and both the connection
 * and the lock are free again, whatever its COMMIT or ROLLBACK answered: a failed COMMIT is rolled
 * back (nothing of it was kept) and its error goes to the caller.
 */
function oneAtATime(adapter: Adapter): Adapter {
  let tail = Promise.resolve();
  const acquire = () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = tail.then(() => release);
    tail = tail.then(() => held);
    return ready;
  };
  const exclusive = async <T>(work: () => Promise<T>, sql?: string) => {
    const release = await acquire();
    try {
      const result = await work();
      if (sql !== undefined && WRITE.test(sql)) noteWriteCommitted();
      return result;
    } catch (error) {
      failed(error);
    } finally {
      release();
    }
  };
  /** Runs ROLLBACK; "no transaction is active" (SQLite already rolled back) is not an error. */
  const rollBack = async () => {
    try {
      await adapter.executeRaw(statement("ROLLBACK"));
    } catch (error) {
      if (!NO_TRANSACTION.test(String((error as Error)?.message))) throw error;
    }
  };
  const begin = async () => {
    try {
      await adapter.executeRaw(statement("BEGIN"));
    } catch (error) {
      // Left inside a transaction by a ROLLBACK that failed: out of it, then begin once more.
      if (!/within a transaction/i.test(String((error as Error)?.message))) throw error;
      await rollBack();
      await adapter.executeRaw(statement("BEGIN"));
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => exclusive(() => adapter.queryRaw(query), query.sql),
    executeRaw: (query) => exclusive(() => adapter.executeRaw(query), query.sql),
    executeScript: (script) => exclusive(() => adapter.executeScript(script), script),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    // Closing rolls back a transaction still open (shutdown); it does not wait for it.
    dispose: () => adapter.dispose(),
    async startTransaction(isolationLevel) {
      // The adapter's own check (SQLite has one level); it throws before taking anything.
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") {
        return adapter.startTransaction(isolationLevel);
      }
      const release = await acquire();
      try {
        await begin();
      } catch (error) {
        release();
        failed(error);
      }
      let open = true;
      let wrote = false;
      const end = () => {
        open = false;
        release();
      };
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        // Prisma sends COMMIT and ROLLBACK through executeRaw, then calls commit() / rollback().
        options: { usePhantomQuery: false },
        queryRaw: async (query) => {
          if (WRITE.test(query.sql)) wrote = true;
          return adapter.queryRaw(query).catch(failed);
        },
        async executeRaw(query) {
          const sql = query.sql.trim().toUpperCase();
          if (sql === "COMMIT") {
            try {
              const result = await adapter.executeRaw(query);
              if (wrote) noteWriteCommitted();
              return result;
            } catch (error) {
              await rollBack().catch(() => {});
              if (open) end();
              failed(error);
            }
          }
          if (sql === "ROLLBACK") {
            try {
              await rollBack();
              return 0;
            } catch (error) {
              if (open) end();
              failed(error);
            }
          }
          if (WRITE.test(query.sql)) wrote = true;
          return adapter.executeRaw(query).catch(failed);
        },
        commit: async () => {
          if (open) end();
        },
        rollback: async () => {
          if (open) end();
        },
      };
    },
  };
}

function connect() {
  const sqlite = new PrismaBetterSQLite3(
    { url: `file:${env.databaseFile}`, timeout: 5000 },
    { timestampFormat: "unixepoch-ms" },
  );
  const adapter = {
    provider: "sqlite" as const,
    adapterName: sqlite.adapterName,
    connect: async () => oneAtATime(await sqlite.connect()),
  };
  // A transaction queues behind the one in progress, which may itself wait up to the busy
  // timeout for another process's write: with Prisma's default (2 s to start) it could fail where
  // it would have run a moment later.
  return new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 10_000 } });
}

const globalForDb = globalThis as unknown as { __arcPrisma?: PrismaClient };
export const prisma: PrismaClient = (globalForDb.__arcPrisma ??= connect());

// Per-connection settings; the adapter keeps one connection, so once at start is enough.
export async function configureDatabase() {
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await prisma.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  // FULL: a commit is on disk before the answer that reports it (NORMAL, in WAL mode, could lose
  // the last commits on a power loss). Measured in docs/performance.md ("Device ingest").
  await prisma.$queryRawUnsafe("PRAGMA synchronous = FULL");
}

export async function disconnectDatabase() {
  closeReader();
  await prisma.$disconnect();
  delete globalForDb.__arcPrisma;
}

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

function isBusy(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return /database is locked|SQLITE_BUSY/i.test(message);
}

/** A write that changes nothing: as the first statement of a transaction it takes the write lock. */
const TAKE_WRITE_LOCK = 'DELETE FROM "JobLease" WHERE 0';

/**
 * An interactive transaction that reads before it writes. Begun as SQLite begins a deferred
 * transaction, it would read from a snapshot and could not write once another connection (another
 * process, the ingest connection) had committed since: "database is locked" at once, without
 * waiting, however often it was run again while that connection kept writing. So it takes the
 * write lock first, as BEGIN IMMEDIATE would, waiting for it up to the busy timeout; its reads
 * then see the latest data and its writes cannot conflict. Only for transactions whose work is all
 * in the database: one that still finds the database busy is run again.
 */
export async function readWriteTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(TAKE_WRITE_LOCK);
        return fn(tx);
      });
    } catch (error) {
      if (attempt >= 5 || !isBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
}

/** Bytes the readiness probe writes: a write that needs new pages, as a user's would. */
const PROBE_BYTES = 64 * 1024;
/** Below this much free space on the data directory's filesystem, writes are expected to fail. */
export const MIN_FREE_BYTES = 1024 * 1024;
const PROBE_LEASE = "storage-probe";
class ProbeDone extends Error {}

/**
 * Whether the database takes a write now: "ok", or why not (one line, for /readyz). Fails while
 * the data directory's filesystem has less than MIN_FREE_BYTES free, or a 64 KB write (new pages,
 * a text in a JobLease row no lease uses) fails. Normally that write is rolled back, which finds a
 * database at its size limit and a locked or read-only one, without touching the disk. After a
 * write of this process failed for lack of space (storage.server.ts remembers it), the probe is
 * committed instead, and deleted again: only a commit shows that the disk takes the write-ahead
 * log's frames again, and its success ends the "storage full" state.
 */
export async function probeWrite(): Promise<string> {
  const free = freeBytes(env.dataDir);
  if (free !== null && free < MIN_FREE_BYTES) {
    noteStorageFull(new Error(`${free} bytes free on the data directory's filesystem`));
    return `storage full: ${free} bytes free in ${env.dataDir}`;
  }
  const insert = `INSERT INTO "JobLease" ("name", "holder", "expiresAt") VALUES (?, hex(zeroblob(?)), 0)
    ON CONFLICT ("name") DO UPDATE SET "holder" = excluded."holder"`;
  try {
    if (storageFullSince()) {
      await prisma.$executeRawUnsafe(insert, PROBE_LEASE, PROBE_BYTES / 2);
      await prisma.$executeRawUnsafe(`DELETE FROM "JobLease" WHERE "name" = ?`, PROBE_LEASE);
    } else {
      await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(insert, PROBE_LEASE, PROBE_BYTES / 2);
        throw new ProbeDone();
      });
    }
    return "ok";
  } catch (error) {
    if (error instanceof ProbeDone) return "ok";
    if (isStorageFull(error))
      return "storage full: the database cannot grow (database or disk is full)";
    const text = error instanceof Error ? error.message : String(error);
    return `cannot write: ${(text.trim().split("\n").at(-1) ?? text).slice(0, 200)}`;
  }
}
