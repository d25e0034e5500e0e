// The registry of scheduled jobs and its node-cron wiring. Each run is recorded in JobRun under a
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

/** Runs one job for one slot, unless that slot already ran. Exported for tests and catch-up. */
export async function runJob(job: Job, now = new Date()) {
  const key = runKey(now);
  try {
    await prisma.jobRun.create({ data: { job: job.name, runKey: key } });
  } catch {
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
    return { skipped: false as const, detail };
  } catch (error) {
    logger.error("job failed", { job: job.name, error });
    await prisma.jobRun.update({
      where: { job_runKey: { job: job.name, runKey: key } },
      data: { status: "failed", finishedAt: new Date(), detail: String(error) },
    });
    return { skipped: false as const, error };
  }
}

export class Scheduler {
  private tasks: ScheduledTask[] = [];
  private running = new Set<Promise<unknown>>();

  constructor(private jobs: Job[]) {}

  start() {
    for (const job of this.jobs) {
      const task = cron.createTask(
        job.schedule,
        () => {
          const run = runJob(job).finally(() => this.running.delete(run));
          this.running.add(run);
          return run;
        },
        { name: job.name, timezone: job.timeZone ?? "America/Chicago", noOverlap: true },
      );
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
