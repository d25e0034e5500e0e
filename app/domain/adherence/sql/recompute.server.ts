// The statements of the adherence engine (domain/adherence/adherence.server.ts): what a batch of
// patients' days are computed from, and the DailyAdherence rows it writes. Raw where it pays
// (docs/performance.md "Device ingest": the recompute is on the ingest path): one statement per
// read with its care-site join, windows on the (patientId, …) indexes, and rows written as one
// JSON text per statement (json_each) rather than nine bound parameters a row.
import {
  Prisma,
  type AdherenceQueue,
  type CareSite,
  type Membership,
  type Pairing,
  type Therapy,
  type Transmission,
} from "~/generated/prisma/client";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import type { DailyRow } from "../score";
import type { RawRow } from "./rows";

export type Tx = Parameters<Parameters<typeof readWriteTransaction>[0]>[0];
type Db = Tx | typeof prisma;

type Zone = { timeZone: CareSite["timeZone"] };

/** The pairings, first accepted memberships and goals of some patients, with their zones. */
export async function contextRows(db: Db, patientIds: string[]) {
  const ids = Prisma.join(patientIds);
  return Promise.all([
    db.$queryRaw<(RawRow<Pairing, "id" | "patientId" | "pairedAt", "pairedAt"> & Partial<Zone>)[]>`
      SELECT p.id, p.patientId, p.pairedAt, c.timeZone
      FROM "Pairing" p LEFT JOIN "CareSite" c ON c.id = p.careSiteId
      WHERE p.patientId IN (${ids})`,
    db.$queryRaw<(Pick<Membership, "userId"> & Zone)[]>`
      SELECT m.userId, c.timeZone
      FROM "Membership" m JOIN "CareSite" c ON c.id = m.careSiteId
      WHERE m.userId IN (${ids}) AND m.status = 'accepted'
      ORDER BY m.acceptedAt IS NULL, m.acceptedAt, m.createdAt, m.id`,
    db.therapyGoal.findMany({
      where: { patientId: { in: patientIds } },
      select: { patientId: true, pairingId: true, timesPerDay: true, days: true, createdAt: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
}

/**
 * The therapies started, and the transmissions sent with an hour-meter reading, in [loMs, hiMs)
 * (the transmissions by the day the device sent them; received moments later, and receivedAt
 * carries the index).
 */
export function windowRows(
  tx: Tx,
  patientIds: string[],
  loMs: number,
  hiMs: number,
  dayMs: number,
) {
  const ids = Prisma.join(patientIds);
  return Promise.all([
    tx.$queryRaw<
      RawRow<
        Therapy,
        "patientId" | "pairingId" | "startedAt" | "completed",
        "startedAt" | "completed",
        "patientId"
      >[]
    >`
      SELECT patientId, pairingId, startedAt, completed FROM "Therapy"
      WHERE patientId IN (${ids}) AND startedAt >= ${loMs} AND startedAt < ${hiMs}`,
    tx.$queryRaw<
      RawRow<
        Transmission,
        "patientId" | "pairingId" | "sentAt" | "hmr",
        "sentAt",
        "patientId" | "hmr"
      >[]
    >`
      SELECT patientId, pairingId, sentAt, hmr FROM "Transmission"
      WHERE patientId IN (${ids}) AND receivedAt >= ${loMs} AND receivedAt < ${hiMs + dayMs}
        AND sentAt >= ${loMs} AND sentAt < ${hiMs} AND hmr IS NOT NULL`,
  ]);
}

/** Deletes the rows a recompute replaces: all of them, or from a day per patient, or a range. */
export const deleteRows = {
  all: (tx: Tx, patientIds: string[]) =>
    tx.$executeRaw`DELETE FROM "DailyAdherence" WHERE patientId IN (${Prisma.join(patientIds)})`,
  fromDays: (tx: Tx, fromDays: Map<string, string>) => {
    const json = JSON.stringify([...fromDays]);
    return tx.$executeRaw`DELETE FROM "DailyAdherence" WHERE rowid IN (
      SELECT d.rowid FROM json_each(${json}) j
      JOIN "DailyAdherence" d ON d.patientId = j.value ->> 0 AND d.day >= j.value ->> 1)`;
  },
  range: (tx: Tx, patientIds: string[], fromDay: string, toDay: string) =>
    tx.$executeRaw`DELETE FROM "DailyAdherence"
      WHERE patientId IN (${Prisma.join(patientIds)}) AND day >= ${fromDay} AND day <= ${toDay}`,
};

/** Writes (inserts or replaces) DailyAdherence rows, as one JSON text. */
export function upsertRows(tx: Tx, rows: (DailyRow & { patientId: string })[]) {
  const json = JSON.stringify(
    rows.map((r) => [
      r.patientId,
      r.day,
      r.isGoalDay ? 1 : 0,
      r.timesPerDay,
      r.therapies,
      r.completed,
      r.dayAdherence,
      r.score,
      r.maxHmr,
      r.missedStreak,
    ]),
  );
  return tx.$executeRaw`INSERT INTO "DailyAdherence"
    (patientId, day, isGoalDay, timesPerDay, therapies, completed, dayAdherence, score, maxHmr,
      missedStreak)
    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
      value ->> 6, value ->> 7, value ->> 8, value ->> 9
    FROM json_each(${json})
    WHERE true
    ON CONFLICT (patientId, day) DO UPDATE SET
      isGoalDay = excluded.isGoalDay, timesPerDay = excluded.timesPerDay,
      therapies = excluded.therapies, completed = excluded.completed,
      dayAdherence = excluded.dayAdherence, score = excluded.score, maxHmr = excluded.maxHmr,
      missedStreak = excluded.missedStreak`;
}

/** Per patient, the missedStreak of the newest row before a day (patients with none: absent). */
export async function streaksBefore(tx: Tx, fromDays: Map<string, string>) {
  const json = JSON.stringify([...fromDays]);
  const rows = await tx.$queryRaw<{ patientId: string; streak: unknown }[]>`
    SELECT j.value ->> 0 AS patientId,
      (SELECT d.missedStreak FROM "DailyAdherence" d
        WHERE d.patientId = j.value ->> 0 AND d.day < j.value ->> 1
        ORDER BY d.day DESC LIMIT 1) AS streak
    FROM json_each(${json}) j`;
  return new Map(rows.filter((r) => r.streak != null).map((r) => [r.patientId, Number(r.streak)]));
}

// ---------------------------------------------------------------------------------------------
// PatientStanding (the care site dashboard's per-site rows): rewritten for the patients of a
// recompute, in its transaction
// ---------------------------------------------------------------------------------------------

/** Adds the rows of accepted patient memberships that have none (the triggers normally do). */
export function ensureStandingRows(tx: Tx, patientIds: string[]) {
  return tx.$executeRaw`INSERT INTO "PatientStanding" (careSiteId, patientId, firstName, lastName)
    SELECT m.careSiteId, m.userId, u.firstName, u.lastName
    FROM "Membership" m JOIN "User" u ON u.id = m.userId
    WHERE m.userId IN (${Prisma.join(patientIds)}) AND m.role = 'patient' AND m.status = 'accepted'
    ON CONFLICT (careSiteId, patientId) DO NOTHING`;
}

/** The newest 3 DailyAdherence rows of each patient (from the third newest day on, by the key). */
export function newestDays(tx: Tx, patientIds: string[]) {
  const json = JSON.stringify(patientIds);
  return tx.$queryRaw<{ patientId: string; day: string; score: number | null; streak: unknown }[]>`
    SELECT d.patientId, d.day, d.score, d.missedStreak AS streak
    FROM json_each(${json}) j
    JOIN "DailyAdherence" d ON d.patientId = j.value AND d.day >= COALESCE((
      SELECT n.day FROM "DailyAdherence" n WHERE n.patientId = j.value
      ORDER BY n.day DESC LIMIT 1 OFFSET 2), '')
    ORDER BY d.patientId, d.day DESC`;
}

/**
 * Per patient: any transmission at all, and the newest sentAt of a transmission that brought a
 * therapy, and of one with a deviating therapy (each walks the (patientId, sentAt, …) index
 * backwards and stops at the first match).
 */
export function newestTransmissions(tx: Tx, patientIds: string[]) {
  const json = JSON.stringify(patientIds);
  return tx.$queryRaw<
    { patientId: string; transmitted: unknown; lastSentAt: unknown; lastDeviatingAt: unknown }[]
  >`
    SELECT j.value AS patientId,
      EXISTS (SELECT 1 FROM "Transmission" t WHERE t.patientId = j.value) AS transmitted,
      (SELECT t.sentAt FROM "Transmission" t
        WHERE t.patientId = j.value AND t.therapiesAccepted > 0
        ORDER BY t.sentAt DESC LIMIT 1) AS lastSentAt,
      (SELECT t.sentAt FROM "Transmission" t
        WHERE t.patientId = j.value AND t.therapiesAccepted > 0 AND t.deviatingTherapies > 0
        ORDER BY t.sentAt DESC LIMIT 1) AS lastDeviatingAt
    FROM json_each(${json}) j`;
}

/** Per [patientId, before (ms), deviating (0/1)]: the newest counted sentAt before `before`. */
export async function sentBefore(tx: Tx, asks: [string, number, 0 | 1][]) {
  if (asks.length === 0) return [];
  const json = JSON.stringify(asks);
  return tx.$queryRaw<{ patientId: string; deviating: unknown; sentAt: unknown }[]>`
    SELECT j.value ->> 0 AS patientId, j.value ->> 2 AS deviating,
      (SELECT t.sentAt FROM "Transmission" t
        WHERE t.patientId = j.value ->> 0 AND t.sentAt < j.value ->> 1
          AND t.therapiesAccepted > 0 AND (j.value ->> 2 = 0 OR t.deviatingTherapies > 0)
        ORDER BY t.sentAt DESC LIMIT 1) AS sentAt
    FROM json_each(${json}) j`;
}

export type StandingValues = {
  patientId: string;
  days: [string | null, string | null, string | null];
  scores: [number | null, number | null, number | null];
  missed: [boolean, boolean, boolean];
  transmitted: boolean;
  lastSentAt: number | null;
  lastSentBeforeAt: number | null;
  lastDeviatingAt: number | null;
  lastDeviatingBeforeAt: number | null;
};

/** Writes the values into every PatientStanding row of each patient, as one JSON text. */
export function writeStanding(tx: Tx, values: StandingValues[]) {
  const json = JSON.stringify(
    values.map((v) => [
      v.patientId,
      ...v.days,
      ...v.scores,
      ...v.missed.map(Number),
      Number(v.transmitted),
      v.lastSentAt,
      v.lastSentBeforeAt,
      v.lastDeviatingAt,
      v.lastDeviatingBeforeAt,
    ]),
  );
  return tx.$executeRaw`UPDATE "PatientStanding" SET
      day1 = v.value ->> 1, day2 = v.value ->> 2, day3 = v.value ->> 3,
      score1 = v.value ->> 4, score2 = v.value ->> 5, score3 = v.value ->> 6,
      missed1 = v.value ->> 7, missed2 = v.value ->> 8, missed3 = v.value ->> 9,
      transmitted = v.value ->> 10, lastSentAt = v.value ->> 11, lastSentBeforeAt = v.value ->> 12,
      lastDeviatingAt = v.value ->> 13, lastDeviatingBeforeAt = v.value ->> 14
    FROM json_each(${json}) v
    WHERE "PatientStanding".patientId = v.value ->> 0`;
}

/** What ingest queued (AdherenceQueue), by patient. */
export function queuedPatients() {
  return prisma.adherenceQueue.findMany({
    select: { patientId: true, fromAt: true, seq: true },
    orderBy: { patientId: "asc" },
  });
}

/** Removes queue rows that ingest did not change meanwhile (same seq). */
export function dequeue(tx: Tx, done: Pick<AdherenceQueue, "patientId" | "seq">[]) {
  const json = JSON.stringify(done.map((q) => [q.patientId, Number(q.seq)]));
  return tx.$executeRaw`DELETE FROM "AdherenceQueue" WHERE rowid IN (
    SELECT q.rowid FROM json_each(${json}) j
    JOIN "AdherenceQueue" q ON q.patientId = j.value ->> 0 AND q.seq = j.value ->> 1)`;
}

/** The patients a care site's days are finalised for: accepted patient members, current pairings. */
export async function finalisedPatients(careSiteId: string) {
  const rows = await prisma.$queryRaw<{ patientId: Membership["userId"] }[]>`
    SELECT userId AS patientId FROM "Membership"
    WHERE careSiteId = ${careSiteId} AND role = 'patient' AND status = 'accepted'
    UNION
    SELECT patientId FROM "Pairing" WHERE careSiteId = ${careSiteId} AND unpairedAt IS NULL`;
  return rows.map((r) => r.patientId);
}

/** Every patient ever paired; the rows of patients never paired are deleted. */
export async function pairedPatientsOnly() {
  const rows = await prisma.$queryRaw<Pick<Pairing, "patientId">[]>`
    SELECT DISTINCT patientId FROM "Pairing" ORDER BY patientId`;
  await prisma.$executeRaw`DELETE FROM "DailyAdherence"
    WHERE patientId NOT IN (SELECT patientId FROM "Pairing")`;
  return rows.map((r) => r.patientId);
}
