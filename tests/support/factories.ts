// Test data made through the real database (no mocks). Every factory makes unique rows, so tests
// sharing a worker database do not see each other's data.
import crypto from "node:crypto";
import { loadActor } from "~/domain/access.server";
import { prisma } from "~/lib/db.server";
import { createDevice } from "~/domain/devices/device.server";
import { hashPassword } from "~/domain/accounts/user.server";

export const PASSWORD = "Test-pass1!";
let passwordHash: string | null = null;

export function uid(prefix = "t") {
  return `${prefix}${crypto.randomBytes(5).toString("hex")}`;
}

export async function createUser(
  input: { role?: string; status?: string; careSites?: { id: string; status?: string }[] } = {},
) {
  passwordHash ??= await hashPassword(PASSWORD);
  const name = uid("user");
  const role = input.role ?? "clinician";
  const user = await prisma.user.create({
    data: {
      username: name,
      email: `${name}@example.test`,
      phone: `1512${crypto.randomInt(1_000_000, 9_999_999)}`,
      passwordHash,
      role,
      status: input.status ?? "active",
      firstName: "Test",
      lastName: name,
    },
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

export function createCareSite(name = uid("Site ")) {
  return prisma.careSite.create({
    data: { name, city: "Austin", state: "Texas", zip: "78701" },
  });
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
  const made = await createDevice({
    serial: uid("SN")
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, ""),
    type: "cough",
  });
  if (!made.ok) throw new Error("device");
  await prisma.pairing.create({
    data: { deviceId: made.device.id, patientId: patient.id, careSiteId, pairedAt },
  });
  await prisma.therapyGoal.create({
    data: {
      patientId: patient.id,
      timesPerDay: 2,
      days: "mon,tue,wed,thu,fri,sat,sun",
      createdAt: pairedAt,
    },
  });
  return { patient, device: made.device, token: made.token };
}
