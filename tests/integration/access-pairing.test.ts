// The "Devices and pairings" rules of app/domain/access.server.ts, cell by cell: each kind of actor
// × where the device's (or the patient's) open pairing lives, for pairing a device with a patient
// of care site S, for unpairing that patient's device, and for what the profile offers. Every cell
// is a fresh world, through the model functions that apply the rules (pairDevice, unpairDevice,
// pairingPowers), and a refused cell must leave every pairing as it was.
import { describe, expect, it } from "vitest";
import { loadActor, readPairingPowers } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import {
  createDevice,
  getCurrentDevice,
  pairDevice,
  pairingPowers,
  unpairDevice,
} from "~/domain/devices/device.server";
import { createCareSite, createUser, uid } from "../support/factories";

type ActorKind =
  | "clinician of S"
  | "clinicadmin of S"
  | "clinician of S and T"
  | "clinician of T"
  | "clinician removed from S"
  | "clinician of S, S deactivated"
  | "superadmin"
  | "abmadmin"
  | "patient of S";

const ACTORS: ActorKind[] = [
  "clinician of S",
  "clinicadmin of S",
  "clinician of S and T",
  "clinician of T",
  "clinician removed from S",
  "clinician of S, S deactivated",
  "superadmin",
  "abmadmin",
  "patient of S",
];

/** Staff who may pair into S: the other kinds are refused before any device is looked at. */
const STAFF_OF_S = new Set<ActorKind>([
  "clinician of S",
  "clinicadmin of S",
  "clinician of S and T",
]);

async function newDevice() {
  const made = await createDevice({
    serial: uid("AP").replace(/[^A-Za-z0-9]/g, ""),
    type: "cough",
  });
  if (!made.ok) throw new Error(made.error);
  return made.device;
}

/** Care sites S and T, a patient P of S (and of T), and an actor of the given kind. */
async function world(kind: ActorKind) {
  const s = await createCareSite();
  const t = await createCareSite();
  const patient = await createUser({ role: "patient", careSites: [{ id: s.id }, { id: t.id }] });
  const memberships: Record<ActorKind, [string, { id: string; status?: string }[]]> = {
    "clinician of S": ["clinician", [{ id: s.id }]],
    "clinicadmin of S": ["clinicadmin", [{ id: s.id }]],
    "clinician of S and T": ["clinician", [{ id: s.id }, { id: t.id }]],
    "clinician of T": ["clinician", [{ id: t.id }]],
    "clinician removed from S": ["clinician", [{ id: s.id, status: "blocked" }]],
    "clinician of S, S deactivated": ["clinician", [{ id: s.id }]],
    superadmin: ["superadmin", []],
    abmadmin: ["abmadmin", []],
    "patient of S": ["patient", [{ id: s.id }]],
  };
  const [role, careSites] = memberships[kind];
  const user = await createUser({ role, careSites });
  if (kind === "clinician of S, S deactivated") {
    await prisma.careSite.update({ where: { id: s.id }, data: { status: "inactive" } });
  }
  const actor = await loadActor(user, s.id);
  return { s, t, patient, actor };
}

type World = Awaited<ReturnType<typeof world>>;

/** Where the device is, relative to S: its serial, and the pairing that holds it (if any). */
type Relation = {
  name: string;
  make: (w: World) => Promise<{ serial: string; pairingId: string | null }>;
  /** The answer to staff of S (others are refused with "forbidden"). */
  staff: "noDevice" | "paired" | "confirmMove";
};

async function holder(careSiteIds: string[]) {
  return createUser({ role: "patient", careSites: careSiteIds.map((id) => ({ id })) });
}

async function heldBy(patientId: string, careSiteId: string | null) {
  const d = await newDevice();
  const pairing = await prisma.pairing.create({
    data: { deviceId: d.id, patientId, careSiteId },
  });
  return { serial: d.serial, pairingId: pairing.id };
}

const RELATIONS: Relation[] = [
  {
    name: "unknown serial",
    make: async () => ({ serial: uid("NOSUCH").replace(/[^A-Za-z0-9]/g, ""), pairingId: null }),
    staff: "noDevice",
  },
  {
    name: "no open pairing",
    make: async () => ({ serial: (await newDevice()).serial, pairingId: null }),
    staff: "paired",
  },
  {
    name: "open at S with another patient",
    make: async (w) => heldBy((await holder([w.s.id])).id, w.s.id),
    staff: "confirmMove",
  },
  {
    name: "open with no care site, another patient of S",
    make: async (w) => heldBy((await holder([w.s.id])).id, null),
    staff: "confirmMove",
  },
  {
    name: "open at T",
    make: async (w) => heldBy((await holder([w.t.id])).id, w.t.id),
    staff: "noDevice",
  },
  {
    name: "open at T with a patient of S too",
    make: async (w) => heldBy((await holder([w.s.id, w.t.id])).id, w.t.id),
    staff: "noDevice",
  },
  {
    name: "open with no care site, a patient of T only",
    make: async (w) => heldBy((await holder([w.t.id])).id, null),
    staff: "noDevice",
  },
  {
    name: "open with no care site, a patient of no care site",
    make: async () => heldBy((await holder([])).id, null),
    staff: "noDevice",
  },
  {
    name: "open with no care site, a patient blocked at S",
    make: async (w) => {
      const patient = await createUser({
        role: "patient",
        careSites: [{ id: w.s.id, status: "blocked" }],
      });
      return heldBy(patient.id, null);
    },
    staff: "noDevice",
  },
];

