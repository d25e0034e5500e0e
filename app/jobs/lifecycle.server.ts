// What server.ts starts and stops around the HTTP server: database set-up, the scheduler, health.
import { configureDatabase, disconnectDatabase, prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { jobs } from "./housekeeping.server";
import { Scheduler } from "./scheduler.server";

let scheduler: Scheduler | null = null;

export async function startBackground(options: { jobs?: boolean } = {}) {
  await configureDatabase();
  logger.info(
    "No SMTP or SMS provider configured: emails and text messages (sign-in codes too) are printed here and kept in the outbox table.",
  );
  if (env.exposeOutboxInProduction) {
    logger.warn("EXPOSE_OUTBOX=1: /dev/outbox shows sent messages, sign-in codes included");
  }
  if (options.jobs !== false && !scheduler) {
    scheduler = new Scheduler(jobs);
    scheduler.start();
  }
}

export async function stopBackground(options: { disconnect?: boolean } = {}) {
  await scheduler?.stop();
  scheduler = null;
  if (options.disconnect !== false) await disconnectDatabase();
}

export async function checkHealth() {
  const started = Date.now();
  await prisma.$queryRawUnsafe("SELECT 1");
  return { database: "ok", databaseMs: Date.now() - started };
}
