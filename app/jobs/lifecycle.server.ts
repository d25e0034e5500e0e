// What server.ts starts and stops around the HTTP server: database set-up, the scheduler, health
// and readiness. Every process runs the scheduler lease loop; only the lease holder runs the
// scheduled jobs, the adherence worker and the daily summary catch-up (lease.server.ts).
import { closeChatStreams } from "~/lib/chatEvents.server";
import { configureDatabase, disconnectDatabase, prisma, probeWrite } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { closeIngestDatabase } from "~/domain/devices/ingestDb.server";
import { describeTransports, usesConsoleTransport } from "~/lib/outbox.server";
import { AdherenceWorker } from "./adherenceQueue.server";
import { catchUpDailySummary } from "./dailySummary.server";
import { jobs } from "./housekeeping.server";
import { Lease, type LeaseOptions } from "./lease.server";
import { finishedMigrations, ping } from "./sql.server";
import { resumeDeadRuns, Scheduler, type RunOptions } from "./scheduler.server";

let scheduler: Scheduler | null = null;
let adherenceWorker: AdherenceWorker | null = null;
let lease: Lease | null = null;
let catchUp: Promise<unknown> | null = null;
let resuming: Promise<unknown> | null = null;
let resumeTimer: NodeJS.Timeout | null = null;
let runOptions: RunOptions = {};
let stopping = false;

/** How often the lease holder looks for runs a dead process left "running" (resumeDeadRuns). */
export const RESUME_EVERY_MS = 60_000;

const isLeader = () => lease?.held ?? false;

// When this process takes the lease (at start, or from a holder that stopped or died): work the
// adherence queue the holder may have left, and make up today's 07:00 summary if it was missed.
function takeOver() {
  if (stopping) return;
  adherenceWorker?.drain();
  // Today's 07:00 summary, if no process ran it (a no-op when it ran already).
  catchUp ??= catchUpDailySummary()
    .then((outcome) => {
      if (outcome) logger.info("daily summary catch-up", { outcome });
    })
    .catch((error) => logger.error("daily summary catch-up failed", { error }))
    .finally(() => {
      catchUp = null;
    });
  resumeDead();
}

// A run a process left "running" when it died (kill -9 mid-run) is run again by the lease holder:
// at take-over and every RESUME_EVERY_MS, once that run's own lease has lapsed.
function resumeDead() {
  if (stopping || !isLeader()) return;
  resuming ??= resumeDeadRuns(jobs, runOptions)
    .then((resumed) => {
      if (resumed.length) logger.info("resumed job runs of a process that stopped", { resumed });
    })
    .catch((error) => logger.error("resuming job runs failed", { error }))
    .finally(() => {
      resuming = null;
    });
}

export type BackgroundOptions = {
  /** false: no scheduler, worker or lease loop (the process only serves requests) */
  jobs?: boolean;
  /** the lease's timings and holder id (tests); default 30 s, renewed every 10 s */
  lease?: Pick<LeaseOptions, "ttlMs" | "renewMs" | "holder">;
  /** how often the holder looks for dead runs (tests); default RESUME_EVERY_MS */
  resumeEveryMs?: number;
  /** the timings of each job run's own lease (tests); default those of the scheduler lease */
  runs?: RunOptions;
};

