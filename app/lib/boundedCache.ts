// A least-recently-used map bounded by entries and by weight (e.g. string length): what the
// process keeps to avoid redoing work stays small however many patients and ranges are viewed.
// Keys must name everything the value depends on (callers put a data version or a content hash
// in them), so an entry is never stale: it is only ever evicted.

export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxWeight?: number },
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size() {
    return this.entries.size;
  }

  get totalWeight() {
    return this.weight;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V) {
    const weight = this.weigh(value);
    const maxWeight = this.limits.maxWeight ?? Infinity;
    this.delete(key);
    if (weight > maxWeight) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.weight <= maxWeight) break;
      this.delete(oldest);
    }
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  clear() {
    this.entries.clear();
    this.weight = 0;
  }

  /** The cached value, else `make()`'s, kept. */
  getOrSet(key: string, make: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = make();
    this.set(key, value);
    return value;
  }
}

/**
 * About how many bytes of V8 heap a value holds (strings, numbers, dates, arrays, plain objects,
 * maps and sets, walked once each): a weigher for a BoundedCache bounded by bytes
 * (`new BoundedCache({ maxEntries, maxWeight: 8_000_000 }, approximateBytes)`), whose entries
 * differ in size by orders of magnitude (one day's reads or two years'). An estimate by V8's
 * layout on 64 bits (pointer-compressed fields are smaller, headers larger), not a measure.
 */
export function approximateBytes(value: unknown): number {
  const seen = new Set<object>();
  const walk = (v: unknown): number => {
    if (v === null || v === undefined || typeof v === "boolean") return 0;
    if (typeof v === "number") return Number.isInteger(v) ? 0 : 16; // small ints live in the slot
    if (typeof v === "bigint") return 24;
    if (typeof v === "string") return 16 + v.length;
    if (typeof v !== "object") return 16;
    if (seen.has(v)) return 0;
    seen.add(v);
    if (v instanceof Date) return 32;
    if (ArrayBuffer.isView(v)) return 64 + v.byteLength;
    if (v instanceof Map) {
      let bytes = 64 + 24 * v.size;
      for (const [k, item] of v) bytes += walk(k) + walk(item);
      return bytes;
    }
    if (v instanceof Set) {
      let bytes = 64 + 16 * v.size;
      for (const item of v) bytes += walk(item);
      return bytes;
    }
    if (Array.isArray(v)) {
      let bytes = 32 + 8 * v.length;
      for (const item of v) bytes += walk(item);
      return bytes;
    }
    let bytes = 24;
    for (const key of Object.keys(v)) bytes += 8 + walk((v as Record<string, unknown>)[key]);
    return bytes;
  };
  return walk(value);
}
