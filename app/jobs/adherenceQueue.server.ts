// The adherence worker: recomputes the patients ingest queued (AdherenceQueue) off the device
// API's request path. A transmission wakes it; it waits a moment so that a burst of transmissions
// is recomputed in one pass (100 patients per transaction), and never runs twice at once. It also
// drains at start (rows a stopped server left) and every minute as a safety net. Where several
// processes serve one database, only the holder of the scheduler lease works the queue (the others'
// transmissions wait for its next sweep, or its drain when it takes the lease over).
import { logger } from "~/lib/logger.server";
import { onAdherenceQueued, processAdherenceQueue } from "~/domain/adherence/adherence.server";

/** How long after a transmission the worker starts; transmissions meanwhile join the pass. */
const DELAY_MS = 200;
const SWEEP_MS = 60_000;

export class AdherenceWorker {
  private timer: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private unsubscribe: (() => void) | null = null;

  /** `isActive`: whether this process may work the queue now (it holds the scheduler lease). */
  constructor(private isActive: () => boolean = () => true) {}

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
    await this.running;
  }

  /** Works the queue now, e.g. when this process has just taken over the scheduler lease. */
  drain() {
    this.wake(0);
  }

  private wake(delay = DELAY_MS) {
    if (!this.unsubscribe || !this.isActive()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
    }, delay);
  }

  private async pass() {
    if (!this.isActive()) return;
    try {
      await processAdherenceQueue();
    } catch (error) {
      // The queue keeps the rows; the next transmission or the sweep tries again.
      logger.error("adherence queue pass failed", { error });
    }
  }
}