export async function startBackground(options: BackgroundOptions = {}) {
  await configureDatabase();
  // Where emails and text messages go: SMTP / the HTTP SMS provider, or printed here.
  (env.deployed && usesConsoleTransport() ? logger.warn : logger.info)(describeTransports());
  if (env.demoLogKeyInProduction) {
    logger.warn("DEVICE_LOG_KEYS holds the demo key: it is for demo data and tests only");
  }
  if (env.defaultCustomerServiceEmailInProduction) {
    logger.warn(
      `CUSTOMER_SERVICE_EMAIL is not set: Help Center messages go to ${env.customerServiceEmail}`,
    );
  }
  if (env.exposeOutboxInProduction) {
    logger.warn("EXPOSE_OUTBOX=1: /dev/outbox shows sent messages, sign-in codes included");
  }
  if (options.jobs !== false && !scheduler) {
    stopping = false;
    scheduler = new Scheduler(jobs, { isLeader });
    scheduler.start();
    adherenceWorker = new AdherenceWorker(isLeader);
    adherenceWorker.start();
    runOptions = options.runs ?? {};
    lease = new Lease({ ...options.lease, onAcquire: takeOver });
    resumeTimer = setInterval(resumeDead, options.resumeEveryMs ?? RESUME_EVERY_MS);
    resumeTimer.unref();
    // The first attempt is awaited: a process that gets the lease has begun its catch-up on return.
    await lease.start();
  }
}

/**
 * Stops the jobs (waiting for runs in progress), then gives the scheduler lease up so that another
 * process takes over at its next renewal instead of after the lease's 30 s; then, unless told
 * otherwise, closes the database.
 */
export async function stopBackground(options: { disconnect?: boolean } = {}) {
  stopping = true;
  if (resumeTimer) clearInterval(resumeTimer);
  resumeTimer = null;
  await Promise.all([scheduler?.stop(), adherenceWorker?.stop(), catchUp, resuming]);
  await lease?.stop();
  scheduler = null;
  adherenceWorker = null;
  lease = null;
  if (options.disconnect !== false) {
    closeIngestDatabase();
    await disconnectDatabase();
  }
}

/** Ends the long-lived responses (chat streams) so the HTTP server can close; browsers reconnect. */
export function closeLiveStreams() {
  closeChatStreams();
}

export type Readiness = {
  ready: boolean;
  /**
   * "ok", or the error the database answered (its last line: Prisma puts the cause there), or why
   * it cannot be written ("storage full: ...", "cannot write: ...")
   */
  database: string;
  /** "ok", or the expected migrations the database has not recorded as finished */
  migrations: "ok" | { pending: string[] };
  /** leader: this process runs the jobs; standby: another does; stopped: no lease loop runs */
  scheduler: "leader" | "standby" | "stopped";
};

/**
 * Whether this process should receive traffic: the database answers and takes a write (probeWrite:
 * a full disk, a database at its size limit or a read-only one is not ready), every migration the build
 * ships (`expectedMigrations`, the folder names under prisma/migrations) is recorded as finished
 * in `_prisma_migrations`, and the background lease loop runs (as leader or standby).
 */
export async function checkReadiness(expectedMigrations: string[]): Promise<Readiness> {
  const schedulerState = !lease?.running ? "stopped" : lease.held ? "leader" : "standby";
  let database = "ok";
  let migrations: Readiness["migrations"] = "ok";
  try {
    await withinTime(ping(prisma));
    database = await withinTime(probeWrite());
  } catch (error) {
    database = errorLine(error);
  }
  if (database !== "ok") {
    migrations = { pending: [...expectedMigrations] };
  } else {
    let done = new Set<string>();
    try {
      done = new Set(await finishedMigrations(prisma));
    } catch {
      // No _prisma_migrations table: nothing was ever migrated.
    }
    const pending = expectedMigrations.filter((name) => !done.has(name));
    if (pending.length > 0) migrations = { pending };
  }
  return {
    ready: database === "ok" && migrations === "ok" && schedulerState !== "stopped",
    database,
    migrations,
    scheduler: schedulerState,
  };
}

/** A readiness check that waits longer than this fails: a stuck database is not ready either. */
const READINESS_TIMEOUT_MS = 5_000;

function withinTime<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the database did not answer within ${READINESS_TIMEOUT_MS} ms`)),
      READINESS_TIMEOUT_MS,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function errorLine(error: unknown) {
  const text = error instanceof Error ? error.message : String(error);
  return (text.trim().split("\n").at(-1) ?? text).slice(0, 200) || "error";
}
