// A lease in the JobLease table: when two processes serve one database (a rolling restart, a second
// instance), only the holder of the "scheduler" lease runs the scheduled jobs, the adherence worker
// and the catch-up. The holder renews it every 10 s for 30 s; if the holder dies, another process
// takes over once the 30 s have passed; a holder that stops deletes it so the next takes over at once.
// JobRun's (job, runKey) rows stay a second guard: a slot never runs twice even if leases overlap.
import crypto from "node:crypto";
import os from "node:os";
import type { PrismaClient } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { logger } from "~/lib/logger.server";
import { takeLeaseIfFree } from "./sql.server";

export const SCHEDULER_LEASE = "scheduler";
/** How long a lease lasts unless renewed: how long a dead holder's jobs wait for a successor. */
export const LEASE_TTL_MS = 30_000;
/** How often the loop renews (or tries to take) the lease: two renewals may fail before it lapses. */
export const LEASE_RENEW_MS = 10_000;

/** hostname:pid:random, unique per process start even when containers reuse pids. */
export function leaseHolderId() {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;
}

type Executor = Pick<PrismaClient, "$executeRaw" | "jobLease">;

export type LeaseOptions = {
  name?: string;
  holder?: string;
  ttlMs?: number;
  renewMs?: number;
  /** the clock (tests) */
  now?: () => number;
  /** the database connection (tests use a second one); default the process's Prisma client */
  db?: Executor;
  /** called when this process starts to hold the lease (first acquisition or a take-over) */
  onAcquire?: () => void;
  /** false: no log line when the lease is taken or lost (a job run's own lease, many a minute) */
  log?: boolean;
};

export class Lease {
  readonly name: string;
  readonly holder: string;
  private readonly ttlMs: number;
  private readonly renewMs: number;
  private readonly now: () => number;
  private readonly db: Executor;
  private readonly onAcquire: () => void;
  private readonly log: boolean;
  /** The expiry this process last wrote; 0 when it does not hold the lease. */
  private heldUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private pending: Promise<boolean> | null = null;

  constructor(options: LeaseOptions = {}) {
    this.name = options.name ?? SCHEDULER_LEASE;
    this.holder = options.holder ?? leaseHolderId();
    this.ttlMs = options.ttlMs ?? LEASE_TTL_MS;
    this.renewMs = options.renewMs ?? LEASE_RENEW_MS;
    this.now = options.now ?? Date.now;
    this.db = options.db ?? prisma;
    this.onAcquire = options.onAcquire ?? (() => {});
    this.log = options.log ?? true;
  }

  /**
   * True while this process holds the lease: its last renewal succeeded and the expiry it wrote has
   * not passed (a process whose renewals fail stops working before another may take over).
   */
  get held() {
    return this.heldUntil > this.now();
  }

  /** True while the renewal loop runs (holding the lease or standing by). */
  get running() {
    return this.timer !== null;
  }

  /**
   * Takes the lease if it is free or expired, or renews it if this process holds it, in one
   * statement (SQLite runs it atomically, so two processes can never both succeed), and returns
   * whether this process now holds it. A database error counts as not renewed.
   */
  acquire(): Promise<boolean> {
    // One attempt at a time: the loop and a caller never race each other.
    this.pending ??= this.attempt().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async attempt() {
    const wasHeld = this.held;
    const now = this.now();
    const expiresAt = now + this.ttlMs;
    let changed = 0;
    try {
      changed = await takeLeaseIfFree(
        this.db,
        { name: this.name, holder: this.holder, expiresAt: new Date(expiresAt) },
        new Date(now),
      );
    } catch (error) {
      logger.error("job lease renewal failed", { lease: this.name, error });
      return this.held;
    }
    this.heldUntil = changed > 0 ? expiresAt : 0;
    if (this.held && !wasHeld) {
      if (this.log)
        logger.info("job lease acquired: this process runs the scheduled jobs", {
          lease: this.name,
          holder: this.holder,
        });
      try {
        this.onAcquire();
      } catch (error) {
        logger.error("job lease acquire hook failed", { lease: this.name, error });
      }
    } else if (!this.held && wasHeld && this.log) {
      logger.warn("job lease lost to another process", { lease: this.name, holder: this.holder });
    }
    return this.held;
  }

  /** Tries to take the lease now, then renews (or keeps trying) every renewMs. */
  async start() {
    if (this.timer) return;
    this.timer = setInterval(() => void this.acquire(), this.renewMs);
    this.timer.unref();
    await this.acquire();
  }

  /** Stops renewing and gives the lease up, so another process takes over at its next attempt. */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pending;
    await this.release();
  }

  /** Deletes the lease row if this process holds it (someone else's row is left alone). */
  async release() {
    this.heldUntil = 0;
    try {
      await this.db.jobLease.deleteMany({ where: { name: this.name, holder: this.holder } });
    } catch (error) {
      // It lapses by itself after the TTL.
      logger.error("job lease release failed", { lease: this.name, error });
    }
  }
}
