// The registry of scheduled jobs and its node-cron wiring. A tick runs its job only in the process
// that holds the scheduler lease (lease.server.ts); each run is also recorded in JobRun under a
// run key (the scheduled minute): a second process or a restart never runs the same slot twice.
import cron, { type ScheduledTask } from "node-cron";
import { prisma } from "~/lib/db.server";
import { logger } from "~/lib/logger.server";

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

/** Runs one job for one slot, unless that slot already ran. Exported for tests and catch-up. */
export async function runJob(job: Job, now = new Date()) {
  const key = runKey(now);
  const started = Date.now();
  try {
    await prisma.jobRun.create({ data: { job: job.name, runKey: key } });
  } catch {
    logRun(job, key, "skipped", started);
    return { skipped: true as const };
  }
  try {
    const detail = await job.run(now);
    await prisma.jobRun.update({
      where: { job_runKey: { job: job.name, runKey: key } },
      data: {
        status: "succeeded",
        finishedAt: new Date(),
        detail: detail ? JSON.stringify(detail) : null,
      },
    });
    logRun(job, key, "succeeded", started, detail);
    return { skipped: false as const, detail };
  } catch (error) {
    logger.error("job failed", { job: job.name, error });
    await prisma.jobRun.update({
      where: { job_runKey: { job: job.name, runKey: key } },
      data: { status: "failed", finishedAt: new Date(), detail: String(error) },
    });
    logRun(job, key, "failed", started);
    return { skipped: false as const, error };
  }
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
      task.start();
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
