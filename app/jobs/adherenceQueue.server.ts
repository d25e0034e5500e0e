// The adherence worker: recomputes the patients ingest queued (AdherenceQueue) off the device
// API's request path. A transmission wakes it; it waits until transmissions pause for a moment, so
// that a burst is recomputed in few passes (100 patients per transaction), and never runs twice at
// once. A patient's recompute runs from its earliest queued day to today whatever came since, so
// a pass that waits for more transmissions does the work of many for the price of one: during a
// sustained burst it runs every MAX_WAIT_MS instead of after every few transmissions, and its cost
// per transmission falls as the burst grows instead of competing with the device API for the main
// thread and the write lock. It also drains at start (rows a stopped server left) and every minute
// as a safety net. Where several processes serve one database, only the holder of the scheduler
// lease works the queue (the others' transmissions wait for its next sweep, or its drain when it
// takes the lease over).
import { logger } from "~/lib/logger.server";
import { onAdherenceQueued, processAdherenceQueue } from "~/domain/adherence/adherence.server";

/** A pass starts once no transmission came for this long... */
const QUIET_MS = 200;
/** ...or this long after the first transmission it has not worked yet, whichever comes first. */
const MAX_WAIT_MS = 2_000;
const SWEEP_MS = 60_000;

export class AdherenceWorker {
  private timer: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** when the first transmission not yet worked woke the worker, and when the latest did */
  private firstWakeAt: number | null = null;
  private lastWakeAt = 0;
  private unsubscribe: (() => void) | null = null;

  /**
   * `isActive`: whether this process may work the queue now (it holds the scheduler lease);
   * `work`: one pass (tests count them).
   */
  constructor(
    private isActive: () => boolean = () => true,
    private work: () => Promise<unknown> = processAdherenceQueue,
  ) {}

  start() {
    this.unsubscribe = onAdherenceQueued(() => this.wake());
    this.sweep = setInterval(() => this.wake(0), SWEEP_MS);
    this.sweep.unref();
    this.wake(0);
  }

  /** Stops waking and waits for a pass in progress; what is still queued stays for next start. */
  async stop() {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.sweep) clearInterval(this.sweep);
    if (this.timer) clearTimeout(this.timer);
    this.sweep = this.timer = null;
    this.again = false;
    this.firstWakeAt = null;
    await this.running;
  }

  /** Works the queue now, e.g. when this process has just taken over the scheduler lease. */
  drain() {
    this.wake(0);
  }

  /** `quiet`: how long transmissions must pause before the pass (0: start it now). */
  private wake(quiet = QUIET_MS) {
    if (!this.unsubscribe || !this.isActive()) return;
    const now = Date.now();
    this.firstWakeAt ??= now;
    this.lastWakeAt = now;
    if (this.running) {
      this.again = true;
      return;
    }
    if (quiet === 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.startPass();
      return;
    }
    if (!this.timer) this.arm(quiet);
  }

  /** Fires when transmissions have paused for `quiet`, or the oldest has waited MAX_WAIT_MS. */
  private arm(quiet: number) {
    const due = Math.min(this.lastWakeAt + quiet, (this.firstWakeAt ?? 0) + MAX_WAIT_MS);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        // Transmissions kept coming: wait on, unless the oldest has waited long enough.
        if (Date.now() < Math.min(this.lastWakeAt + quiet, (this.firstWakeAt ?? 0) + MAX_WAIT_MS)) {
          this.arm(quiet);
          return;
        }
        this.startPass();
      },
      Math.max(0, due - Date.now()),
    );
  }

  private startPass() {
    if (this.running) return;
    this.firstWakeAt = null;
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async pass() {
    if (!this.isActive()) return;
    try {
      await this.work();
    } catch (error) {
      // The queue keeps the rows; the next transmission or the sweep tries again.
      logger.error("adherence queue pass failed", { error });
    }
  }
}
