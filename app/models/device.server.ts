// Devices: provisioning (scripts/device.ts), bearer-token checks for the device API, and pairing a
// device with a patient (DESIGN.md §5: one patient per device and one device per patient at a time).
import crypto from "node:crypto";
import { prisma, readWriteTransaction } from "~/lib/db.server";
import { audit } from "~/models/audit.server";
import { deviceForToken } from "~/models/ingest.server";
import { SERIAL_PATTERN } from "~/validation/deviceApi";

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
  const rows = await prisma.$queryRaw<{ id: string; serial: string }[]>`
    SELECT "id", "serial" FROM "Device" WHERE "serial" = ${serial} COLLATE NOCASE LIMIT 2`;
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

export type PairingActor = { id: string; role: string };

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

export type PairDeviceInput = {
  actor: PairingActor;
  patientId: string;
  careSiteId: string;
  serial: string;
  ip?: string | null;
};

/**
 * Pairs a device with a patient. Open pairings of that device (with anyone) and of that patient
 * (with any device) end first, in the same transaction, each with an audit event. Pairing the
 * device the patient already has changes nothing. The caller has checked access (the patient
 * profile's findProfile, for clinicadmin and clinician) and chosen one of the shared care sites.
 */
export async function pairDevice(
  input: PairDeviceInput,
): Promise<{ status: "noDevice" } | { status: "paired" | "unchanged"; pairingId: string }> {
  const serial = input.serial.trim();
  if (!isValidSerial(serial)) return { status: "noDevice" };
  const device = await findBySerialIgnoringCase(serial);
  if (!device) return { status: "noDevice" };
  return readWriteTransaction(async (tx) => {
    const open = await tx.pairing.findMany({
      where: { unpairedAt: null, OR: [{ deviceId: device.id }, { patientId: input.patientId }] },
      select: { id: true, deviceId: true, patientId: true, careSiteId: true },
    });
    const same = open.find((p) => p.deviceId === device.id && p.patientId === input.patientId);
    if (same && open.length === 1) return { status: "unchanged" as const, pairingId: same.id };
    const now = new Date();
    await closePairings(tx, open, { actorId: input.actor.id, ip: input.ip, at: now }, "repair");
    const pairing = await tx.pairing.create({
      data: {
        deviceId: device.id,
        patientId: input.patientId,
        careSiteId: input.careSiteId,
        pairedById: input.actor.id,
        pairedAt: now,
      },
      select: { id: true },
    });
    await audit(
      {
        at: now,
        actorId: input.actor.id,
        action: "device.paired",
        targetType: "Pairing",
        targetId: pairing.id,
        careSiteId: input.careSiteId,
        ip: input.ip,
        detail: {
          deviceId: device.id,
          serial: device.serial,
          patientId: input.patientId,
        },
      },
      tx,
    );
    return { status: "paired" as const, pairingId: pairing.id };
  });
}

/** Ends the patient's open pairing, if any (a repeated Unpair is harmless). */
export async function unpairDevice(input: {
  actor: PairingActor;
  patientId: string;
  ip?: string | null;
}) {
  return readWriteTransaction(async (tx) => {
    const open = await tx.pairing.findMany({
      where: { patientId: input.patientId, unpairedAt: null },
      select: { id: true, deviceId: true, patientId: true, careSiteId: true },
    });
    await closePairings(tx, open, { actorId: input.actor.id, ip: input.ip, at: new Date() });
    return { unpaired: open.length };
  });
}

type Tx = Parameters<Parameters<typeof readWriteTransaction>[0]>[0];

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
