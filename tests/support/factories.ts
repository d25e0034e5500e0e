// Test data made through the real database (no mocks). Every factory makes unique rows, so tests
// sharing a worker database do not see each other's data.
import crypto from "node:crypto";
import { prisma } from "~/lib/db.server";
import { hashPassword } from "~/models/user.server";

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

export function createCareSite(name = uid("Site ")) {
  return prisma.careSite.create({
    data: { name, city: "Austin", state: "Texas", zip: "78701" },
  });
}
