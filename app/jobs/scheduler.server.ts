// The registry of scheduled jobs and its node-cron wiring. A tick runs its job only in the process
// that holds the scheduler lease (lease.server.ts); each run is also recorded in JobRun under a
// run key (the scheduled minute): a second process or a restart never runs the same slot twice.
// While a run is in progress its process holds the run's own lease ("run:<job>:<key>" in JobLease,
// renewed like the scheduler's): a slot still marked "running" whose lease has lapsed belongs to a
// process that died, and is run again (resumeDeadRuns, runJob) instead of being skipped for ever.
import cron, { type ScheduledTask } from "node-cron";
import { prisma } from "~/lib/db.server";
import { logger } from "~/lib/logger.server";
import { Lease, type LeaseOptions } from "./lease.server";

export type Job = {
  name: string;
  /** cron expression, evaluated in `timeZone` */
  schedule: string;
  timeZone?: string;
  run: (now: Date) => Promise<Record<string, unknown> | void>;
};

function runKey(now: Date) {
  return now.toISOString().slice(0, 16); // the minute the run belongs to
}

/** The instant of a run key: the start of its minute (UTC). */
export function slotOf(key: string) {
  return new Date(`${key}:00.000Z`);
}

/** The JobLease row a run holds while it is in progress. */
export const runLeaseName = (job: string, key: string) => `run:${job}:${key}`;

/** Timings of a run's own lease (tests shorten them); default those of the scheduler lease. */
export type RunOptions = { lease?: Pick<LeaseOptions, "ttlMs" | "renewMs" | "holder"> };

/**
 * The numbers of a job's result, for the log line of its run. Jobs return counts; anything else
 * (text that could hold a name or an address) is left out of the log, even if a job returned it.
 */
export function countsOnly(detail: Record<string, unknown> | void | undefined) {
  if (!detail) return undefined;
  const counts: Record<string, number> = {};
  for (const [key, value] of Object.entries(detail)) {
    if (typeof value === "number" && Number.isFinite(value)) counts[key] = value;
  }
  return Object.keys(counts).length ? counts : undefined;
}

type RunStatus = "succeeded" | "failed" | "skipped";

function logRun(job: Job, slot: string, status: RunStatus, started: number, detail?: unknown) {
  const fields: Record<string, unknown> = {
    job: job.name,
    slot,
    status,
    durationMs: Date.now() - started,
  };
  const counts = countsOnly(detail as Record<string, unknown> | undefined);
  if (counts) fields.detail = counts;
  (status === "failed" ? logger.error : logger.info)("job run", fields);
}

/**
 * Runs one job for one slot, unless that slot already ran or runs now in another process.
 * Exported for tests and catch-up. The run's lease is taken first: whoever holds it is the one
 * process that may run the slot. A slot recorded as "running" whose lease this process could take
 * was left by a process that died mid-run: it is run again (jobs are idempotent; the daily summary
 * sends nothing twice). Never rejects: a run that cannot even be recorded (the disk is full) is
 * logged and counts as not run.
 */
