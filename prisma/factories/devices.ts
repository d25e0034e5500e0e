// Devices and what they send: pairings, prescriptions, transmissions, therapies and their cycles.
import crypto from "node:crypto";
import type { Prisma } from "../../app/generated/prisma/client";
import { type Db, type Time, optionalDate, toDate } from "./client";
import { sha256, uid } from "./ids";

type DeviceInput = {
  id?: string;
  serial?: string;
  type?: string;
  /** The bearer token; only its sha256 is stored, as in production. Random when left out. */
  token?: string;
  createdAt?: Time;
  lastSeenAt?: Time | null;
};

export function buildDevice(input: DeviceInput = {}) {
  const token = input.token ?? crypto.randomBytes(32).toString("base64url");
  const row: Prisma.DeviceCreateManyInput = {
    id: input.id,
    serial: input.serial ?? uid("SN").toUpperCase(),
    type: input.type ?? "cough",
    tokenHash: sha256(token),
    createdAt: toDate(input.createdAt ?? Date.now()),
    lastSeenAt: optionalDate(input.lastSeenAt),
  };
  return { row, token };
}

/** A provisioned device and its bearer token. */
export async function createDevice(db: Db, input: DeviceInput = {}) {
  const { row, token } = buildDevice(input);
  return { device: await db.device.create({ data: row }), token };
}

type PairingInput = Omit<Prisma.PairingCreateManyInput, "pairedAt" | "unpairedAt"> & {
  pairedAt?: Time;
  unpairedAt?: Time | null;
};

export function buildPairing(input: PairingInput): Prisma.PairingCreateManyInput {
  return {
    careSiteId: null,
    pairedById: null,
    ...input,
    pairedAt: toDate(input.pairedAt ?? Date.now()),
    unpairedAt: optionalDate(input.unpairedAt),
  };
}

export function createPairing(db: Db, input: PairingInput) {
  return db.pairing.create({ data: buildPairing(input) });
}

/** Settings of a prescription, and of a therapy as delivered. */
export type Settings = {
  pauseP: number;
  pauseT: number;
  inspP: number;
  inspT: number;
  expP: number;
  expT: number;
  oscillation: boolean;
};

type PrescriptionInput = Settings & {
  id?: string;
  deviceId: string;
  mode: string;
  cycles: number;
  firstSeenAt?: Time;
  isAdjustment?: boolean;
};

export function buildPrescription(input: PrescriptionInput): Prisma.PrescriptionCreateManyInput {
  return {
    isAdjustment: false,
    ...input,
    firstSeenAt: toDate(input.firstSeenAt ?? Date.now()),
  };
}

type TransmissionInput = Omit<Prisma.TransmissionCreateManyInput, "sentAt" | "receivedAt"> & {
  sentAt: Time;
  receivedAt?: Time;
};

export function buildTransmission(input: TransmissionInput): Prisma.TransmissionCreateManyInput {
  return {
    ...input,
    sentAt: toDate(input.sentAt),
    receivedAt: toDate(input.receivedAt ?? input.sentAt),
  };
}

type TherapyInput = Omit<Prisma.TherapyCreateManyInput, "startedAt"> & { startedAt: Time };

export function buildTherapy(input: TherapyInput): Prisma.TherapyCreateManyInput {
  return { ...input, startedAt: toDate(input.startedAt) };
}

export function buildCycle(input: Prisma.CycleCreateManyInput): Prisma.CycleCreateManyInput {
  return { ...input };
}
