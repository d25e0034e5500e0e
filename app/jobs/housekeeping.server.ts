import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { deliverPending } from "~/lib/outbox.server";
import { purgeExpiredLogFiles } from "~/domain/deviceLogs/deviceLog.server";
import { purgeOldDeviceStats } from "~/domain/deviceStats/deviceStats.server";
import { finaliseAdherenceJob } from "./adherence.server";
import { dailySummaryJob } from "./dailySummary.server";
import type { Job } from "./scheduler.server";
import { optimizeQueryPlanner } from "./sql.server";

const DAY_MS = 24 * 3_600_000;

/** Removes expired and revoked sessions, spent one-time codes and stale throttles. */
export const purgeExpired: Job = {
  name: "purge-expired",
  schedule: "*/10 * * * *",
  async run(now) {
    const sessions = await prisma.session.deleteMany({
      where: { OR: [{ expiresAt: { lt: now } }, { revokedAt: { not: null } }] },
    });
    const codes = await prisma.oneTimeCode.deleteMany({
      where: { expiresAt: { lt: new Date(now.getTime() - DAY_MS) } },
    });
    const throttles = await prisma.authThrottle.deleteMany({
      where: {
        windowStartsAt: { lt: new Date(now.getTime() - DAY_MS) },
        OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }],
      },
    });
    const jobRuns = await prisma.jobRun.deleteMany({
      where: { startedAt: { lt: new Date(now.getTime() - 30 * DAY_MS) } },
    });
    return {
      sessions: sessions.count,
      codes: codes.count,
      throttles: throttles.count,
      jobRuns: jobRuns.count,
    };
  },
};

/**
 * Retries outbox messages whose delivery failed once their backoff has passed, and marks
 * deliveries interrupted by a crash failed (never sent twice).
 */
export const deliverOutbox: Job = {
  name: "deliver-outbox",
  schedule: "* * * * *",
  run: (now) => deliverPending(now),
};

/** Deletes device log uploads 24 hours after they arrived, and any upload a crash left behind. */
export const purgeDeviceLogs: Job = {
  name: "purge-device-logs",
  schedule: "*/5 * * * *",
  run: (now) => purgeExpiredLogFiles(now),
};

/** Deletes device performance records older than DEVICE_STATS_RETENTION_DAYS (default 90). */
export const purgeDeviceStats: Job = {
  name: "purge-device-stats",
  schedule: "30 3 * * *",
  async run(now) {
    const deleted = await purgeOldDeviceStats(env.deviceStatsRetentionDays, now);
    // Keeps the query planner's statistics current (SQLite's advice for long-lived connections),
    // so the device statistics queries keep choosing their indexes as the table grows.
    await optimizeQueryPlanner(prisma);
    return { deleted };
  },
};

export const jobs: Job[] = [
  purgeExpired,
  deliverOutbox,
  finaliseAdherenceJob,
  purgeDeviceLogs,
  dailySummaryJob,
  purgeDeviceStats,
];
