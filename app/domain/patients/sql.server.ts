// The patients area's raw SQL: only where a benchmark shows it pays (docs/performance.md
// "Patient profile and PDF report", "Over HTTP"). Everything else of the area goes through
// Prisma's client.
import {
  Prisma,
  type DailyAdherence,
  type PatientProfile,
  type Therapy,
  type User,
} from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { instantOf, readRow, readRows, readValues } from "~/lib/reader.server";

export const TREND_KEYS = ["peakFlow", "expVolume", "peakInspP"] as const;
export type TrendKey = (typeof TREND_KEYS)[number];

/** A therapy's cycles summed per measure: the sum (null without values) and how many values. */
export type TrendRow = Pick<Therapy, "startedAt"> &
  Record<`${TrendKey}Sum`, number | null> &
  Record<`${TrendKey}N`, bigint>;

/**
 * The cycles of each therapy that started in [from, to) (epoch ms), summed in SQLite: a row per
 * therapy, not per cycle (two years are 4,400 rows instead of 44,000).
 */
export function trendRows(patientId: string, from: number, to: number) {
  return prisma.$queryRaw<TrendRow[]>(Prisma.sql`
    SELECT t.startedAt AS startedAt,
      SUM(c.peakFlow) AS peakFlowSum, COUNT(c.peakFlow) AS peakFlowN,
      SUM(c.expVolume) AS expVolumeSum, COUNT(c.expVolume) AS expVolumeN,
      SUM(c.peakInspP) AS peakInspPSum, COUNT(c.peakInspP) AS peakInspPN
    FROM "Therapy" t JOIN "Cycle" c ON c.therapyId = t.id
    WHERE t.patientId = ${patientId} AND t.startedAt >= ${from} AND t.startedAt < ${to}
    GROUP BY t.id`);
}

/**
 * What the patient's therapies and cycles are as of now, in two numbers: therapies and cycles are
 * only ever written with a transmission of the patient (domain/devices/ingestDb.server.ts), so a
 * new one changes its count or its latest receivedAt. Read from the (patientId, receivedAt) index.
 */
export async function transmissionVersion(patientId: string) {
  // Every profile view reads it: on the read connection (below).
  const row = readRow<{ n: number; latest: unknown }>(
    `SELECT COUNT(*) AS "n", MAX("receivedAt") AS "latest" FROM "Transmission"
     WHERE "patientId" = ?`,
    patientId,
  );
  return `${Number(row?.n ?? 0)}.${instantOf(row?.latest)?.getTime() ?? 0}`;
}

// ---------------------------------------------------------------------------------------------
// The profile page's reads on every view, on the request path's read connection
// (lib/reader.server.ts): through Prisma they were nine queries with relation loading, about as
// much CPU as the rest of the page's data work. Booleans come back as 0/1, DateTimes as epoch ms.
// ---------------------------------------------------------------------------------------------

type PatientRow = Pick<
  User,
  | "id"
  | "firstName"
  | "lastName"
  | "email"
  | "phone"
  | "status"
  | "photoId"
  | "addressLine1"
  | "addressLine2"
  | "city"
  | "state"
  | "zip"
  | "country"
>;

const PROFILE_COLUMNS = [
  "patientTag",
  "dateOfBirth",
  "gender",
  "bloodType",
  "heightIn",
  "weightLb",
  "existingCondition1",
  "existingCondition2",
  "existingCondition3",
  "allergy1",
  "allergy2",
  "allergy3",
] as const;
type ProfileRow = Pick<PatientProfile, (typeof PROFILE_COLUMNS)[number]>;

/** The patient's account, health profile (null without one) and current pairing's id and serial. */
export function readPatient(patientId: string) {
  const user = readRow<PatientRow>(
    `SELECT "id", "firstName", "lastName", "email", "phone", "status", "photoId",
            "addressLine1", "addressLine2", "city", "state", "zip", "country"
     FROM "User" WHERE "id" = ?`,
    patientId,
  );
  if (!user) return null;
  const profile =
    readRow<ProfileRow>(
      `SELECT ${PROFILE_COLUMNS.map((c) => `"${c}"`).join(", ")}
       FROM "PatientProfile" WHERE "userId" = ?`,
      patientId,
    ) ?? null;
  const pairing =
    readRow<{ id: string; serial: string }>(
      `SELECT p."id" AS "id", d."serial" AS "serial"
       FROM "Pairing" p JOIN "Device" d ON d."id" = p."deviceId"
       WHERE p."patientId" = ? AND p."unpairedAt" IS NULL
       ORDER BY p."pairedAt" DESC LIMIT 1`,
      patientId,
    ) ?? null;
  return { ...user, profile, currentPairing: pairing };
}

