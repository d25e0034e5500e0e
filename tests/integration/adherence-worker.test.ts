// The adherence worker's timing (app/jobs/adherenceQueue.server.ts): a pass waits for transmissions
// to pause, but not for ever, so a sustained burst of ingest is recomputed every MAX_WAIT_MS rather
// than after every few transmissions. Fake timers and clock; the pass is a counter.
import { afterEach, describe, expect, it, vi } from "vitest";
import { notifyAdherenceQueued } from "~/domain/adherence/adherence.server";
import { AdherenceWorker } from "~/jobs/adherenceQueue.server";

afterEach(() => {
  vi.useRealTimers();
});

function countedWorker() {
  const passes: number[] = [];
  const worker = new AdherenceWorker(
    () => true,
    async () => {
      passes.push(Date.now());
    },
  );
  return { worker, passes };
}

describe("the adherence worker", () => {
  it("waits until transmissions pause for 200 ms, then works them in one pass", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] }); // prettier-ignore
    const { worker, passes } = countedWorker();
    worker.start();
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(passes).toHaveLength(1); // the drain at start
      for (let i = 0; i < 5; i++) {
        notifyAdherenceQueued();
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(passes).toHaveLength(1); // still coming: no pass yet
      await vi.advanceTimersByTimeAsync(100);
      expect(passes).toHaveLength(2); // 200 ms after the last one
      await vi.advanceTimersByTimeAsync(5_000);
      expect(passes).toHaveLength(2);
    } finally {
      await worker.stop();
    }
  });

  it("under a sustained burst, passes every 2 s: not after every few transmissions, not never", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] }); // prettier-ignore
    const { worker, passes } = countedWorker();
    worker.start();
    try {
      await vi.advanceTimersByTimeAsync(0);
      passes.length = 0;
      const start = Date.now();
      // A transmission every 50 ms for 7 s.
      for (let i = 0; i < 140; i++) {
        notifyAdherenceQueued();
        await vi.advanceTimersByTimeAsync(50);
      }
      expect(passes.map((at) => at - start)).toEqual([2_000, 4_000, 6_000]);
      await vi.advanceTimersByTimeAsync(250);
      expect(passes).toHaveLength(4); // the pause after the burst
    } finally {
      await worker.stop();
    }
  });
});
