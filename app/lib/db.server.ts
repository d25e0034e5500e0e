// The one Prisma client of the process (shared by the Remix build, server.ts and the jobs).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "~/generated/prisma/client";
import { env } from "./env.server";

function connect() {
  const adapter = new PrismaBetterSQLite3(
    { url: `file:${env.databaseFile}`, timeout: 5000 },
    { timestampFormat: "unixepoch-ms" },
  );
  return new PrismaClient({ adapter });
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

/**
 * An interactive transaction that reads before it writes. SQLite cannot upgrade such a transaction
 * when another connection (a script, a test fixture) wrote since its read began, and answers
 * "database is locked" at once, without waiting; running it again is the cure. Only for
 * transactions whose work is all in the database (safe to repeat).
 */
export async function readWriteTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction(fn);
    } catch (error) {
      if (attempt >= 5 || !isBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
}
