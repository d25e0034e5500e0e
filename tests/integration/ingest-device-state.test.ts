// The device state ingest keeps between its batches (app/domain/devices/ingestDb.server.ts
// deviceStates): a device's open pairing and latest prescription are read once while no other
// connection commits, and read again after any commit of another connection (a pairing made or
// ended through Prisma) or after ingest records a new prescription. Real SQLite: the statements
// the ingest connection runs are counted on better-sqlite3's Statement.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server";
import { ingestTransmission } from "~/domain/devices/ingest.server";
import { parseTransmission, type PrescriptionBody } from "~/domain/devices/schema";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";
import { newDevice } from "../support/deviceApiBodies";
import { createCareSite, createUser } from "../support/factories";

afterEach(() => {
  vi.restoreAllMocks();
});

let event = 0;
function body(prescription: PrescriptionBody = STANDARD_PRESCRIPTION) {
  const parsed = parseTransmission({
    sentAt: "2026-11-20T23:10:00Z",
    hmr: 12.5,
    prescription,
    therapies: [
      {
        eventId: `DS-${++event}`,
        startedAt: "2026-11-20T14:00:00Z",
        mode: "Auto",
        delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
        cycles: [1, 2, 3].map((n) => ({ n, P_IP: 38, E_V: 1200, P_F: 250, SPO2: 96, O_F: 1 })),
      },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.data;
}

/** Counts the lookups of a device's open pairing and latest prescription, on any connection. */
function countStateLookups() {
  const scratch = new Database(":memory:");
  const proto = Object.getPrototypeOf(scratch.prepare("SELECT 1")) as Database.Statement;
  scratch.close();
  const counts = { pairing: 0, prescription: 0 };
  const real = proto.get;
  vi.spyOn(proto, "get").mockImplementation(function (
    this: Database.Statement,
    ...args: unknown[]
  ) {
    if (/FROM "Pairing" WHERE "deviceId"/.test(this.source)) counts.pairing++;
    if (/FROM "Prescription" WHERE "deviceId"/.test(this.source)) counts.prescription++;
    return real.apply(this, args);
  });
  return counts;
}

describe("the device state ingest keeps between batches", () => {
  it("reads a device's pairing and prescription once while no other connection commits", async () => {
    const device = await newDevice("DS");
    // The first records the device's first prescription (its state is read again after that).
    await ingestTransmission(device, body());
    const counts = countStateLookups();
    for (let i = 0; i < 4; i++) {
      const result = await ingestTransmission(device, body());
      expect(result.recorded).toBe(true);
      expect(result.therapyAdjustment).toBe(false);
      expect(result.patientId).toBeNull();
    }
    expect(counts).toEqual({ pairing: 1, prescription: 1 });
  });

  it("sees a pairing made and ended through Prisma at the next transmission", async () => {
    const device = await newDevice("DS");
    const site = await createCareSite();
    const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    expect((await ingestTransmission(device, body())).patientId).toBeNull();

    const pairing = await prisma.pairing.create({
      data: { deviceId: device.id, patientId: patient.id, careSiteId: site.id },
    });
    const paired = await ingestTransmission(device, body());
    expect(paired.patientId).toBe(patient.id);
    expect(paired.pairingId).toBe(pairing.id);

    await prisma.pairing.update({ where: { id: pairing.id }, data: { unpairedAt: new Date() } });
    const after = await ingestTransmission(device, body());
    expect(after.patientId).toBeNull();
    expect(after.pairingId).toBeNull();
  });

  it("judges the next transmission against the prescription just recorded", async () => {
    const device = await newDevice("DS");
    const changed = { ...STANDARD_PRESCRIPTION, cycles: 6 };
    const first = await ingestTransmission(device, body());
    expect(first.therapyAdjustment).toBe(false);
    const adjusted = await ingestTransmission(device, body(changed));
    expect(adjusted.therapyAdjustment).toBe(true);
    const same = await ingestTransmission(device, body(changed));
    expect(same.therapyAdjustment).toBe(false);
    const back = await ingestTransmission(device, body());
    expect(back.therapyAdjustment).toBe(true);

    const prescriptionOf = async (transmissionId: string) =>
      (await prisma.transmission.findUniqueOrThrow({ where: { id: transmissionId } }))
        .prescriptionId;
    const ids = await Promise.all(
      [first, adjusted, same, back].map((r) => prescriptionOf(r.transmissionId)),
    );
    expect(ids[1]).not.toBe(ids[0]);
    expect(ids[2]).toBe(ids[1]);
    expect(ids[3]).not.toBe(ids[2]);
    expect(await prisma.prescription.count({ where: { deviceId: device.id } })).toBe(3);
  });
});
