// A bound on work in flight: at most `size` tasks at once, the others wait in order (device-log
// decrypts and reads, page renders: docs/decisions.md "Memory budget").

/**
 * At most `size` tasks at once; the others wait in order, at most `queue` of them (beyond that
 * `run` rejects with QueueFull rather than let waiters pile up).
 */
export function createLimiter(size: number, queue: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= size) {
        if (waiting.length >= queue) throw new QueueFull();
        // The slot is handed over by the task that ends (running stays as it is).
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running += 1;
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
    get busy() {
      return { running, waiting: waiting.length };
    },
  };
}

export class QueueFull extends Error {
  constructor() {
    super("too many tasks waiting");
    this.name = "QueueFull";
  }
}