export async function runJob(job: Job, now = new Date(), options: RunOptions = {}) {
  const key = runKey(now);
  const started = Date.now();
  const where = { job_runKey: { job: job.name, runKey: key } };
  const lease = new Lease({ name: runLeaseName(job.name, key), log: false, ...options.lease });
  if (!(await lease.acquire())) {
    logRun(job, key, "skipped", started);
    return { skipped: true as const };
  }
  try {
    try {
      await prisma.jobRun.create({ data: { job: job.name, runKey: key } });
    } catch {
      const resumed = await prisma.jobRun
        .updateMany({
          where: { job: job.name, runKey: key, status: "running" },
          data: {
            detail: `resumed at ${new Date().toISOString()}: the process running it stopped`,
          },
        })
        .catch((error: unknown) => {
          logger.error("job run not recorded", { job: job.name, slot: key, error });
          return { count: 0 };
        });
      if (resumed.count === 0) {
        logRun(job, key, "skipped", started);
        return { skipped: true as const };
      }
      logger.warn("job run resumed: the process that started it stopped", {
        job: job.name,
        slot: key,
      });
    }
    await lease.start();
    let detail: Record<string, unknown> | void = undefined;
    let failure: { error: unknown } | null = null;
    try {
      detail = await job.run(now);
    } catch (error) {
      logger.error("job failed", { job: job.name, error });
      failure = { error };
    }
    try {
      await prisma.jobRun.update({
        where,
        data: failure
          ? { status: "failed", finishedAt: new Date(), detail: String(failure.error) }
          : {
              status: "succeeded",
              finishedAt: new Date(),
              detail: detail ? JSON.stringify(detail) : null,
            },
      });
    } catch (error) {
      // Left "running": once this process's lease on it lapses, the slot is run again.
      logger.error("job run outcome not recorded", { job: job.name, slot: key, error });
    }
    if (failure) {
      logRun(job, key, "failed", started);
      return { skipped: false as const, error: failure.error };
    }
    logRun(job, key, "succeeded", started, detail);
    return { skipped: false as const, detail };
  } finally {
    await lease.stop();
  }
}

/** Dead runs older than this are left alone (a person can redo them: `job <name> --force`). */
export const RESUME_WITHIN_MS = 24 * 3_600_000;

/**
 * Runs again every slot of `jobs` left "running" in the last day by a process that died: its run
 * lease has lapsed (or was never written). A run in progress anywhere keeps its lease renewed and
 * is left alone; so is one whose lease has not lapsed yet (the next call takes it).
 */
export async function resumeDeadRuns(jobs: Job[], options: RunOptions = {}) {
  const now = new Date();
  const running = await prisma.jobRun.findMany({
    where: {
      status: "running",
      job: { in: jobs.map((j) => j.name) },
      startedAt: { gte: new Date(now.getTime() - RESUME_WITHIN_MS) },
    },
    select: { job: true, runKey: true },
    orderBy: { startedAt: "asc" },
  });
  if (running.length === 0) return [];
  const live = new Set(
    (
      await prisma.jobLease.findMany({
        where: {
          name: { in: running.map((r) => runLeaseName(r.job, r.runKey)) },
          expiresAt: { gte: now },
        },
        select: { name: true },
      })
    ).map((l) => l.name),
  );
  const results = [];
  for (const r of running) {
    if (live.has(runLeaseName(r.job, r.runKey))) continue;
    const job = jobs.find((j) => j.name === r.job)!;
    results.push({ job: r.job, slot: r.runKey, ...(await runJob(job, slotOf(r.runKey), options)) });
  }
  return results;
}

export type SchedulerOptions = {
  /**
   * Whether this process may run jobs now (it holds the scheduler lease). A tick in a process
   * that may not is skipped: the holder runs that slot. Default: always.
   */
  isLeader?: () => boolean;
};

export class Scheduler {
  private tasks: ScheduledTask[] = [];
  private running = new Set<Promise<unknown>>();

  private isLeader: () => boolean;

  constructor(
    private jobs: Job[],
    options: SchedulerOptions = {},
  ) {
    this.isLeader = options.isLeader ?? (() => true);
  }

  /**
   * One cron tick of a job: runs it for the slot of `now` if this process holds the lease
   * (`{ standby: true }` when it does not). Exported for tests; cron calls it.
   */
  tick(job: Job, now = new Date()) {
    if (!this.isLeader())
      return Promise.resolve({ skipped: true as const, standby: true as const });
    const run = runJob(job, now).finally(() => this.running.delete(run));
    this.running.add(run);
    return run;
  }

  start() {
    for (const job of this.jobs) {
      const task = cron.createTask(job.schedule, () => this.tick(job), {
        name: job.name,
        timezone: job.timeZone ?? "America/Chicago",
        noOverlap: true,
      });
      void task.start();
      this.tasks.push(task);
    }
  }

  /** Stops scheduling and waits for runs in progress to finish. */
  async stop() {
    for (const task of this.tasks) await task.stop();
    this.tasks = [];
    await Promise.allSettled([...this.running]);
  }
}
