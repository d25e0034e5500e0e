import crypto from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import {
  currentMembership,
  readStaffSites,
  usersVisibleTo,
  type Actor,
} from "~/domain/access.server";
import type { User } from "~/generated/prisma/client";
import { prisma } from "~/lib/db.server";
import { readRow } from "~/lib/reader.server";
import { accountKey } from "~/domain/accounts/accountKey";
import { isSiteRole } from "~/domain/roles";
import { ALPHABETS_REGEX, EMAIL_REGEX, USERNAME_REGEX } from "~/lib/validation";
import { isValidPhone, storedPhone } from "~/domain/phone";
import { audit } from "../audit.server";

// A real argon2id hash of a random password: verifying against it when no user matches keeps the
// time of a failed sign-in the same whether or not the account exists.
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$BqL58qumfa+YI23qi6CFhw$lkGmy7k8YaGkjpKot6SZk1GhrHMkyqtPy/PZfg63aEA";

export function hashPassword(password: string) {
  return hash(password);
}

/**
 * The active account a username or email names (the sign-in lookup), or null. Both compare
 * whatever the letter case, as they are unique (a username holds no "@", so the two never meet).
 */
export function findAccountByLogin(usernameOrEmail: string) {
  const key = accountKey(usernameOrEmail);
  return prisma.user.findFirst({
    where: { OR: [{ usernameKey: key }, { emailKey: key }], status: "active" },
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
    where: currentMembership({ userId }),
    select: { id: true },
  });
  return membership !== null;
}

/**
 * What every signed-in page needs about the user (the shell, the guards, their Actor): read on
 * the request path's connection (lib/reader.server.ts), as every page reads it twice.
 */
export async function getShellUser(userId: string) {
  const user = readRow<
    Pick<
      User,
      | "id"
      | "username"
      | "email"
      | "firstName"
      | "lastName"
      | "role"
      | "status"
      | "photoId"
      | "measuringUnit"
    >
  >(
    `SELECT "id", "username", "email", "firstName", "lastName", "role", "status", "photoId",
            "measuringUnit"
     FROM "User" WHERE "id" = ?`,
    userId,
  );
  if (!user || user.status !== "active") return null;
  // The care sites of the pickers: the same places the user's Actor holds.
  const staffSites = readStaffSites(userId);
  const careSites = staffSites.map((s) => ({ id: s.careSiteId, name: s.name }));
  // isAssociatedClinic (spec 1 §2.3) concerns care site staff; the provider's admins have no
  // care site and are never hidden from their dashboard (docs/decisions.md).
  const isAssociatedClinic = !isSiteRole(user.role) || careSites.length > 0;
  return {
    ...user,
    careSites,
    staffSites: staffSites.map((s) => ({ careSiteId: s.careSiteId, role: s.role })),
    isAssociatedClinic,
  };
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
 * Another user's profile as the actor may see it (spec 1 §2.8; access.server.ts usersVisibleTo):
 * the provider's admins see anyone; everyone else themselves and users who hold an accepted
 * membership at one of their care sites. Null otherwise (the route answers 404).
 */
export function getVisibleProfile(actor: Actor, userId: string) {
  return prisma.user.findFirst({
    where: { AND: [{ id: userId }, usersVisibleTo(actor)] },
    select: profileSelect,
  });
}

// ---------------------------------------------------------------------------------------------
// The first accounts of a new installation (`arc-connect superadmin-add`)
// ---------------------------------------------------------------------------------------------

export type SuperadminInput = {
  username: string;
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
};

/**
 * Creates a Super admin with a generated password, shown once to whoever runs the command; the
 * new admin signs in with it and a code texted to `phone`, then sets their own on Password and
 * Security. Super admins are not invited (invitations carry the other roles), so a new
 * installation starts here. Resolves to the password, or to the reasons the input is refused.
 */
export async function createSuperadmin(input: SuperadminInput) {
  const username = input.username.trim();
  const email = input.email.trim().toLowerCase();
  // With its country code, a valid number of its country (domain/phone.ts), stored as E.164 digits.
  const phone = storedPhone(input.phone);
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  const errors: string[] = [];
  if (!USERNAME_REGEX.test(username) || username.length > 50)
    errors.push("username: letters, digits and . _ - (at most 50)");
  if (!EMAIL_REGEX.test(email)) errors.push("email: not a valid address");
  if (!isValidPhone(input.phone))
    errors.push("phone: the mobile number with its country code, e.g. +15125550123");
  if (!ALPHABETS_REGEX.test(firstName)) errors.push("first name: letters and spaces");
  if (!ALPHABETS_REGEX.test(lastName)) errors.push("last name: letters and spaces");
  if (errors.length) return { ok: false as const, errors };
  const taken = await prisma.user.findFirst({
    where: { OR: [{ usernameKey: accountKey(username) }, { emailKey: accountKey(email) }] },
    select: { usernameKey: true },
  });
  if (taken) {
    return {
      ok: false as const,
      errors: [
        taken.usernameKey === accountKey(username)
          ? "username: already taken"
          : "email: already taken",
      ],
    };
  }
  // 18 random characters plus one of each class the password rules ask for.
  const password = `${crypto.randomBytes(14).toString("base64url")}aA1!`;
  const user = await prisma.$transaction(async (tx) => {
    const created = await tx.user.create({
      data: {
        username,
        email,
        phone,
        firstName,
        lastName,
        role: "superadmin",
        passwordHash: await hashPassword(password),
      },
      select: { id: true },
    });
    await audit(
      {
        action: "user.created",
        targetType: "user",
        targetId: created.id,
        detail: { role: "superadmin", by: "command line" },
      },
      tx,
    );
    return created;
  });
  return { ok: true as const, userId: user.id, password };
}
