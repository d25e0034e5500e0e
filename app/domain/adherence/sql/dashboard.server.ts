// The care-site-scoped statements the dashboards read (the care site dashboard, the daily
// notification summary), one per question. Raw for speed: docs/performance.md "Care site
// dashboard" (2,000 patients with a year of data; scripts/bench/dashboard.ts runs the same SQL
// as its floor). The site's patients drive every query (CROSS JOIN keeps them the outer loop in
// SQLite), so each one reads only those patients' rows through the (patientId, …) indexes,
// however big the tables.
import {
  Prisma,
  type DailyAdherence,
  type Membership,
  type Pairing,
  type User,
} from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { DEFAULT_TIME_ZONE, dayInZone } from "~/lib/time";
import { addDays, dayStart, MISSED_DAYS_THRESHOLD } from "../score";
import { toMs } from "./rows";

type PatientId = { patientId: Membership["userId"] };

const sitePatientsSql = (careSiteId: string) => Prisma.sql`
  SELECT userId FROM "Membership"
  WHERE careSiteId = ${careSiteId} AND role = 'patient' AND status = 'accepted'`;

/** A care site's time zone (an unknown id gets the default zone). */
export async function careSiteTimeZone(careSiteId: string) {
  const site = await prisma.careSite.findUnique({
    where: { id: careSiteId },
    select: { timeZone: true },
  });
  return site?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Instants [from, to) covering fromDay..toDay in a zone. */
function instantRange(fromDay: string, toDay: string, timeZone: string) {
  return { from: dayStart(fromDay, timeZone), to: dayStart(addDays(toDay, 1), timeZone) };
}

export type PatientScore = PatientId & Pick<DailyAdherence, "score">;

/** Every patient of the site with the score as of `day` (null: no score, shown "-"). */
export async function adherenceAsOf(careSiteId: string, day: string): Promise<PatientScore[]> {
  return prisma.$queryRaw<PatientScore[]>`
    SELECT p.userId AS patientId, da.score AS score
    FROM (${sitePatientsSql(careSiteId)}) p
    LEFT JOIN "DailyAdherence" da ON da.patientId = p.userId AND da.day = ${day}
    ORDER BY p.userId`;
}

/** Patients whose score as of `day` is below `threshold` (0.75, 0.5, 0.25). */
export async function adherenceBelow(careSiteId: string, day: string, threshold: number) {
  return prisma.$queryRaw<(PatientId & { score: NonNullable<DailyAdherence["score"]> })[]>`
    SELECT p.userId AS patientId, da.score AS score
    FROM (${sitePatientsSql(careSiteId)}) p
    JOIN "DailyAdherence" da ON da.patientId = p.userId AND da.day = ${day}
    WHERE da.score < ${threshold}
    ORDER BY p.userId`;
}

/**
 * Patients whose last `minDays` (3) goal days up to `day` all had no therapy. Walks each
 * patient's rows backwards from `day` on the primary key and stops after `minDays` goal days.
 */
export async function missedThreeOrMore(
  careSiteId: string,
  day: string,
  minDays = MISSED_DAYS_THRESHOLD,
) {
  return prisma.$queryRaw<PatientId[]>`
    SELECT p.userId AS patientId
    FROM (${sitePatientsSql(careSiteId)}) p
    WHERE (
      SELECT COUNT(*) FROM (
        SELECT da.therapies FROM "DailyAdherence" da
        WHERE da.patientId = p.userId AND da.day <= ${day} AND da.isGoalDay = 1
        ORDER BY da.day DESC LIMIT ${minDays}
      ) last WHERE last.therapies = 0
    ) = ${minDays}
    ORDER BY p.userId`;
}

/** Patients with a current pairing from whom no transmission has ever been received. */
export async function neverTransmitted(careSiteId: string) {
  return prisma.$queryRaw<PatientId[]>`
    SELECT p.userId AS patientId
    FROM (${sitePatientsSql(careSiteId)}) p
    WHERE EXISTS (SELECT 1 FROM "Pairing" pr WHERE pr.patientId = p.userId AND pr.unpairedAt IS NULL)
      AND NOT EXISTS (SELECT 1 FROM "Transmission" t WHERE t.patientId = p.userId)
    ORDER BY p.userId`;
}

/**
 * Patients whose therapy goal was changed in fromDay..toDay (site zone): a goal set in the range
 * that replaced an earlier one (the first goal, set at pairing, is not a change). `changedOn` is
 * the day of the latest such change.
 */
export async function goalsUpdated(careSiteId: string, fromDay: string, toDay: string) {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<(PatientId & { changedAt: unknown })[]>`
    SELECT g.patientId AS patientId, MAX(g.createdAt) AS changedAt
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "TherapyGoal" g ON g.patientId = p.userId AND g.createdAt >= ${from} AND g.createdAt < ${to}
    WHERE EXISTS (
      SELECT 1 FROM "TherapyGoal" e WHERE e.patientId = g.patientId
        AND (e.createdAt < g.createdAt OR (e.createdAt = g.createdAt AND e.id < g.id)))
    GROUP BY g.patientId
    ORDER BY g.patientId`;
  return rows.map((r) => ({
    patientId: r.patientId,
    changedOn: dayInZone(new Date(toMs(r.changedAt)), zone),
  }));
}

export type TransmissionStats = {
  patientId: string;
  /** transmissions sent in the range that brought at least one therapy */
  total: number;
  /** of those, the ones with a deviating therapy */
  deviating: number;
  therapies: number;
  deviatingTherapies: number;
};

/**
 * Transmissions per patient in fromDay..toDay (site zone), by the day the device sent them: a
 * transmission counts when it brought at least one new therapy, and deviates when one of its
 * therapies deviates. Only patients with such transmissions are returned. Deviation percentage =
 * deviatingTherapies / therapies (score.ts deviationShare). Reads one covering index of
 * Transmission (docs/decisions.md, "Transmissions in a range").
 */
export async function transmissionStats(
  careSiteId: string,
  fromDay: string,
  toDay: string,
): Promise<TransmissionStats[]> {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<Record<keyof TransmissionStats, unknown>[]>`
    SELECT p.userId AS patientId,
      COUNT(*) AS total,
      SUM(CASE WHEN t.deviatingTherapies > 0 THEN 1 ELSE 0 END) AS deviating,
      SUM(t.therapiesAccepted) AS therapies,
      SUM(t.deviatingTherapies) AS deviatingTherapies
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "Transmission" t ON t.patientId = p.userId
      AND t.sentAt >= ${from} AND t.sentAt < ${to} AND t.therapiesAccepted > 0
    -- Grouped by the membership's userId: the site's membership index yields it in order, so
    -- SQLite needs no temporary b-tree.
    GROUP BY p.userId
    ORDER BY p.userId`;
  return rows.map((r) => ({
    patientId: String(r.patientId),
    total: Number(r.total),
    deviating: Number(r.deviating),
    therapies: Number(r.therapies),
    deviatingTherapies: Number(r.deviatingTherapies),
  }));
}

/**
 * Patients whose device reported changed prescribed settings (a therapy adjustment) in a
 * transmission received in fromDay..toDay (site zone); `adjustedOn` is the latest such day.
 */
export async function therapyAdjustments(careSiteId: string, fromDay: string, toDay: string) {
  const zone = await careSiteTimeZone(careSiteId);
  const { from, to } = instantRange(fromDay, toDay, zone);
  const rows = await prisma.$queryRaw<
    (PatientId & { adjustments: unknown; adjustedAt: unknown })[]
  >`
    SELECT t.patientId AS patientId, COUNT(*) AS adjustments, MAX(t.receivedAt) AS adjustedAt
    FROM (${sitePatientsSql(careSiteId)}) p
    CROSS JOIN "Transmission" t ON t.patientId = p.userId AND t.receivedAt >= ${from} AND t.receivedAt < ${to}
    WHERE t.therapyAdjustment = 1
    GROUP BY t.patientId
    ORDER BY t.patientId`;
  return rows.map((r) => ({
    patientId: r.patientId,
    adjustments: Number(r.adjustments),
    adjustedOn: dayInZone(new Date(toMs(r.adjustedAt)), zone),
  }));
}

export type SitePerson = Pick<User, "id" | "firstName" | "lastName" | "photoId"> & {
  pairId: Pairing["id"] | null;
};

/**
 * The care site's patients' names, photos and current pairings, in one statement (a category
 * list can hold most of them; Prisma's relation query cost 40 ms more at 2,000 patients).
 */
export function sitePeople(careSiteId: string) {
  return prisma.$queryRaw<SitePerson[]>`
    SELECT u.id, u.firstName, u.lastName, u.photoId,
      (SELECT p.id FROM "Pairing" p WHERE p.patientId = u.id AND p.unpairedAt IS NULL LIMIT 1) AS pairId
    FROM "Membership" m JOIN "User" u ON u.id = m.userId
    WHERE m.careSiteId = ${careSiteId} AND m.role = 'patient' AND m.status = 'accepted'`;
}
