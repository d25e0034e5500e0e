// The one Prisma client of the process (shared by the Remix build, server.ts and the jobs).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client";
import { env } from "./env.server";

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;

/**
 * The adapter keeps one SQLite connection for the process and, while an interactive transaction
 * waits between its statements, runs any other query of the process on that same connection:
 * inside the open transaction. A write awaited to success elsewhere (a request, a job) was then
 * undone by that transaction's rollback, and reads saw its uncommitted rows. Here every query
 * outside a transaction waits until the open transaction commits or rolls back, and a
 * transaction waits for the query in progress: one at a time on the connection.
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
  const exclusive = async <T>(work: () => Promise<T>) => {
    const release = await acquire();
    try {
      return await work();
    } finally {
      release();
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => exclusive(() => adapter.queryRaw(query)),
    executeRaw: (query) => exclusive(() => adapter.executeRaw(query)),
    executeScript: (script) => exclusive(() => adapter.executeScript(script)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    // Closing rolls back a transaction still open (shutdown); it does not wait for it.
    dispose: () => adapter.dispose(),
    async startTransaction(isolationLevel) {
      const release = await acquire();
      try {
        const tx = await adapter.startTransaction(isolationLevel);
        const end = (finish: () => Promise<void>) => () => finish().finally(release);
        return {
          provider: tx.provider,
          adapterName: tx.adapterName,
          options: tx.options,
          queryRaw: (query) => tx.queryRaw(query),
          executeRaw: (query) => tx.executeRaw(query),
          commit: end(() => tx.commit()),
          rollback: end(() => tx.rollback()),
        };
      } catch (error) {
        release();
        throw error;
      }
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
  await prisma.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
}

export async function disconnectDatabase() {
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
