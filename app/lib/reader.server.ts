// The request path's read connection: a second SQLite connection of the process, for the few
// reads every page makes (the session, the signed-in user and their care sites) and a page's
// hot reads, as prepared statements kept for the life of the connection.
//
// Why (docs/performance.md "Over HTTP"): through Prisma each of those reads went through the
// query compiler, the adapter's prepare and the result mapping, about half a millisecond of CPU
// each and a quarter of the cheapest signed-in page's CPU; a prepared statement here costs a few
// tens of microseconds. Prisma stays for writes and the ordinary screens.
//
// Reads only: the connection is query_only, and it never sees a Prisma interactive transaction's
// uncommitted rows (WAL: each statement reads the last committed state). Nothing on the request
// path reads what its own open transaction wrote through this connection.
//
// SQL here is standard (double-quoted identifiers, ? parameters): the PostgreSQL issue swaps this
// file's driver. The PRAGMAs below are the SQLite-only part.
import Database from "better-sqlite3";
import { env } from "./env.server";

type Reader = { db: Database.Database; statements: Map<string, Database.Statement> };

const globalForReader = globalThis as unknown as { __arcReader?: Reader };

function reader(): Reader {
  const cached = globalForReader.__arcReader;
  if (cached?.db.open) return cached;
  const db = new Database(env.databaseFile, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  db.pragma("query_only = ON");
  const opened = { db, statements: new Map<string, Database.Statement>() };
  globalForReader.__arcReader = opened;
  return opened;
}

/** Prepared statements kept at most. */
const MAX_STATEMENTS = 500;

function statement(sql: string, key = sql) {
  const r = reader();
  let s = r.statements.get(key);
  if (!s) {
    s = r.db.prepare(sql);
    // Statements with IN lists of every length are many: the oldest made leave first.
    if (r.statements.size >= MAX_STATEMENTS) r.statements.delete(r.statements.keys().next().value!);
    r.statements.set(key, s);
  }
  return s;
}

type Param = string | number | bigint | null;

/** The rows of a read (a prepared statement, made once per SQL text). */
export function readRows<T>(sql: string, ...params: Param[]): T[] {
  return statement(sql).all(...params) as T[];
}

/** The first row of a read, or undefined. */
export function readRow<T>(sql: string, ...params: Param[]): T | undefined {
  return statement(sql).get(...params) as T | undefined;
}

/**
 * The rows of a statement built with Prisma.sql (its `sql` with ? placeholders and its values),
 * on this connection: an area's raw statements move here without being written again. Dates are
 * bound as epoch ms and booleans as 1/0, as Prisma binds them on SQLite.
 */
export function readSql<T>(query: { sql: string; values: readonly unknown[] }): T[] {
  const params = query.values.map((v): Param => {
    if (v instanceof Date) return v.getTime();
    if (typeof v === "boolean") return v ? 1 : 0;
    if (v === undefined) return null;
    return v as Param;
  });
  return statement(query.sql).all(...params) as T[];
}

// ---------------------------------------------------------------------------------------------
// The patient profile's long series (domain/patients/sql.server.ts)
// ---------------------------------------------------------------------------------------------

/**
 * The rows of a read as arrays of column values, in the SELECT's order: a series of hundreds of
 * rows without an object (and its keys) per row.
 */
export function readValues<T extends unknown[]>(sql: string, ...params: Param[]): T[] {
  // A statement of its own (raw mode stays set on it), apart from the same SQL read as objects.
  return statement(sql, `values\u0000${sql}`)
    .raw(true)
    .all(...params) as T[];
}

/** Closes the read connection (shutdown, tests); the next read opens it again. */
export function closeReader() {
  const cached = globalForReader.__arcReader;
  delete globalForReader.__arcReader;
  if (cached?.db.open) cached.db.close();
}

/** An instant as SQLite hands a Prisma DateTime back (epoch ms; text from older rows), or null. */
export function instantOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  const text = String(value);
  return new Date(/^\d+$/.test(text) ? Number(text) : text);
}
