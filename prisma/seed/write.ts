// Writing the demo world through Prisma: every table emptied, then the rows added with createMany
// in large chunks, all in one transaction.
import type { PrismaClient } from "../../app/generated/prisma/client";
import type { Db } from "../factories";
import type { World } from "./world";

/** Rows per createMany: few round trips, well under SQLite's limit of bound variables. */
const CHUNK = 1000;

async function inChunks<T>(rows: T[], create: (data: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await create(rows.slice(i, i + CHUNK));
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

/** Parents before children, so the foreign keys hold at every step. */
async function insertWorld(tx: Db, w: World) {
  await inChunks(w.CareSite, (data) => tx.careSite.createMany({ data }));
  await inChunks(w.User, (data) => tx.user.createMany({ data }));
  await inChunks(w.PatientProfile, (data) => tx.patientProfile.createMany({ data }));
  await inChunks(w.Membership, (data) => tx.membership.createMany({ data }));
  await inChunks(w.Invitation, (data) => tx.invitation.createMany({ data }));
  await inChunks(w.Device, (data) => tx.device.createMany({ data }));
  await inChunks(w.Pairing, (data) => tx.pairing.createMany({ data }));
  await inChunks(w.TherapyGoal, (data) => tx.therapyGoal.createMany({ data }));
  await inChunks(w.Prescription, (data) => tx.prescription.createMany({ data }));
  await inChunks(w.Transmission, (data) => tx.transmission.createMany({ data }));
  await inChunks(w.Therapy, (data) => tx.therapy.createMany({ data }));
  await inChunks(w.Cycle, (data) => tx.cycle.createMany({ data }));
  await inChunks(w.PatientNote, (data) => tx.patientNote.createMany({ data }));
  await inChunks(w.NotificationSetting, (data) => tx.notificationSetting.createMany({ data }));
  await inChunks(w.ChatDialog, (data) => tx.chatDialog.createMany({ data }));
  await inChunks(w.ChatParticipant, (data) => tx.chatParticipant.createMany({ data }));
  await inChunks(w.ChatMessage, (data) => tx.chatMessage.createMany({ data }));
}

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
      await insertWorld(tx, world);
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
