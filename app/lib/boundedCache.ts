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
