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
      // a transaction, so it is set outside) and checked before the commit.
      db.pragma("foreign_keys = OFF");
      db.transaction(() => {
        const startedAt = Date.now();
        if (m.check) {
          const refused = db.prepare(m.check).all() as Record<string, unknown>[];
          if (refused.length) throw new MigrationRefused(m.name, refused);
        }
        db.exec(m.sql);
        const broken = db.pragma("foreign_key_check") as unknown[];
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
