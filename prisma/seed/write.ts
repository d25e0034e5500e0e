// Writing the demo world through Prisma: every table emptied, then the rows added with createMany
// in large chunks, all in one transaction.
import type { PrismaClient } from "../../app/generated/prisma/client";
import { storedValue, type Db } from "../factories";
import type { World } from "./world";

/** Bound values per statement: under SQLite's limit of 32,766. */
const MAX_VALUES = 30_000;

/**
 * Multi-row INSERTs through Prisma's connection. createMany took 5 times as long (38 s instead
 * of 7 s for the demo world on a loaded 2-core machine); the columns are the rows' own fields,
 * typed by World as Prisma's create-many inputs, so no column list is kept by hand.
 */
async function insertRows(tx: Db, table: keyof World, rows: object[]) {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const perStatement = Math.floor(MAX_VALUES / columns.length);
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  for (let i = 0; i < rows.length; i += perStatement) {
    const part = rows.slice(i, i + perStatement) as Record<string, unknown>[];
    await tx.$executeRawUnsafe(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${part.map(() => tuple).join(", ")}`,
      ...part.flatMap((row) => columns.map((c) => storedValue(row[c]))),
    );
  }
}

async function userTables(db: Db) {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name`,
  );
  return rows.map((r) => r.name);
}

/** Rows per table (the migrations' own table and SQLite's left out). */
export async function tableCounts(db: Db) {
  const counts: Record<string, number> = {};
  for (const t of await userTables(db)) {
    const [row] = await db.$queryRawUnsafe<{ n: number | bigint }[]>(
      `SELECT COUNT(*) AS n FROM "${t}"`,
    );
    counts[t] = Number(row.n);
  }
  return counts;
}

/** Parents before children. */
const TABLE_ORDER: (keyof World)[] = [
  "CareSite",
  "User",
  "PatientProfile",
  "Membership",
  "Invitation",
  "Device",
  "Pairing",
  "TherapyGoal",
  "Prescription",
  "Transmission",
  "Therapy",
  "Cycle",
  "PatientNote",
  "NotificationSetting",
  "ChatDialog",
  "ChatParticipant",
  "ChatMessage",
];

/** Replaces everything in the database with the world; returns the rows per table. */
export async function writeWorld(db: PrismaClient, world: World) {
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  // Everything is deleted, in no particular order: foreign keys are off meanwhile (SQLite ignores
  // the pragma inside a transaction, so it is set before) and checked before the commit.
  await db.$queryRawUnsafe("PRAGMA foreign_keys = OFF");
  await db.$transaction(
    async (tx) => {
      for (const t of await userTables(tx)) await tx.$executeRawUnsafe(`DELETE FROM "${t}"`);
      const sequence = await tx.$queryRawUnsafe<unknown[]>(
        `SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`,
      );
      if (sequence.length > 0) await tx.$executeRawUnsafe(`DELETE FROM sqlite_sequence`);
      for (const table of TABLE_ORDER) await insertRows(tx, table, world[table]);
      const broken = await tx.$queryRawUnsafe<unknown[]>("PRAGMA foreign_key_check");
      if (broken.length > 0)
        throw new Error(`demo world breaks foreign keys: ${JSON.stringify(broken.slice(0, 5))}`);
    },
    { maxWait: 10_000, timeout: 300_000 },
  );
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  await db.$executeRawUnsafe("ANALYZE");
  return tableCounts(db);
}
