// Runs a scheduled job by hand, through the same runJob the scheduler uses (one code path):
//
//   npm run job -- <name> [--date YYYY-MM-DD] [--force]
//
// --date runs it "as if at 07:00 America/Chicago on that day" (for the daily summary: that day's
// run, covering the day before). runJob records each run in JobRun under its minute, so a slot
// that already ran is not run again: this prints that run's record and does nothing; --force
// removes that record first and runs the slot again (jobs are idempotent: the daily summary then
// sends nothing for a care site and day already archived). A slot still running in another process
// (its run lease is renewed) is not forced; one left "running" by a process that died (its run
// lease lapsed, at most 30 s after it died) is run again, with or without --force.
// Unknown name: lists the jobs, exits 2.
// Uses the app's database (DATA_DIR, like the server) and applies pending migrations first.
// Emails a run queues are sent by the server's deliver-outbox job (every minute).
import { parseArgs } from "node:util";
import { configureDatabase, prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { applyMigrations, migrationsDir, readMigrations } from "~/lib/migrate.server";
import { formatDay } from "~/lib/time";
import { dailySummaryJob } from "~/jobs/dailySummary.server";
import { jobs } from "~/jobs/housekeeping.server";
import { runJob, runLeaseName } from "~/jobs/scheduler.server";
import { summaryDayOf, summaryRunAt, weekdayOfDay } from "~/domain/notifications/dailySummary.server";
import { exitCodeOf, UsageError } from "./command";

const USAGE = `Usage: npm run job -- <name> [--date YYYY-MM-DD] [--force]
  (release binary: arc-connect job <name> [--date YYYY-MM-DD] [--force])
Jobs: ${jobs.map((j) => j.name).join(", ")}`;

/** The key runJob records a slot under (scheduler.server.ts): its minute, in UTC. */
const slotKey = (now: Date) => now.toISOString().slice(0, 16);

function parseDate(value: string) {
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
    formatDay(value, "yyyy-MM-dd") === value;
  if (!valid) throw new UsageError(`--date needs a calendar day YYYY-MM-DD, not "${value}".`);
  if (value > summaryDayOf(new Date())) {
    throw new UsageError(`--date ${value} is in the future (Chicago time): nothing to run yet.`);
  }
  return value;
}

function describeDailySummary(now: Date, detail: Record<string, unknown>) {
  const today = summaryDayOf(now);
  const { careSites, emails, skipped } = detail as Record<string, number>;
  const weekday = weekdayOfDay(today);
  return [
    `Daily summary of ${today} (${weekday}): ${careSites} care site(s) select ${weekday}.`,
    `${careSites - skipped} archived now, ${emails} email(s) queued (the server's deliver-outbox job sends them).`,
    skipped
      ? `${skipped} had their summary for that day already: nothing was sent to them again.`
      : "",
  ]
    .filter(Boolean)
    .join("\n");
}

async function run(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: { date: { type: "string" }, force: { type: "boolean" } },
    allowPositionals: true,
    strict: true,
  });
  const [name, ...rest] = positionals;
  if (rest.length) throw new UsageError(`Unexpected argument: ${rest[0]}`);
  const job = jobs.find((j) => j.name === name);
  if (!job) throw new UsageError(name ? `Unknown job: ${name}` : "No job named.");
  const now = values.date ? summaryRunAt(parseDate(values.date)) : new Date();
  const key = slotKey(now);

  applyMigrations(env.databaseFile, readMigrations(migrationsDir()));
  await configureDatabase();

  const earlier = () =>
    prisma.jobRun.findUnique({ where: { job_runKey: { job: job.name, runKey: key } } });
  if (values.force) {
    const record = await earlier();
    if (record?.status === "running") {
      const lease = await prisma.jobLease.findUnique({
        where: { name: runLeaseName(job.name, key) },
      });
      if (lease && lease.expiresAt.getTime() >= Date.now()) {
        console.error(
          `${job.name}: slot ${key}Z is running since ${record.startedAt.toISOString()} in another process (${lease.holder}), which renews its lease: not forced.`,
        );
        return 1;
      }
    }
    if (record) {
      await prisma.jobRun.delete({ where: { id: record.id } });
      console.log(
        `${job.name}: removed the earlier record of slot ${key}Z (${record.status}, started ${record.startedAt.toISOString()}).`,
      );
    }
  }

  console.log(`${job.name}: running slot ${key}Z (${now.toISOString()}).`);
  const result = await runJob(job, now);
  if (result.skipped) {
    const record = await earlier();
    console.log(
      [
        `${job.name}: slot ${key}Z already ran, so nothing was done now.`,
        record
          ? `That run: ${record.status}, started ${record.startedAt.toISOString()}` +
            (record.finishedAt ? `, finished ${record.finishedAt.toISOString()}` : "") +
            (record.detail ? `; ${record.detail}` : "")
          : "",
        "Run it again with --force to redo the slot (jobs are idempotent).",
      ]
        .filter(Boolean)
        .join("\n"),
    );
    return 0;
  }
  if ("error" in result && result.error) {
    console.error(`${job.name}: failed: ${String(result.error)}`);
    return 1;
  }
  const detail = (result.detail ?? {}) as Record<string, unknown>;
  console.log(`${job.name}: done: ${JSON.stringify(detail)}`);
  if (job === dailySummaryJob) console.log(describeDailySummary(now, detail));
  return 0;
}

/** Runs `<name> [--date] [--force]`; resolves to the process exit code (2: usage, 1: failed). */
export function jobCommand(args: string[]) {
  return exitCodeOf(() => run(args), USAGE);
}

if (/[\\/]scripts[\\/]job(\.ts)?$/.test(process.argv[1] ?? "")) {
  void jobCommand(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
