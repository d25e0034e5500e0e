// The device API's body rules (DEVICE-API.md) and the deviation rule (DESIGN.md §5).
import { describe, expect, it } from "vitest";
import { samePrescription, therapyDeviates } from "~/domain/devices/deviation";
import {
  deviceApiMessages,
  EARLIEST_DEVICE_TIME,
  formatPath,
  MAX_CYCLES,
  MAX_FUTURE_MS,
  MAX_STAT_ROWS,
  MAX_THERAPIES,
  parseDeviceStats,
  parseTransmission,
  type TransmissionBody,
} from "~/domain/devices/schema";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";

const prescription = STANDARD_PRESCRIPTION;

const cycle = (n: number) => ({ n, P_IP: 38, E_V: 1200, P_F: 250, SPO2: 96, O_F: 1 });

function therapy(i: number, cycles = 5) {
  return {
    eventId: `T-${i}`,
    startedAt: "2026-11-20T14:00:00Z",
    mode: "Auto",
    delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
    cycles: Array.from({ length: cycles }, (_, k) => cycle(k + 1)),
  };
}

/** The contract's example body. */
function body(): Record<string, any> {
  return { sentAt: "2026-11-20T23:10:00Z", hmr: 1234.5, prescription, therapies: [therapy(1)] };
}

function errorsOf(input: unknown) {
  const result = parseTransmission(input);
  if (result.ok) throw new Error("expected errors");
  return result.errors;
}

describe("transmission body", () => {
  it("accepts the contract's example, also with no therapies and SPO2 null", () => {
    expect(parseTransmission(body()).ok).toBe(true);
    expect(parseTransmission({ ...body(), therapies: [] }).ok).toBe(true);
    const b = body();
    b.therapies[0].cycles[0].SPO2 = null;
    expect(parseTransmission(b).ok).toBe(true);
  });

  it("rejects unknown keys at every level, naming each one", () => {
    const b = body();
    b.extra = 1;
    b.prescription = { ...prescription, R_C: 5 };
    b.therapies[0].delivered.N_C = 5;
    b.therapies[0].cycles[2].TS_REF = 1;
    b.therapies[0].note = "x";
    expect(errorsOf(b)).toEqual(
      expect.arrayContaining([
        { path: "extra", message: deviceApiMessages.unknownField },
        { path: "prescription.R_C", message: deviceApiMessages.unknownField },
        { path: "therapies[0].delivered.N_C", message: deviceApiMessages.unknownField },
        { path: "therapies[0].cycles[2].TS_REF", message: deviceApiMessages.unknownField },
        { path: "therapies[0].note", message: deviceApiMessages.unknownField },
      ]),
    );
  });

  it("rejects wrong types with the field's path", () => {
    const b = body();
    b.hmr = "1234.5";
    b.prescription = { ...prescription, cycles: 4.5, O_F: true };
    b.therapies.push(therapy(2));
    b.therapies[1].cycles[0].P_IP = "38";
    b.therapies[1].delivered.E_T = null;
    b.therapies[1].mode = "Turbo";
    const errors = errorsOf(b);
    const paths = errors.map((e) => e.path);
    expect(paths).toEqual([
      "hmr",
      "prescription.cycles",
      "prescription.O_F",
      "therapies[1].mode",
      "therapies[1].delivered.E_T",
      "therapies[1].cycles[0].P_IP",
    ]);
    expect(errors[0].message).toBe(deviceApiMessages.number);
    expect(errors[2].message).toBe(deviceApiMessages.flag);
    expect(errors[3].message).toBe(deviceApiMessages.mode);
  });

  it("requires every field", () => {
    const b = body();
    delete b.sentAt;
    delete b.therapies[0].cycles[0].SPO2;
    delete b.prescription;
    expect(errorsOf(b)).toEqual([
      { path: "sentAt", message: deviceApiMessages.required },
      { path: "prescription", message: deviceApiMessages.required },
      { path: "therapies[0].cycles[0].SPO2", message: deviceApiMessages.required },
    ]);
  });

  it("takes ISO 8601 times with a zone only", () => {
    for (const ok of [
      "2026-11-20T14:00:00Z",
      "2026-11-20T14:00:00.250Z",
      "2026-11-20T08:00:00-06:00",
      "2026-11-20T15:00:00+01:00",
    ]) {
      expect(parseTransmission({ ...body(), sentAt: ok }).ok, ok).toBe(true);
    }
    for (const bad of [
      "2026-11-20T14:00:00",
      "2026-11-20 14:00:00Z",
      "2026-02-30T14:00:00Z",
      "2026-11-20",
      "20-11-2026 14:00",
      "1795216200000",
    ]) {
      expect(errorsOf({ ...body(), sentAt: bad }), bad).toEqual([
        { path: "sentAt", message: deviceApiMessages.time },
      ]);
    }
    const b = body();
    b.therapies[0].startedAt = "2026-11-20T14:00:00";
    expect(errorsOf(b)).toEqual([
      { path: "therapies[0].startedAt", message: deviceApiMessages.time },
    ]);
  });

  it(`takes at most ${MAX_THERAPIES} therapies and ${MAX_CYCLES} cycles per therapy`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => therapy(i, 1));
    expect(parseTransmission({ ...body(), therapies: many(MAX_THERAPIES) }).ok).toBe(true);
    expect(errorsOf({ ...body(), therapies: many(MAX_THERAPIES + 1) })).toEqual([
      { path: "therapies", message: deviceApiMessages.tooManyTherapies },
    ]);
    expect(parseTransmission({ ...body(), therapies: [therapy(1, MAX_CYCLES)] }).ok).toBe(true);
    expect(errorsOf({ ...body(), therapies: [therapy(1, MAX_CYCLES + 1)] })).toEqual([
      { path: "therapies[0].cycles", message: deviceApiMessages.tooManyCycles },
    ]);
    expect(errorsOf({ ...body(), prescription: { ...prescription, cycles: 0 } })[0].path).toBe(
      "prescription.cycles",
    );
  });

  it("checks eventId, SPO2, O_F and cycle numbers", () => {
    const b = body();
    b.therapies.push(therapy(2), therapy(3));
    b.therapies[0].eventId = "";
    b.therapies[1].eventId = "E".repeat(65);
    b.therapies[2].eventId = "E".repeat(64);
    expect(errorsOf(b)).toEqual([
      { path: "therapies[0].eventId", message: deviceApiMessages.eventId },
      { path: "therapies[1].eventId", message: deviceApiMessages.eventId },
    ]);

    const c = body();
    c.therapies[0].cycles[0].SPO2 = 101;
    c.therapies[0].cycles[1].SPO2 = "96";
    c.therapies[0].cycles[2].O_F = 2;
    c.therapies[0].cycles[3].n = 0;
    expect(errorsOf(c)).toEqual([
      { path: "therapies[0].cycles[0].SPO2", message: deviceApiMessages.spo2 },
      { path: "therapies[0].cycles[1].SPO2", message: deviceApiMessages.spo2 },
      { path: "therapies[0].cycles[2].O_F", message: deviceApiMessages.flag },
      { path: "therapies[0].cycles[3].n", message: deviceApiMessages.cycleNumber },
    ]);

    const d = body();
    d.therapies[0].cycles[4].n = 2;
    expect(errorsOf(d)).toEqual([
      { path: "therapies[0].cycles[4].n", message: deviceApiMessages.duplicateCycle },
    ]);
  });

  it("answers a body that is not an object at the root", () => {
    for (const value of [null, [], "x", 3]) {
      expect(errorsOf(value)).toEqual([{ path: "", message: "Must be an object." }]);
    }
  });

  it("formats paths like the body reads", () => {
    expect(formatPath(["therapies", 3, "cycles", 0, "P_IP"])).toBe("therapies[3].cycles[0].P_IP");
    expect(formatPath([0, "core"])).toBe("[0].core");
    expect(formatPath([])).toBe("");
  });
});

