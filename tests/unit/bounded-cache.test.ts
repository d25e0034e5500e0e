import { describe, expect, it } from "vitest";
import { approximateBytes, BoundedCache } from "~/lib/boundedCache";

const days = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ day: `2026-01-${i}`, peak: i + 0.5, cycles: i }));

describe("BoundedCache", () => {
  it("keeps at most maxEntries, the least recently used leaving first", () => {
    const cache = new BoundedCache<number>({ maxEntries: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([1, undefined, 3]);
  });

  it("bounded by bytes with approximateBytes: a few big entries or many small ones", () => {
    const cache = new BoundedCache<unknown>({ maxEntries: 1_000, maxWeight: 200_000 }, approximateBytes); // prettier-ignore
    for (let i = 0; i < 100; i++) cache.set(`small-${i}`, days(7));
    expect(cache.size).toBe(100);
    for (let i = 0; i < 10; i++) cache.set(`big-${i}`, days(730));
    expect(cache.totalWeight).toBeLessThanOrEqual(200_000);
    expect(cache.size).toBeLessThan(10);
    expect(cache.get("big-9")).toHaveLength(730);
    // Larger than the whole bound: not kept at all.
    cache.set("huge", days(5_000));
    expect(cache.get("huge")).toBeUndefined();
  });
});

describe("approximateBytes", () => {
  it("grows with what a value holds", () => {
    expect(approximateBytes(days(730))).toBeGreaterThan(approximateBytes(days(7)) * 50);
    expect(approximateBytes("x".repeat(10_000))).toBeGreaterThanOrEqual(10_000);
    expect(approximateBytes(new Map([["k", days(10)]]))).toBeGreaterThan(approximateBytes(days(10))); // prettier-ignore
  });

  it("counts a shared object once and ends on a cycle", () => {
    const shared = days(100);
    expect(approximateBytes([shared, shared])).toBeLessThan(approximateBytes([shared, days(100)]));
    const node: { next?: unknown } = {};
    node.next = node;
    expect(approximateBytes(node)).toBeGreaterThan(0);
  });
});
