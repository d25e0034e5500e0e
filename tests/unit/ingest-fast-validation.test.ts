// The fast path of a transmission's validation (app/domain/devices/schema.ts fastTransmission): a
// body it accepts skips zod, so it may accept only what the zod schema accepts, with the same
// data; everything else goes to zod, whose answer (and error texts, DEVICE-API.md) is unchanged.
// Checked on the contract's bodies and on every field of one body broken in many ways.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  EARLIEST_DEVICE_TIME,
  fastTransmission,
  fieldErrors,
  MAX_CYCLES,
  parseTransmission,
  transmissionSchema,
} from "~/domain/devices/schema";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";

afterEach(() => {
  vi.restoreAllMocks();
});

const cycle = (n: number) => ({ n, P_IP: 38, E_V: 1200, P_F: 250, SPO2: 96, O_F: 1 });

function body(): Record<string, any> {
  return {
    sentAt: "2026-11-20T23:10:00Z",
    hmr: 1234.5,
    prescription: { ...STANDARD_PRESCRIPTION },
    therapies: [1, 2].map((i) => ({
      eventId: `T-${i}`,
      startedAt: "2026-11-20T14:00:00Z",
      mode: "Auto",
      delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
      cycles: [1, 2, 3, 4, 5].map(cycle),
    })),
  };
}

/** What zod alone answers (the behaviour before the fast path). */
function zodOnly(input: unknown) {
  const result = transmissionSchema.safeParse(input);
  return result.success
    ? { ok: true as const, data: result.data }
    : { ok: false as const, errors: fieldErrors(result.error) };
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Every path to a value in `value` (objects and arrays walked). */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => paths(v, [...at, i]))];
  if (value && typeof value === "object")
    return [at, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))];
  return [at];
}

function setAt(root: any, path: (string | number)[], value: unknown, remove = false) {
  const parent = path.slice(0, -1).reduce((o, k) => o[k], root);
  const key = path[path.length - 1];
  if (remove) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = value;
}

const REPLACEMENTS: unknown[] = [
  null,
  true,
  "1",
  "",
  "x".repeat(65),
  "Auto",
  "Manual",
  "auto",
  0,
  1,
  -1,
  2,
  0.5,
  1.5,
  -0.5,
  100,
  100.5,
  101,
  50,
  51,
  1e300,
  -1e300,
  31,
  32,
  [],
  {},
  [1],
  { n: 1 },
  "2026-11-20T14:00:00Z",
  "2026-11-20T14:00:00+02:00",
  "2026-11-20T14:00:00+0200",
  "2026-11-20T14:00:00.123456Z",
  "2026-11-20T14:00Z",
  "2026-11-20 14:00:00Z",
  "2026-11-20T14:00:00",
  "2026-02-30T14:00:00Z",
  "2024-02-29T00:00:00Z",
  "2026-11-20T24:00:00Z",
  "2014-12-31T23:59:59Z",
  EARLIEST_DEVICE_TIME,
  "2099-01-01T00:00:00Z",
  new Date(Date.now() + 23 * 3_600_000).toISOString(),
  "1970-01-01T00:00:00Z",
];

describe("the fast path of a transmission's validation", () => {
  it("accepts the contract's bodies without zod, with the data zod gives", () => {
    const spy = vi.spyOn(transmissionSchema, "safeParse");
    const valid: Record<string, any>[] = [body(), { ...body(), therapies: [] }];
    const b = body();
    b.therapies[0].cycles[1].SPO2 = null;
    b.therapies[1].cycles = [MAX_CYCLES, 33, 32, 1, 31].map(cycle);
    b.sentAt = "2026-11-20T23:10:00.5+01:00";
    b.prescription.mode = "Manual";
    valid.push(b);
    for (const input of valid) {
      const expected = zodOnly(copy(input));
      expect(expected.ok).toBe(true);
      spy.mockClear();
      const result = parseTransmission(copy(input));
      expect(spy).not.toHaveBeenCalled();
      expect(result).toEqual(expected);
    }
  });

  it("answers every broken body as zod does: same verdict, same data, same errors", () => {
    let cases = 0;
    let fastAccepted = 0;
    let rejected = 0;
    for (const path of paths(body())) {
      const variants: unknown[] = [];
      if (path.length > 0) {
        const removed = body();
        setAt(removed, path, undefined, true);
        variants.push(removed);
        for (const value of REPLACEMENTS) {
          const changed = body();
          setAt(changed, path, copy(value));
          variants.push(changed);
        }
      }
      // An unknown key beside the value (objects only), and a duplicate cycle number.
      const parent = body();
      const target = path.reduce((o: any, k) => o[k], parent);
      if (target && typeof target === "object" && !Array.isArray(target)) {
        target.extra = 1;
        variants.push(parent);
      }
      for (const value of variants) {
        const input = copy(value);
        const expected = zodOnly(copy(input));
        const result = parseTransmission(copy(input));
        expect(result).toEqual(expected);
        if (fastTransmission(copy(input))) {
          expect(expected.ok).toBe(true);
          fastAccepted++;
        }
        if (!expected.ok) rejected++;
        cases++;
      }
    }
    const duplicate = body();
    duplicate.therapies[1].cycles[4].n = 2;
    expect(fastTransmission(copy(duplicate))).toBeNull();
    expect(parseTransmission(copy(duplicate))).toEqual(zodOnly(copy(duplicate)));
    // Both sides were exercised.
    expect(cases).toBeGreaterThan(1000);
    expect(fastAccepted).toBeGreaterThan(50);
    expect(rejected).toBeGreaterThan(500);
  });

  it("leaves a body that is not an object, or not JSON's, to zod", () => {
    for (const input of [null, [], "x", 1, [body()]]) {
      expect(fastTransmission(input)).toBeNull();
      expect(parseTransmission(input)).toEqual(zodOnly(input));
    }
  });
});
