// What server.ts starts and stops around the HTTP server: database set-up, the scheduler, health.
import { closeChatStreams } from "~/lib/chatEvents.server";
import { configureDatabase, disconnectDatabase, prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { closeIngestDatabase } from "~/models/ingest.server";
import { describeTransports, usesConsoleTransport } from "~/lib/outbox.server";
import { AdherenceWorker } from "./adherenceQueue.server";
import { catchUpDailySummary } from "./dailySummary.server";
import { jobs } from "./housekeeping.server";
import { Scheduler } from "./scheduler.server";

let scheduler: Scheduler | null = null;
let adherenceWorker: AdherenceWorker | null = null;
let catchUp: Promise<unknown> | null = null;

export async function startBackground(options: { jobs?: boolean } = {}) {
  await configureDatabase();
  // Where emails and text messages go: SMTP / the HTTP SMS provider, or printed here.
  (env.isProduction && usesConsoleTransport() ? logger.warn : logger.info)(describeTransports());
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
    scheduler = new Scheduler(jobs);
    scheduler.start();
    adherenceWorker = new AdherenceWorker();
    adherenceWorker.start();
    // Today's 07:00 summary, if the server was down then (a no-op when it ran already).
    catchUp = catchUpDailySummary()
      .then((outcome) => {
        if (outcome) logger.info("daily summary catch-up at start", { outcome });
      })
      .catch((error) => logger.error("daily summary catch-up failed", { error }))
      .finally(() => {
        catchUp = null;
      });
  }
}

export async function stopBackground(options: { disconnect?: boolean } = {}) {
  await Promise.all([scheduler?.stop(), adherenceWorker?.stop(), catchUp]);
  scheduler = null;
  adherenceWorker = null;
  if (options.disconnect !== false) {
    closeIngestDatabase();
    await disconnectDatabase();
  }
}

/** Ends the long-lived responses (chat streams) so the HTTP server can close; browsers reconnect. */
export function closeLiveStreams() {
  closeChatStreams();
}

export async function checkHealth() {
  const started = Date.now();
  await prisma.$queryRawUnsafe("SELECT 1");
  return { database: "ok", databaseMs: Date.now() - started };
}
