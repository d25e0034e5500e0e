// The daily notification summary as a scheduled job: 07:00 America/Chicago every day (node-cron
// evaluates the expression in that zone, so it stays at 07:00 local across DST changes); each care
// site gets its summary only on the weekdays it selects (domain/notifications/dailySummary.server.ts).
// The scheduler, the catch-up at start and `npm run job` all go through runJob with this job.
import {
  summaryDayOf,
  summaryRunAt,
  runDailySummary,
} from "~/domain/notifications/dailySummary.server";
import { runJob, type Job } from "./scheduler.server";

export { summaryRunAt };

export const dailySummaryJob: Job = {
  name: "daily-summary",
  schedule: "0 7 * * *",
  timeZone: "America/Chicago",
  run: runDailySummary,
};

/** True once 07:00 Chicago of the current Chicago day has passed: a missed run can be caught up. */
export function summaryDue(now: Date) {
  return now.getTime() >= summaryRunAt(summaryDayOf(now)).getTime();
}

/**
 * The catch-up at start: a run missed while the server was down is made up the same (Chicago)
 * day. Runs nothing before 07:00. Harmless when today's run already happened: care sites archived
 * for the day are skipped, nothing is sent twice.
 */
export async function catchUpDailySummary(now = new Date()) {
  if (!summaryDue(now)) return null;
  return runJob(dailySummaryJob, now);
}
