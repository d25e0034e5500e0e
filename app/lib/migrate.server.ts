// Applies prisma/migrations/*/migration.sql that the database has not seen, recording each in
// Prisma's own _prisma_migrations table so `prisma migrate status` and this runner agree. The server
// runs it at start (the release binary has no Prisma CLI: STACK-NOTES.md "One binary").
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * `check`: an optional check.sql beside migration.sql, a query run first. Any row it returns is
 * data the migration refuses to guess about (two accounts whose usernames differ only by letter
 * case: which one keeps the name?), so the migration is not applied and the rows are listed.
 */
export type Migration = { name: string; sql: string; check?: string };

/** A migration refused by its check.sql: nothing of it was applied. The message lists the rows. */
export class MigrationRefused extends Error {
  override name = "MigrationRefused";
  constructor(
    readonly migration: string,
    readonly rows: Record<string, unknown>[],
  ) {
    super(
      `Migration ${migration} was not applied: the database holds rows it will not guess about. ` +
        `Resolve these, then start again (nothing was changed):\n` +
        rows
          .map((row) =>
            Object.entries(row)
              .map(([key, value]) => `${key}: ${String(value)}`)
              .join("; "),
          )
          .map((line) => `  - ${line}`)
          .join("\n"),
    );
  }
}

/**
 * The folder holding the app's own files (public/, prisma/migrations/): the checkout, or where the
 * release binary unpacked them (scripts/binary/runtime.ts sets `globalThis.__arcAppRoot`).
 */
export function appRoot(): string {
  return (globalThis as { __arcAppRoot?: string }).__arcAppRoot ?? process.cwd();
}

export const migrationsDir = () => path.join(appRoot(), "prisma", "migrations");

export function readMigrations(dir: string): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const check = path.join(dir, name, "check.sql");
      return {
        name,
        sql: fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8"),
        ...(fs.existsSync(check) ? { check: fs.readFileSync(check, "utf8") } : {}),
      };
    });
}

export function applyMigrations(databaseFile: string, migrations: Migration[]) {
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  const db = new Database(databaseFile);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL,
      "checksum" TEXT NOT NULL,
      "finished_at" DATETIME,
      "migration_name" TEXT NOT NULL,
      "logs" TEXT,
      "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
    )`);
    const done = new Set(
      db
        .prepare(
          `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
        .all()
        .map((r) => (r as { migration_name: string }).migration_name),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      const checksum = crypto.createHash("sha256").update(m.sql).digest("hex");
      // Each migration and its record commit together: a crash leaves it either applied or not.
      // Foreign keys are off while a migration rebuilds tables (SQLite ignores that pragma inside
      // a transaction, so it is set outside) and checked before the commit, in the tables the
      // migration can have broken (tablesToCheck).
      db.pragma("foreign_keys = OFF");
      db.transaction(() => {
        const startedAt = Date.now();
        if (m.check) {
          const refused = db.prepare(m.check).all() as Record<string, unknown>[];
          if (refused.length) throw new MigrationRefused(m.name, refused);
        }
        db.exec(m.sql);
        const broken = tablesToCheck(db, m.sql).flatMap(
          (table) => db.pragma(`foreign_key_check("${table}")`) as unknown[],
        );
        if (broken.length) throw new Error(`${m.name} breaks ${broken.length} foreign key(s)`);
        db.prepare(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(crypto.randomUUID(), checksum, Date.now(), m.name, startedAt);
      })();
      db.pragma("foreign_keys = ON");
      applied.push(m.name);
    }
    return applied;
  } finally {
    db.close();
  }
}

// A migration's statements that write a table, outside trigger bodies (a trigger's definition
// writes nothing). Group 1 is the kind of write, group 2 the table.
const WRITE =
  /\b(CREATE\s+TABLE(?:\s+IF\s+NOT\s+EXISTS)?|ALTER\s+TABLE|INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM|DROP\s+TABLE(?:\s+IF\s+EXISTS)?|RENAME\s+TO)\s+[`"[]?(\w+)/gi;
const TRIGGER_BODY = /\bCREATE\s+TRIGGER\b[\s\S]*?\bBEGIN\b[\s\S]*?\bEND\s*;/gi;

function writesOf(sql: string) {
  return [...sql.matchAll(WRITE)].map((w) => ({
    table: w[2],
    // Rows of the table can disappear or change (not only be added): the rows of other tables
    // that point at them are checked too.
    destructive: !/^(CREATE|INSERT)/i.test(w[1]),
  }));
}

/**
 * The tables whose foreign keys a migration can have broken: every table it writes (Prisma's
 * rebuilt "new_X" is X), every table written by the triggers that writing fires, and the tables
 * pointing at a table whose rows it deleted, changed, dropped or rebuilt. A check of the whole
 * database read every row of a 6 GB world at start (86 s here) for a migration that only adds a
 * table.
 */
function tablesToCheck(db: Database.Database, sql: string): string[] {
  const existing = new Set(
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[])
      .map((t) => t.name)
      .filter((name) => !name.startsWith("sqlite_")),
  );
  const triggerSql = db.prepare(
    `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`,
  );
  const written = new Set<string>();
  const changed = new Set<string>();
  const pending = writesOf(sql.replace(TRIGGER_BODY, ""));
  for (let w = pending.shift(); w; w = pending.shift()) {
    const table = w.table.startsWith("new_") ? w.table.slice(4) : w.table;
    if (w.destructive) changed.add(table);
    if (written.has(table)) continue;
    written.add(table);
    for (const { sql: body } of triggerSql.all(table) as { sql: string }[])
      pending.push(...writesOf(body.slice(body.search(/\bBEGIN\b/i))));
  }
  for (const table of existing) {
    const parents = db.pragma(`foreign_key_list("${table}")`) as { table: string }[];
    if (parents.some((fk) => changed.has(fk.table))) written.add(table);
  }
  return [...written].filter((table) => existing.has(table));
}