const snapshot = () =>
  prisma.pairing.findMany({ orderBy: { id: "asc" }, select: { id: true, unpairedAt: true } });

describe("pairing a device with a patient of care site S", () => {
  for (const kind of ACTORS) {
    for (const relation of RELATIONS) {
      const expected = STAFF_OF_S.has(kind) ? relation.staff : "forbidden";
      it(`${kind} × ${relation.name}: ${expected}`, async () => {
        const w = await world(kind);
        const { serial, pairingId } = await relation.make(w);
        const before = await snapshot();
        const input = { actor: w.actor, patientId: w.patient.id, careSiteId: w.s.id, serial };
        const result = await pairDevice(input);
        expect(result.status).toBe(expected);
        const open = await prisma.pairing.findMany({
          where: { patientId: w.patient.id, unpairedAt: null },
        });
        if (expected === "paired") {
          expect(open).toHaveLength(1);
          return;
        }
        expect(await snapshot()).toEqual(before);
        expect(open).toEqual([]);
        if (expected === "confirmMove") {
          expect(result).toMatchObject({ pairingId });
          const moved = await pairDevice({ ...input, confirm: pairingId });
          expect(moved.status).toBe("moved");
          const held = await prisma.pairing.findUniqueOrThrow({ where: { id: pairingId! } });
          expect(held.unpairedAt).not.toBeNull();
        } else if (pairingId) {
          // Confirming does not help a refused cell.
          expect((await pairDevice({ ...input, confirm: pairingId })).status).toBe(expected);
          expect(await snapshot()).toEqual(before);
        }
      });
    }
  }
});

describe("unpairing the device of a patient of S (and T), on the profile seen through S", () => {
  const PATIENT_PAIRINGS: { name: string; careSite: (w: World) => string | null | "none" }[] = [
    { name: "paired at S", careSite: (w) => w.s.id },
    { name: "paired with no care site", careSite: () => null },
    { name: "paired at T", careSite: (w) => w.t.id },
    { name: "no device", careSite: () => "none" },
  ];
  const allowed = (kind: ActorKind, name: string) =>
    STAFF_OF_S.has(kind) && (name !== "paired at T" || kind === "clinician of S and T");

  for (const kind of ACTORS) {
    for (const pairing of PATIENT_PAIRINGS) {
      const may = allowed(kind, pairing.name);
      it(`${kind} × ${pairing.name}: ${may ? "unpairs" : "forbidden"}`, async () => {
        const w = await world(kind);
        const careSiteId = pairing.careSite(w);
        if (careSiteId !== "none") await heldBy(w.patient.id, careSiteId);
        const before = await snapshot();

        const powers = await pairingPowers(w.actor, w.patient.id, w.s.id);
        expect(powers).toEqual({ canPair: STAFF_OF_S.has(kind), canUnpair: may });
        // The profile's own read of the same rule (SQL on the read connection).
        expect(readPairingPowers(w.actor, w.patient.id, w.s.id)).toEqual(powers);

        const result = await unpairDevice({
          actor: w.actor,
          patientId: w.patient.id,
          careSiteId: w.s.id,
          // Confirmed for the device the patient has (the dialog's pairing id).
          confirm: (await getCurrentDevice(w.patient.id))?.pairingId ?? null,
        });
        if (!may) {
          expect(result).toEqual({ status: "forbidden" });
          expect(await snapshot()).toEqual(before);
          return;
        }
        expect(result).toEqual({ status: "unpaired", unpaired: careSiteId === "none" ? 0 : 1 });
        expect(
          await prisma.pairing.count({ where: { patientId: w.patient.id, unpairedAt: null } }),
        ).toBe(0);
      });
    }
  }

  it("pairing another device with a patient whose device was paired at T is refused to staff of S, and asks for an Unpair first from staff of both", async () => {
    for (const kind of ["clinician of S", "clinician of S and T"] as const) {
      const w = await world(kind);
      const held = await heldBy(w.patient.id, w.t.id);
      const d = await newDevice();
      const result = await pairDevice({
        actor: w.actor,
        patientId: w.patient.id,
        careSiteId: w.s.id,
        serial: d.serial,
      });
      const open = await prisma.pairing.findMany({
        where: { patientId: w.patient.id, unpairedAt: null },
      });
      if (kind === "clinician of S") {
        expect(result.status).toBe("patientPairedElsewhere");
        expect(open.map((p) => p.id)).toEqual([held.pairingId]);
      } else {
        // Issue 22: a device is never replaced unasked; it is unpaired first, through its dialog.
        expect(result).toEqual({ status: "patientHasDevice", pairingId: held.pairingId });
        expect(open.map((p) => p.id)).toEqual([held.pairingId]);
      }
    }
  });
});
