// Test data made through the real database (no mocks), with the row factories the demo world is
// built from (prisma/factories). Every factory makes unique rows, so tests sharing a worker
// database do not see each other's data.
import { loadActor } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import { createDevice } from "~/domain/devices/device.server";
import { hashPassword } from "~/domain/accounts/user.server";
import * as factories from "../../prisma/factories";

export { uid } from "../../prisma/factories";

export const PASSWORD = "Test-pass1!";
let passwordHash: string | null = null;

export async function createUser(
  input: { role?: string; status?: string; careSites?: { id: string; status?: string }[] } = {},
) {
  passwordHash ??= await hashPassword(PASSWORD);
  const role = input.role ?? "clinician";
  const user = await factories.createUser(prisma, {
    passwordHash,
    role,
    status: input.status ?? "active",
  });
  for (const site of input.careSites ?? []) {
    await prisma.membership.create({
      data: { careSiteId: site.id, userId: user.id, role, status: site.status ?? "accepted" },
    });
  }
  return user;
}

/** The user's Actor as a request would build it now (domain/access.server.ts loadActor). */
export function actorOf(user: { id: string; role: string }, chosenCareSiteId?: string | null) {
  return loadActor(user, chosenCareSiteId);
}

export function createCareSite(name = factories.uid("Site ")) {
  return factories.createCareSite(prisma, { name });
}

/** A patient of a care site, named, with a cough device paired since `pairedAt` and a goal of two
 * therapies every day from then on. */
export async function createPairedPatient(
  careSiteId: string,
  patientInput: { firstName: string; lastName: string; pairedAt: Date },
) {
  const { firstName, lastName, pairedAt } = patientInput;
  const patient = await createUser({ role: "patient", careSites: [{ id: careSiteId }] });
  await prisma.user.update({ where: { id: patient.id }, data: { firstName, lastName } });
  // Through the device service: a serial it accepts and a token it issued.
  const made = await createDevice({
    serial: factories
      .uid("SN")
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, ""),
    type: "cough",
  });
  if (!made.ok) throw new Error("device");
  await factories.createPairing(prisma, {
    deviceId: made.device.id,
    patientId: patient.id,
    careSiteId,
    pairedAt,
  });
  await factories.createTherapyGoal(prisma, { patientId: patient.id, createdAt: pairedAt });
  return { patient, device: made.device, token: made.token };
}