/** The patient's newest note with its author's names (null: none, or the author is gone). */
export function readLatestNote(patientId: string) {
  const row = readRow<{
    body: string;
    createdAt: unknown;
    firstName: string | null;
    lastName: string | null;
    authorId: string | null;
  }>(
    `SELECT n."body" AS "body", n."createdAt" AS "createdAt", u."id" AS "authorId",
            u."firstName" AS "firstName", u."lastName" AS "lastName"
     FROM "PatientNote" n LEFT JOIN "User" u ON u."id" = n."authorId"
     WHERE n."patientId" = ?
     ORDER BY n."createdAt" DESC, n."id" DESC LIMIT 1`,
    patientId,
  );
  if (!row) return null;
  return {
    body: row.body,
    createdAt: instantOf(row.createdAt)!,
    author: row.authorId ? { firstName: row.firstName!, lastName: row.lastName! } : null,
  };
}

/** The patient's goals, newest first, with their creator's names (null: none or gone). */
export function readGoals(patientId: string) {
  return readRows<{
    id: string;
    timesPerDay: number;
    days: string;
    createdAt: unknown;
    creatorId: string | null;
    firstName: string | null;
    lastName: string | null;
  }>(
    `SELECT g."id" AS "id", g."timesPerDay" AS "timesPerDay", g."days" AS "days",
            g."createdAt" AS "createdAt", u."id" AS "creatorId",
            u."firstName" AS "firstName", u."lastName" AS "lastName"
     FROM "TherapyGoal" g LEFT JOIN "User" u ON u."id" = g."createdById"
     WHERE g."patientId" = ?
     ORDER BY g."createdAt" DESC, g."id" DESC`,
    patientId,
  ).map((g) => ({
    id: g.id,
    timesPerDay: g.timesPerDay,
    days: g.days,
    createdAt: instantOf(g.createdAt)!,
    createdBy: g.creatorId ? { firstName: g.firstName!, lastName: g.lastName! } : null,
  }));
}

type AdherenceDayRow = Pick<
  DailyAdherence,
  "day" | "timesPerDay" | "therapies" | "completed" | "dayAdherence" | "score" | "maxHmr"
> & { isGoalDay: number | boolean };

/** The DailyAdherence rows of fromDay..toDay, by day (days without a row are absent). */
export function readAdherenceDays(patientId: string, fromDay: string, toDay: string) {
  return readRows<AdherenceDayRow>(
    `SELECT "day", "isGoalDay", "timesPerDay", "therapies", "completed", "dayAdherence", "score",
            "maxHmr"
     FROM "DailyAdherence" WHERE "patientId" = ? AND "day" >= ? AND "day" <= ?
     ORDER BY "day"`,
    patientId,
    fromDay,
    toDay,
  ).map((r) => ({ ...r, isGoalDay: Boolean(r.isGoalDay) }));
}

/** A day of the adherence series: its day, score and highest HMR (null: none). */
export type AdherenceSeriesRow = [day: string, score: number | null, maxHmr: number | null];

/**
 * The score and HMR of each DailyAdherence row of fromDay..toDay, by day, as arrays (days without
 * a row are absent): what the range's two adherence charts draw, 730 rows over two years.
 */
export function readAdherenceSeries(patientId: string, fromDay: string, toDay: string) {
  return readValues<AdherenceSeriesRow>(
    `SELECT "day", "score", "maxHmr"
     FROM "DailyAdherence" WHERE "patientId" = ? AND "day" >= ? AND "day" <= ?
     ORDER BY "day"`,
    patientId,
    fromDay,
    toDay,
  );
}

/** Whether `pairingId` is one of the patient's pairings (a profile link's pair_id). */
export function isPairingOf(pairingId: string, patientId: string) {
  const row = readRow<{ id: string }>(
    `SELECT "id" FROM "Pairing" WHERE "id" = ? AND "patientId" = ?`,
    pairingId,
    patientId,
  );
  return row !== undefined;
}