describe("device stat rows", () => {
  it("refuses times before 2015 or more than a day ahead, naming the field", () => {
    const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();
    const HOUR = 3_600_000;
    for (const ok of [EARLIEST_DEVICE_TIME, "2015-01-01T01:00:00+01:00", ahead(23 * HOUR)]) {
      expect(parseTransmission({ ...body(), sentAt: ok }).ok, ok).toBe(true);
    }
    for (const [bad, message] of [
      ["1970-01-01T00:00:00Z", deviceApiMessages.timeTooEarly],
      ["2014-12-31T23:59:59Z", deviceApiMessages.timeTooEarly],
      ["2015-01-01T00:30:00+01:00", deviceApiMessages.timeTooEarly],
      ["9999-12-31T23:59:59Z", deviceApiMessages.timeTooLate],
      [ahead(MAX_FUTURE_MS + HOUR), deviceApiMessages.timeTooLate],
    ]) {
      expect(errorsOf({ ...body(), sentAt: bad }), bad).toEqual([{ path: "sentAt", message }]);
    }
    const b = body();
    b.therapies[0].startedAt = "1970-01-01T00:00:00Z";
    expect(errorsOf(b)).toEqual([
      { path: "therapies[0].startedAt", message: deviceApiMessages.timeTooEarly },
    ]);
    const stats = parseDeviceStats([
      { created_at: "1970-01-01T00:00:00Z", theraphy_start_time: "9999-01-01T00:00:00Z" },
      { created_at: "2026-11-20T23:10:00Z", theraphy_end_time: "2000-01-01T00:00:00Z" },
    ]);
    expect(stats.ok ? [] : stats.errors).toEqual([
      { path: "[0].created_at", message: deviceApiMessages.timeTooEarly },
      { path: "[0].theraphy_start_time", message: deviceApiMessages.timeTooLate },
      { path: "[1].theraphy_end_time", message: deviceApiMessages.timeTooEarly },
    ]);
  });

  const row = {
    device_type: "cough",
    core: "Dual",
    memory_usage_percentage: 41.5,
    cpu_usage_percentage: 12,
    temperature: 48.2,
    created_at: "2026-11-20T23:10:00Z",
    theraphy_start_time: "2026-11-20T22:00:00Z",
    theraphy_end_time: null,
    profile: [{ step: 1, pressure: 40 }],
    test_dec: "nightly",
  };

  it("accepts rows with the spec's fields, most of them optional", () => {
    expect(parseDeviceStats([row, { created_at: "2026-11-20T23:10:00+01:00" }]).ok).toBe(true);
    expect(parseDeviceStats([]).ok).toBe(true);
  });

  it("rejects unknown keys, strings for numbers, bad cores and times, and too many rows", () => {
    const result = parseDeviceStats([
      { ...row, id: 1, device_id: "X" },
      { ...row, usr: "3.5", core: "Quad", created_at: "2026-11-20 23:10" },
      { core: "Single" },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { path: "[0].id", message: deviceApiMessages.unknownField },
      { path: "[0].device_id", message: deviceApiMessages.unknownField },
      { path: "[1].core", message: deviceApiMessages.core },
      { path: "[1].created_at", message: deviceApiMessages.time },
      { path: "[1].usr", message: deviceApiMessages.number },
      { path: "[2].created_at", message: deviceApiMessages.required },
    ]);
    const tooMany = parseDeviceStats(Array.from({ length: MAX_STAT_ROWS + 1 }, () => row));
    expect(tooMany.ok ? [] : tooMany.errors).toEqual([
      { path: "", message: deviceApiMessages.tooManyStats },
    ]);
    const notArray = parseDeviceStats(row);
    expect(notArray.ok ? [] : notArray.errors).toEqual([
      { path: "", message: "Must be an array." },
    ]);
  });
});

