// Bulk writing with raw better-sqlite3, for worlds too large for the ORM (npm run db:world): one
// connection, prepared multi-row INSERTs, the caller's big transactions. Prisma's createMany is 52×
// slower here (STACK-NOTES.md "What things cost here"). Rows are either the factories' objects
// (build*: Prisma create-many inputs, stored through storedValue) or positional arrays in the
// writer's column order, already in stored form (DateTime as epoch ms, booleans as 0/1).
import { performance } from "node:perf_hooks";
import type Database from "better-sqlite3";
import { storedValue } from "./client";

/** Rows per multi-row INSERT: fewer statement runs, well under SQLite's 32,766 bound values. */
const ROWS_PER_STATEMENT = 64;

export class BulkWriter {
  /** Rows written so far. */
  rows = 0;
  /** Milliseconds spent inside SQLite writing them (flushes). */
  ms = 0;
  private readonly one: Database.Statement;
  private readonly many: Database.Statement;
  private readonly width: number;
  private pending: unknown[] = [];

  constructor(
    db: Database.Database,
    readonly table: string,
    readonly columns: readonly string[],
  ) {
    this.width = columns.length;
    const names = columns.map((c) => `"${c}"`).join(", ");
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    const insert = `INSERT INTO "${table}" (${names}) VALUES `;
    this.one = db.prepare(insert + tuple);
    this.many = db.prepare(insert + Array.from({ length: ROWS_PER_STATEMENT }, () => tuple).join(", ")); // prettier-ignore
  }

  /** A row in column order, values already as stored. */
  push(values: readonly unknown[]) {
    for (let i = 0; i < this.width; i++) this.pending.push(values[i]);
    if (this.pending.length === this.width * ROWS_PER_STATEMENT) this.flushFull();
  }

  /** A row as a factory builds it (a Prisma create-many input): its columns picked and stored. */
  add(row: object) {
    const r = row as Record<string, unknown>;
    this.push(this.columns.map((c) => storedValue(r[c])));
  }

  private flushFull() {
    const started = performance.now();
    this.many.run(this.pending);
    this.ms += performance.now() - started;
    this.rows += ROWS_PER_STATEMENT;
    this.pending = [];
  }

  /** Writes what is buffered; call before reading the table and before the commit. */
  flush() {
    if (this.pending.length === 0) return;
    const started = performance.now();
    for (let i = 0; i < this.pending.length; i += this.width)
      this.one.run(this.pending.slice(i, i + this.width));
    this.ms += performance.now() - started;
    this.rows += this.pending.length / this.width;
    this.pending = [];
  }
}

/** Writers by table name, flushed together. */
export function bulkWriters<T extends Record<string, readonly string[]>>(
  db: Database.Database,
  tables: T,
): { [K in keyof T]: BulkWriter } & { flushAll(): void; all(): BulkWriter[] } {
  const writers = Object.fromEntries(
    Object.entries(tables).map(([table, columns]) => [table, new BulkWriter(db, table, columns)]),
  ) as { [K in keyof T]: BulkWriter };
  const list = Object.values(writers) as BulkWriter[];
  const all = () => [...list];
  return Object.assign(writers, { flushAll: () => list.forEach((w) => w.flush()), all });
}
