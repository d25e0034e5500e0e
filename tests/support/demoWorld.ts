// A fingerprint of the demo world (prisma/seed.ts) seeded for a fixed day: per table, the row count,
// a sha256 of every row (sorted by primary key, every column as SQLite's quote() writes it, so a
// changed storage type shows too) and a sha256 per column, to say where two worlds differ.
// tests/fixtures/demo-world.json holds the fingerprint of the seed before its rewrite (issue 19);
// tests/unit/demo-world.test.ts compares today's seed with it.
//
//   npx tsx tests/support/demoWorld.ts   writes tests/fixtures/demo-world.json from the current seed
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

/** The day tests/unit/seed.test.ts seeds for. */
export const DEMO_TODAY = new Date("2026-11-21T15:00:00Z");
export const FINGERPRINT_FILE = path.resolve(__dirname, "..", "fixtures", "demo-world.json");

/**
 * Left out because they differ on every run by design: User.passwordHash (argon2 with a random
 * salt), StandingVersion.version (a site's first version is random: migration standing_version),
 * _prisma_migrations (ids and times of applying), SQLite's own tables (ANALYZE statistics).
 */
const EXCLUDED_COLUMNS: Record<string, string[]> = {
  User: ["passwordHash"],
  StandingVersion: ["version"],
};

export type TableFingerprint = { rows: number; sha256: string; columns: Record<string, string> };
export type Fingerprint = Record<string, TableFingerprint>;

export function fingerprintDatabase(databaseFile: string): Fingerprint {
  const db = new Database(databaseFile, { readonly: true });
  try {
    const tables = (
      db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             AND name <> '_prisma_migrations' ORDER BY name`,
        )
        .all() as { name: string }[]
    ).map((t) => t.name);
    const result: Fingerprint = {};
    for (const table of tables) {
      const info = db.prepare(`PRAGMA table_info("${table}")`).all() as {
        name: string;
        pk: number;
      }[];
      const columns = info
        .map((c) => c.name)
        .filter((c) => !(EXCLUDED_COLUMNS[table] ?? []).includes(c));
      const key = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => `"${c.name}"`);
      const order = key.length > 0 ? key : columns.map((c) => `"${c}"`);
      const rows = db
        .prepare(
          `SELECT ${columns.map((c) => `quote("${c}")`).join(", ")} FROM "${table}" ORDER BY ${order.join(", ")}`,
        )
        .raw()
        .all() as string[][];
      const all = crypto.createHash("sha256");
      const perColumn = columns.map(() => crypto.createHash("sha256"));
      for (const row of rows) {
        all.update(JSON.stringify(row) + "\n");
        row.forEach((value, i) => perColumn[i].update(`${value}\n`));
      }
      result[table] = {
        rows: rows.length,
        sha256: all.digest("hex"),
        columns: Object.fromEntries(columns.map((c, i) => [c, perColumn[i].digest("hex")])),
      };
    }
    return result;
  } finally {
    db.close();
  }
}

/** Seeds the demo world for DEMO_TODAY into a new temporary file and fingerprints it. */
export async function fingerprintDemoWorld(): Promise<Fingerprint> {
  const { seedDemoWorld } = await import("../../prisma/seed");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-demo-world-"));
  try {
    const databaseFile = path.join(dir, "arc.db");
    await seedDemoWorld(databaseFile, DEMO_TODAY);
    return fingerprintDatabase(databaseFile);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  fingerprintDemoWorld().then((fingerprint) => {
    fs.mkdirSync(path.dirname(FINGERPRINT_FILE), { recursive: true });
    fs.writeFileSync(FINGERPRINT_FILE, JSON.stringify(fingerprint, null, 2) + "\n");
    console.log(`Wrote ${FINGERPRINT_FILE}`);
  });
}
