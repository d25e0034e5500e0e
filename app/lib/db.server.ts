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