describe("deviation rule (DESIGN.md §5)", () => {
  const rx: TransmissionBody["prescription"] = { ...prescription };
  const delivered = { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 as 0 | 1 };
  const deviates = (change: Partial<typeof delivered>, cyclesDelivered = 5) =>
    therapyDeviates(rx, { delivered: { ...delivered, ...change }, cyclesDelivered });

  it("does not deviate when delivered as prescribed", () => {
    expect(deviates({})).toBe(false);
    expect(deviates({}, 6)).toBe(false); // more cycles than prescribed is still complete
  });

  it("deviates with fewer cycles than prescribed", () => {
    expect(deviates({}, 4)).toBe(true);
    expect(deviates({}, 0)).toBe(true);
  });

  it("allows exactly 2 cmH2O either way for P_P, I_P and E_P; 2.1 deviates", () => {
    for (const key of ["P_P", "I_P", "E_P"] as const) {
      for (const sign of [1, -1]) {
        expect(deviates({ [key]: delivered[key] + sign * 2 }), `${key} ±2`).toBe(false);
        expect(deviates({ [key]: delivered[key] + sign * 2.1 }), `${key} ±2.1`).toBe(true);
      }
    }
  });

  it("keeps decimal settings exact: 40.1 against 38.1 is 2, not a deviation", () => {
    const decimal = { ...rx, I_P: 38.1 };
    expect(
      therapyDeviates(decimal, { delivered: { ...delivered, I_P: 40.1 }, cyclesDelivered: 5 }),
    ).toBe(false);
  });

  it("allows exactly 5 tenths of a second for P_T, I_T and E_T; 6 deviates", () => {
    for (const key of ["P_T", "I_T", "E_T"] as const) {
      for (const sign of [1, -1]) {
        expect(deviates({ [key]: delivered[key] + sign * 5 }), `${key} ±5`).toBe(false);
        expect(deviates({ [key]: delivered[key] + sign * 6 }), `${key} ±6`).toBe(true);
      }
    }
  });

  it("deviates when oscillation differs", () => {
    expect(deviates({ O_F: 0 })).toBe(true);
  });
});

describe("prescription comparison", () => {
  const row = {
    mode: "Auto",
    cycles: 5,
    pauseP: 0,
    pauseT: 10,
    inspP: 40,
    inspT: 20,
    expP: -40,
    expT: 15,
    oscillation: 1,
  };
  it("is equal only when every setting is", () => {
    expect(samePrescription(row, { ...prescription })).toBe(true);
    expect(samePrescription(row, { ...prescription, mode: "Manual" })).toBe(false);
    expect(samePrescription(row, { ...prescription, cycles: 6 })).toBe(false);
    expect(samePrescription(row, { ...prescription, I_P: 41 })).toBe(false);
    expect(samePrescription(row, { ...prescription, E_T: 16 })).toBe(false);
    expect(samePrescription(row, { ...prescription, O_F: 0 })).toBe(false);
  });
});
