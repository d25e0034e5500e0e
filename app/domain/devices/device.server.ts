// Devices: provisioning (scripts/device.ts), bearer-token checks for the device API, and pairing a
// device with a patient (DESIGN.md §5: one patient per device and one device per patient at a time).
import crypto from "node:crypto";
import {
  devicesPairableBy,
  mayPairAt,
  pairingsEndableBy,
  pairingsMovableBy,
  type Actor,
} from "~/domain/access.server";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { audit } from "~/domain/audit.server";
import { deviceForToken } from "~/domain/devices/ingestDb.server";
import { devicesBySerialIgnoringCase } from "~/domain/devices/sql.server";
import { SERIAL_PATTERN } from "~/domain/devices/schema";

export const DEVICE_TYPES = ["cough", "clear"] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export function isDeviceType(value: unknown): value is DeviceType {
  return (DEVICE_TYPES as readonly unknown[]).includes(value);
}

export function isValidSerial(serial: unknown): serial is string {
  return typeof serial === "string" && SERIAL_PATTERN.test(serial);
}

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

/** A new device token: 32 random bytes, base64url (43 characters). Shown once, never stored. */
export function generateDeviceToken() {
  return crypto.randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: its sha256, hex. */
export function hashDeviceToken(token: string) {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

// Compared against when the serial is unknown, so that case costs the same as a wrong token.
const DUMMY_DIGEST = crypto.createHash("sha256").update("arc-no-such-device").digest();

function bearerToken(authorization: string | null) {
  const match = /^Bearer[ \t]+([^\s]{1,512})[ \t]*$/i.exec(authorization ?? "");
  return match ? match[1] : null;
}

export type AuthenticatedDevice = { id: string; serial: string; type: string };

/**
 * The device a request speaks for, or null: a missing or wrong token, a token of another serial
 * and an unknown serial all look the same to the caller (DEVICE-API.md "Authentication"). The
 * sha256 digests are compared in constant time.
 */
export function authenticateDevice(
  serial: string | undefined,
  authorization: string | null,
): AuthenticatedDevice | null {
  const token = bearerToken(authorization);
  if (!token || !isValidSerial(serial)) return null;
  // Through the device API's own connection: Prisma would double this request's cost.
  const device = deviceForToken(serial);
  const presented = crypto.createHash("sha256").update(token, "utf8").digest();
  const stored = device ? Buffer.from(device.tokenHash, "hex") : null;
  const expected = stored && stored.length === presented.length ? stored : DUMMY_DIGEST;
  const equal = crypto.timingSafeEqual(presented, expected);
  if (!device || !equal || expected === DUMMY_DIGEST) return null;
  return { id: device.id, serial: device.serial, type: device.type };
}

// ---------------------------------------------------------------------------------------------
// Provisioning
// ---------------------------------------------------------------------------------------------

export type CreateDeviceResult =
  | { ok: true; device: { id: string; serial: string; type: string }; token: string }
  | { ok: false; error: "invalidSerial" | "invalidType" }
  | { ok: false; error: "duplicate"; existingSerial: string };

async function findBySerialIgnoringCase(serial: string) {
  const rows = await devicesBySerialIgnoringCase(serial);
  return rows.find((r) => r.serial === serial) ?? (rows.length === 1 ? rows[0] : null);
}

/**
 * Provisions a device and returns its token (the only time it exists in clear). A serial that
 * differs from an existing one only in letter case counts as a duplicate: staff type serials by
 * hand when they pair a device.
 */
export async function createDevice(input: {
  serial: string;
  type: string;
}): Promise<CreateDeviceResult> {
  const { serial, type } = input;
  if (!isValidSerial(serial)) return { ok: false, error: "invalidSerial" };
  if (!isDeviceType(type)) return { ok: false, error: "invalidType" };
  const existing = await findBySerialIgnoringCase(serial);
  if (existing) return { ok: false, error: "duplicate", existingSerial: existing.serial };
  const token = generateDeviceToken();
  try {
    const device = await prisma.device.create({
      data: { serial, type, tokenHash: hashDeviceToken(token), createdAt: new Date() },
      select: { id: true, serial: true, type: true },
    });
    return { ok: true, device, token };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") {
      return { ok: false, error: "duplicate", existingSerial: serial };
    }
    throw error;
  }
}

/** A new token for a device; the old one stops working at once. Null for an unknown serial. */
export async function rotateDeviceToken(serial: string) {
  if (!isValidSerial(serial)) return null;
  const token = generateDeviceToken();
  const updated = await prisma.device.updateMany({
    where: { serial },
    data: { tokenHash: hashDeviceToken(token) },
  });
  return updated.count === 1 ? token : null;
}

export type DeviceListRow = {
  serial: string;
  type: string;
  createdAt: Date;
  lastSeenAt: Date | null;
  patient: { id: string; firstName: string; lastName: string } | null;
};

/** Every device with the patient it is paired with now (if any), by serial. */
export async function listDevices(): Promise<DeviceListRow[]> {
  const devices = await prisma.device.findMany({
    orderBy: { serial: "asc" },
    select: {
      serial: true,
      type: true,
      createdAt: true,
      lastSeenAt: true,
      pairings: {
        where: { unpairedAt: null },
        orderBy: { pairedAt: "desc" },
        take: 1,
        select: { patient: { select: { id: true, firstName: true, lastName: true } } },
      },
    },
  });
  return devices.map(({ pairings, ...d }) => ({ ...d, patient: pairings[0]?.patient ?? null }));
}

// ---------------------------------------------------------------------------------------------
// Pairing (staff, on the patient's page)
// ---------------------------------------------------------------------------------------------

/** The device paired with a patient now, or null. */
export async function getCurrentDevice(patientId: string) {
  const pairing = await prisma.pairing.findFirst({
    where: { patientId, unpairedAt: null },
    orderBy: { pairedAt: "desc" },
    select: {
      id: true,
      pairedAt: true,
      device: { select: { serial: true, type: true, lastSeenAt: true } },
    },
  });
  return pairing
    ? {
        pairingId: pairing.id,
        pairedAt: pairing.pairedAt,
        serial: pairing.device.serial,
        type: pairing.device.type,
        lastSeenAt: pairing.device.lastSeenAt,
      }
    : null;
}

/**
 * What the actor may do about a patient's device on a profile seen through `careSiteId`: pair one
 * (staff of that care site), and unpair the one the patient has (also staff of the care site of
 * that pairing: a device paired at another care site is unpaired there).
 */
export async function pairingPowers(
  actor: Actor,
  patientId: string,
  careSiteId: string | null | undefined,
) {
  if (!mayPairAt(actor, careSiteId)) return { canPair: false, canUnpair: false };
  return { canPair: true, canUnpair: await mayEndPatientPairings(prisma, actor, patientId) };
}

type Tx = Parameters<Parameters<typeof readWriteTransaction>[0]>[0];
type Db = Pick<Tx, "pairing">;

/** Whether the actor may end every open pairing of the patient (true when there is none). */
async function mayEndPatientPairings(db: Db, actor: Actor, patientId: string) {
  const open = { patientId, unpairedAt: null };
  const all = await db.pairing.count({ where: open });
  const endable = await db.pairing.count({ where: { AND: [open, pairingsEndableBy(actor)] } });
  return endable === all;
}

export type PairDeviceInput = {
  actor: Actor;
  patientId: string;
  /** The care site of the new pairing: the one the profile is seen through. */
  careSiteId: string;
  serial: string;
  /**
   * The id of the pairing the user agreed to end, when the device is paired with another patient
   * of the same care site (the confirmation's hidden field). Without it such a device is not moved.
   */
  confirm?: string | null;
  ip?: string | null;
};

export type PairDeviceResult =
  /** Unknown serial, or a device paired at another care site: the same answer (no enumeration). */
  | { status: "noDevice" }
  /** The actor is not staff of the care site. */
  | { status: "forbidden" }
  /** The patient's own device was paired at a care site where the actor is not staff. */
  | { status: "patientPairedElsewhere" }
  /**
   * The patient has another device (paired after the page offering Pair device was shown, or a
   * forged post): nothing changed; it is unpaired first, through its own confirmation.
   */
  | { status: "patientHasDevice"; pairingId: string }
  /** The device is paired with another patient of the care site: nothing changed, ask first. */
  | {
      status: "confirmMove";
      serial: string;
      /** The pairing that moving would end: send it back as `confirm`. */
      pairingId: string;
      from: { id: string; firstName: string; lastName: string };
    }
  /** Paired; "moved" when the device was taken from another patient of the care site. */
  | { status: "paired" | "moved" | "unchanged"; pairingId: string };

/**
 * Pairs a device with a patient of a care site (access.server.ts "Devices and pairings" says which
 * devices the actor may pair there). The device's open pairing ends first, in the same
 * transaction, with its audit event; taking the device from another patient of the care site needs
 * `confirm` (the id of that patient's pairing, which the confirmation named) and is audited as
 * `device.moved`. Pairing the device the patient already has changes nothing; a patient with
 * another device keeps it (patientHasDevice, whatever the serial: nothing is learnt about it).
 */
export async function pairDevice(input: PairDeviceInput): Promise<PairDeviceResult> {
  const { actor, patientId, careSiteId } = input;
  if (!mayPairAt(actor, careSiteId)) return { status: "forbidden" };
  const serial = input.serial.trim();
  if (!isValidSerial(serial)) return { status: "noDevice" };
  // An unknown serial goes on like a known one to the same queries, so that a device of another
  // care site is refused after the same work as a serial that does not exist.
  const found = await findBySerialIgnoringCase(serial);
  return readWriteTransaction(async (tx): Promise<PairDeviceResult> => {
    const device = await tx.device.findFirst({
      where: { AND: [{ id: found?.id ?? "" }, devicesPairableBy(actor, careSiteId)] },
      select: { id: true, serial: true },
    });
    if (!(await mayEndPatientPairings(tx, actor, patientId))) {
      return { status: "patientPairedElsewhere" };
    }
    const pairingSelect = {
      id: true,
      deviceId: true,
      patientId: true,
      careSiteId: true,
      patient: { select: { id: true, firstName: true, lastName: true } },
    } as const;
    const ofPatient = await tx.pairing.findMany({
      where: { patientId, unpairedAt: null },
      orderBy: { pairedAt: "desc" },
      select: pairingSelect,
    });
    // Compared with the serial's device whatever its care site: the same answer for every serial.
    const kept = ofPatient.find((p) => p.deviceId !== found?.id);
    if (kept) return { status: "patientHasDevice", pairingId: ofPatient[0].id };
    if (!device) return { status: "noDevice" };
    // Every open pairing of a pairable device is inside the care site: all of them come back.
    const ofDevice = await tx.pairing.findMany({
      where: { AND: [{ deviceId: device.id }, pairingsMovableBy(actor, careSiteId)] },
      select: pairingSelect,
    });
    const same = ofDevice.find((p) => p.patientId === patientId);
    if (same && ofDevice.length === 1 && ofPatient.length === 1) {
      return { status: "unchanged", pairingId: same.id };
    }
    const taken = ofDevice.filter((p) => p.patientId !== patientId);
    if (taken.length > 0 && (taken.length > 1 || taken[0].id !== input.confirm)) {
      const [from] = taken;
      return {
        status: "confirmMove",
        serial: device.serial,
        pairingId: from.id,
        from: from.patient,
      };
    }
    const now = new Date();
    // The patient's open pairings are all of this device (kept is none): they are in ofDevice.
    await closePairings(tx, ofDevice, { actorId: actor.id, ip: input.ip, at: now }, "repair");
    const pairing = await tx.pairing.create({
      data: { deviceId: device.id, patientId, careSiteId, pairedById: actor.id, pairedAt: now },
      select: { id: true },
    });
    const event = { at: now, actorId: actor.id, careSiteId, ip: input.ip };
    await audit(
      {
        ...event,
        action: "device.paired",
        targetType: "Pairing",
        targetId: pairing.id,
        detail: { deviceId: device.id, serial: device.serial, patientId },
      },
      tx,
    );
    if (taken.length > 0) {
      await audit(
        {
          ...event,
          action: "device.moved",
          targetType: "Device",
          targetId: device.id,
          detail: {
            serial: device.serial,
            fromPatientId: taken[0].patientId,
            fromPairingId: taken[0].id,
            toPatientId: patientId,
            toPairingId: pairing.id,
          },
        },
        tx,
      );
    }
    return { status: taken.length > 0 ? "moved" : "paired", pairingId: pairing.id };
  });
}

export type UnpairDeviceResult =
  | { status: "unpaired"; unpaired: number }
  | { status: "forbidden" }
  /** `confirm` does not name the patient's current pairing: nothing changed, ask (again). */
  | { status: "confirmUnpair" };

/**
 * Ends the patient's open pairing, if any (a repeated Unpair is harmless), on their profile seen
 * through `careSiteId`, once confirmed: `confirm` is the id of the pairing the confirmation showed
 * (getCurrentDevice's), so a device paired since then is not unpaired unseen. Refused, changing
 * nothing, unless the actor is staff of that care site and of the care site the pairing was made at.
 */
export async function unpairDevice(input: {
  actor: Actor;
  patientId: string;
  careSiteId: string;
  confirm: string | null;
  ip?: string | null;
}): Promise<UnpairDeviceResult> {
  const { actor, patientId } = input;
  if (!mayPairAt(actor, input.careSiteId)) return { status: "forbidden" };
  return readWriteTransaction(async (tx): Promise<UnpairDeviceResult> => {
    if (!(await mayEndPatientPairings(tx, actor, patientId))) return { status: "forbidden" };
    const open = await tx.pairing.findMany({
      where: { patientId, unpairedAt: null },
      orderBy: { pairedAt: "desc" },
      select: { id: true, deviceId: true, patientId: true, careSiteId: true },
    });
    if (open.length > 0 && open[0].id !== input.confirm) return { status: "confirmUnpair" };
    await closePairings(tx, open, { actorId: actor.id, ip: input.ip, at: new Date() });
    return { status: "unpaired", unpaired: open.length };
  });
}

/** Ends open pairings, each with its `device.unpaired` audit event, in the caller's transaction. */
async function closePairings(
  tx: Tx,
  pairings: { id: string; deviceId: string; patientId: string; careSiteId: string | null }[],
  by: { actorId: string; ip?: string | null; at: Date },
  reason?: "repair",
) {
  for (const p of pairings) {
    await tx.pairing.update({ where: { id: p.id }, data: { unpairedAt: by.at } });
    await audit(
      {
        at: by.at,
        actorId: by.actorId,
        action: "device.unpaired",
        targetType: "Pairing",
        targetId: p.id,
        careSiteId: p.careSiteId,
        ip: by.ip,
        detail: { deviceId: p.deviceId, patientId: p.patientId, ...(reason ? { reason } : {}) },
      },
      tx,
    );
  }
}
