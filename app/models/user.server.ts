import { hash, verify } from "@node-rs/argon2";
import { prisma } from "~/lib/db.server";
import { isSiteRole } from "~/lib/roles";

// A real argon2id hash of a random password: verifying against it when no user matches keeps the
// time of a failed sign-in the same whether or not the account exists.
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$BqL58qumfa+YI23qi6CFhw$lkGmy7k8YaGkjpKot6SZk1GhrHMkyqtPy/PZfg63aEA";

export function hashPassword(password: string) {
  return hash(password);
}

/** The active account a username or email names (the sign-in lookup), or null. */
export function findAccountByLogin(usernameOrEmail: string) {
  const login = usernameOrEmail.trim();
  return prisma.user.findFirst({
    where: { OR: [{ username: login }, { email: login.toLowerCase() }], status: "active" },
    select: { id: true, passwordHash: true, role: true, phone: true },
  });
}

/** Verifies a password; without an account it still spends the time of a real check. */
export function verifyPassword(passwordHash: string | undefined, password: string) {
  return verify(passwordHash ?? DUMMY_HASH, password).catch(() => false);
}

/** isAssociatedClinic of the spec: does the user hold an accepted care site membership? */
export async function isAssociatedWithCareSite(userId: string) {
  const membership = await prisma.membership.findFirst({
    where: { userId, status: "accepted", careSite: { status: "active" } },
    select: { id: true },
  });
  return membership !== null;
}

/** What every signed-in page needs about the user (the shell, the guards). */
export async function getShellUser(userId: string) {
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      username: true,
      email: true,
      firstName: true,
      lastName: true,
      role: true,
      status: true,
      photoId: true,
      measuringUnit: true,
      memberships: {
        where: { status: "accepted", careSite: { status: "active" } },
        select: { careSite: { select: { id: true, name: true } } },
        orderBy: { careSite: { name: "asc" } },
      },
    },
  });
  if (!user || user.status !== "active") return null;
  const { memberships, ...rest } = user;
  const careSites = memberships.map((m) => m.careSite);
  // isAssociatedClinic (spec 1 §2.3) concerns care site staff; the provider's admins have no
  // care site and are never hidden from their dashboard (docs/decisions.md).
  const isAssociatedClinic = !isSiteRole(rest.role) || careSites.length > 0;
  return { ...rest, careSites, isAssociatedClinic };
}

export type ShellUser = NonNullable<Awaited<ReturnType<typeof getShellUser>>>;

const profileSelect = {
  id: true,
  username: true,
  firstName: true,
  lastName: true,
  addressLine1: true,
  addressLine2: true,
  country: true,
  state: true,
  city: true,
  zip: true,
  phone: true,
  email: true,
  photoId: true,
  role: true,
} as const;

export function getProfile(userId: string) {
  return prisma.user.findUniqueOrThrow({ where: { id: userId }, select: profileSelect });
}

export type ProfileChanges = {
  firstName: string;
  lastName: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  country: string;
  zip: string;
};

/** Saves the editable profile fields; "unchanged" when they already hold these values. */
export async function updateProfile(userId: string, changes: ProfileChanges) {
  const current = await prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: profileSelect,
  });
  const changed = (Object.keys(changes) as (keyof ProfileChanges)[]).some(
    (k) => (current[k] ?? "") !== changes[k],
  );
  if (!changed) return "unchanged" as const;
  await prisma.user.update({ where: { id: userId }, data: changes });
  return "updated" as const;
}

/**
 * Another user's profile as the viewer may see it (spec 1 §2.8): the provider's admins see
 * anyone; everyone else sees themselves and users who share an accepted care site with them.
 * Null otherwise (the route answers 404).
 */
export function getVisibleProfile(viewer: { id: string; role: string }, userId: string) {
  const everyone = viewer.role === "superadmin" || viewer.role === "abmadmin";
  return prisma.user.findFirst({
    where: {
      id: userId,
      ...(everyone
        ? {}
        : {
            OR: [
              { id: viewer.id },
              {
                memberships: {
                  some: {
                    status: "accepted",
                    careSite: { memberships: { some: { userId: viewer.id, status: "accepted" } } },
                  },
                },
              },
            ],
          }),
    },
    select: profileSelect,
  });
}
