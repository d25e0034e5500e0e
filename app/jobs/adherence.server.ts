// Finalising adherence days. Runs hourly: care sites live in different zones, and each site's
// yesterday is finalised once its local clock has passed 00:05 of the new day. A day is marked
// done per care site in JobRun (job "finalise-adherence-site", runKey "<careSiteId>:<day>"), so
// a restart or a second process never redoes or skips a day; days missed while the server was
// down are caught up, at most 14 days back.
import { prisma } from "~/lib/db.server";
import { logger } from "~/lib/logger.server";
import { yesterdayInZone } from "~/lib/time";
import { finaliseDays } from "~/domain/adherence/adherence.server";
import { addDays, dayRange } from "~/domain/adherence/score";
import type { Job } from "./scheduler.server";

export const SITE_MARKER_JOB = "finalise-adherence-site";
/** A site's day is finalised once its local time has passed 00:05 of the next day. */
const FINALISE_AFTER_MS = 5 * 60_000;
/** Catch-up reaches back at most this many days (yesterday included). */
export const CATCH_UP_DAYS = 14;
/** A marker still "running" after this long belongs to a crashed run and is taken over. */
const STALE_MARKER_MS = 60 * 60_000;

const markerKey = (careSiteId: string, day: string) => `${careSiteId}:${day}`;

/** The days a care site still needs finalised as of `now`, oldest first. */
async function pendingDays(careSiteId: string, timeZone: string, now: Date) {
  const last = yesterdayInZone(new Date(now.getTime() - FINALISE_AFTER_MS), timeZone);
  await prisma.jobRun.deleteMany({
    where: {
      job: SITE_MARKER_JOB,
      runKey: { startsWith: `${careSiteId}:` },
      status: "running",
      startedAt: { lt: new Date(now.getTime() - STALE_MARKER_MS) },
    },
  });
  const done = await prisma.jobRun.findFirst({
    where: { job: SITE_MARKER_JOB, runKey: { startsWith: `${careSiteId}:` } },
    orderBy: { runKey: "desc" },
    select: { runKey: true },
  });
  const oldest = addDays(last, -(CATCH_UP_DAYS - 1));
  // A site never finalised before starts with its yesterday (rebuildAll covers history).
  const lastDone = done?.runKey.slice(careSiteId.length + 1) ?? addDays(last, -1);
  const from = addDays(lastDone, 1) > oldest ? addDays(lastDone, 1) : oldest;
  return dayRange(from, last);
}

/** Claims the days (one JobRun each); a day another process claimed first is left to it. */
async function claim(careSiteId: string, days: string[]) {
  const claimed: string[] = [];
  for (const day of days) {
    try {
      await prisma.jobRun.create({
        data: { job: SITE_MARKER_JOB, runKey: markerKey(careSiteId, day) },
      });
      claimed.push(day);
    } catch {
      // already claimed
    }
  }
  return claimed;
}

/** Finalises, for every care site, the days its local calendar has completed since the last run. */
export async function finaliseAdherence(now = new Date()) {
  const sites = await prisma.careSite.findMany({
    select: { id: true, timeZone: true },
    orderBy: { id: "asc" },
  });
  let days = 0;
  let rows = 0;
  const failed: string[] = [];
  for (const site of sites) {
    const claimed = await claim(site.id, await pendingDays(site.id, site.timeZone, now));
    if (claimed.length === 0) continue;
    const keys = claimed.map((day) => markerKey(site.id, day));
    try {
      const result = await finaliseDays(site.id, claimed[0], claimed[claimed.length - 1], now);
      await prisma.jobRun.updateMany({
        where: { job: SITE_MARKER_JOB, runKey: { in: keys } },
        data: {
          status: "succeeded",
          finishedAt: new Date(),
          detail: JSON.stringify({ patients: result.patients }),
        },
      });
      days += claimed.length;
      rows += result.rows;
    } catch (error) {
      // Release the days so that the next hourly run tries them again.
      logger.error("finalising adherence failed", { careSiteId: site.id, error });
      await prisma.jobRun.deleteMany({ where: { job: SITE_MARKER_JOB, runKey: { in: keys } } });
      failed.push(site.id);
    }
  }
  if (failed.length > 0) throw new Error(`finalising adherence failed for ${failed.join(", ")}`);
  return { sites: sites.length, days, rows };
}

export const finaliseAdherenceJob: Job = {
  name: "finalise-adherence",
  schedule: "5 * * * *",
  timeZone: "America/Chicago",
  run: (now) => finaliseAdherence(now),
};
