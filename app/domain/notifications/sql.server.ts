// The notifications area's raw SQL. The summary's SpO2 and deviation per patient reads the
// site's patients' therapies of a day and their cycles in one grouped statement, through the
// (patientId, startedAt) index of Therapy, like the dashboard's adherence queries
// (docs/performance.md "Care site dashboard"); Prisma's client would need a query per relation.
import { Prisma, type Cycle, type Therapy } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";

/** What the statement returns per patient: SQLite hands MIN/MAX back untyped. */
type ReadingRow = Pick<Therapy, "patientId"> & { spo2: unknown; deviation: unknown };

/**
 * Per patient of the site with a therapy that day (site zone): the lowest SpO2 reading of its
 * cycles and whether one of those therapies deviated. A therapy belongs to the day it started on,
 * as adherence counts it.
 */
export async function therapyReadings(careSiteId: string, from: number, to: number) {
  const rows = await prisma.$queryRaw<ReadingRow[]>(
    Prisma.sql`
      SELECT th.patientId AS patientId, MIN(c.spo2) AS spo2, MAX(th.deviates) AS deviation
      FROM "Membership" m
      CROSS JOIN "Therapy" th ON th.patientId = m.userId
        AND th.startedAt >= ${from} AND th.startedAt < ${to}
      LEFT JOIN "Cycle" c ON c.therapyId = th.id
      WHERE m.careSiteId = ${careSiteId} AND m.role = 'patient' AND m.status = 'accepted'
      GROUP BY th.patientId`,
  );
  return new Map(
    rows.map((r) => [
      r.patientId!,
      {
        spo2: r.spo2 === null ? null : (Number(r.spo2) as Cycle["spo2"]),
        deviation: Number(r.deviation) === 1,
      },
    ]),
  );
}
