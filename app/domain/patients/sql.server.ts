// The patients area's raw SQL: only where a benchmark shows it pays (docs/performance.md
// "Patient profile and PDF report"). Everything else of the area goes through Prisma's client.
import { Prisma, type Therapy } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";

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
  const [row] = await prisma.$queryRaw<{ n: bigint | number; latest: Date | number | null }[]>(
    Prisma.sql`SELECT COUNT(*) AS n, MAX(receivedAt) AS latest FROM "Transmission"
      WHERE patientId = ${patientId}`,
  );
  const latest = row?.latest instanceof Date ? row.latest.getTime() : Number(row?.latest ?? 0);
  return `${Number(row?.n ?? 0)}.${latest}`;
}
