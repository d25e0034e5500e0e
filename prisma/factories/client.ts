// A Prisma client on a given SQLite file, built the way app/lib/db.server.ts builds the app's (the
// better-sqlite3 driver adapter, DateTime stored as epoch milliseconds), for the seed, the CLI and
// the browser tests' fixtures, which write into a file that is not the process's own database.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient, type Prisma } from "../../app/generated/prisma/client";

/** The app's client or a transaction of it: what every factory writes through. */
export type Db = Prisma.TransactionClient;

export function openDatabase(databaseFile: string) {
  const adapter = new PrismaBetterSQLite3(
    { url: `file:${databaseFile}`, timeout: 5000 },
    { timestampFormat: "unixepoch-ms" },
  );
  return new PrismaClient({ adapter });
}

/** An instant as the factories take it: a Date or epoch milliseconds. */
export type Time = Date | number;
export const toDate = (t: Time) => (t instanceof Date ? t : new Date(t));
export const optionalDate = (t: Time | null | undefined) => (t == null ? null : toDate(t));

/**
 * A value as SQLite stores it through the app's adapter: DateTime as epoch milliseconds
 * (timestampFormat "unixepoch-ms"), booleans as 0/1; for the few writes that bypass the client.
 */
export function storedValue(value: unknown) {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "boolean") return value ? 1 : 0;
  return value ?? null;
}
