// Deterministic randomness: every choice of the demo world comes from a stream seeded by a label,
// so each patient and device has its own and the world is the same on every run.
const SEED = 20261121;

/** FNV-1a: turns a label into a 32-bit seed, mixed with the world's seed. */
function seedOf(label: string, seed: number) {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h ^ seed) >>> 0;
}

export class Rng {
  private a: number;
  /** `seed`: the demo world's by default; scripts/world draws other worlds from other seeds. */
  constructor(label: string, seed = SEED) {
    this.a = seedOf(label, seed);
  }
  /** mulberry32 */
  next() {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** integer in [min, max] */
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  float(min: number, max: number) {
    return min + this.next() * (max - min);
  }
  chance(p: number) {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

export const round1 = (x: number) => Math.round(x * 10) / 10;
