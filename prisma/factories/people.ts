// Accounts, care sites, memberships, invitations and sessions. build* returns the row (every
// field the caller left out gets a unique or usual value); create* writes it.
import crypto from "node:crypto";
import type { Prisma } from "../../app/generated/prisma/client";
import { type Db, type Time, optionalDate, toDate } from "./client";
import { uid } from "./ids";

type UserInput = Omit<Partial<Prisma.UserCreateManyInput>, "createdAt" | "updatedAt"> & {
  passwordHash: string;
  createdAt?: Time;
  updatedAt?: Time;
};

export function buildUser(input: UserInput): Prisma.UserCreateManyInput {
  const username = input.username ?? uid("user");
  const createdAt = toDate(input.createdAt ?? Date.now());
  return {
    role: "clinician",
    status: "active",
    firstName: "Test",
    lastName: username,
    measuringUnit: "Imperial",
    country: "United States",
    ...input,
    id: input.id,
    username,
    email: (input.email ?? `${username}@example.test`).toLowerCase(),
    phone: input.phone ?? `1512${crypto.randomInt(2_000_000, 10_000_000)}`,
    createdAt,
    updatedAt: toDate(input.updatedAt ?? createdAt),
  };
}

export function createUser(db: Db, input: UserInput) {
  return db.user.create({ data: buildUser(input) });
}

type ProfileInput = Omit<Prisma.PatientProfileCreateManyInput, "updatedAt"> & { updatedAt?: Time };

export function buildPatientProfile(input: ProfileInput): Prisma.PatientProfileCreateManyInput {
  return { ...input, updatedAt: toDate(input.updatedAt ?? Date.now()) };
}

type CareSiteInput = Omit<Partial<Prisma.CareSiteCreateManyInput>, "createdAt" | "updatedAt"> & {
  createdAt?: Time;
  updatedAt?: Time;
};

export function buildCareSite(input: CareSiteInput = {}): Prisma.CareSiteCreateManyInput {
  const createdAt = toDate(input.createdAt ?? Date.now());
  return {
    id: input.id,
    name: uid("Site "),
    city: "Austin",
    state: "Texas",
    zip: "78701",
    country: "United States",
    status: "active",
    timeZone: "America/Chicago",
    ...input,
    createdAt,
    updatedAt: toDate(input.updatedAt ?? createdAt),
  };
}

export function createCareSite(db: Db, input: CareSiteInput = {}) {
  return db.careSite.create({ data: buildCareSite(input) });
}

type MembershipInput = {
  id?: string;
  careSiteId: string;
  userId: string;
  role: string;
  status?: string;
  createdAt?: Time;
  updatedAt?: Time;
  /** Defaults to createdAt for an accepted membership. */
  acceptedAt?: Time | null;
};

export function buildMembership(input: MembershipInput): Prisma.MembershipCreateManyInput {
  const status = input.status ?? "accepted";
  const createdAt = toDate(input.createdAt ?? Date.now());
  const acceptedAt =
    input.acceptedAt !== undefined
      ? optionalDate(input.acceptedAt)
      : status === "accepted"
        ? createdAt
        : null;
  return {
    id: input.id,
    careSiteId: input.careSiteId,
    userId: input.userId,
    role: input.role,
    status,
    createdAt,
    updatedAt: toDate(input.updatedAt ?? acceptedAt ?? createdAt),
    acceptedAt,
  };
}

export function createMembership(db: Db, input: MembershipInput) {
  return db.membership.create({ data: buildMembership(input) });
}

type InvitationInput = Omit<
  Partial<Prisma.InvitationCreateManyInput>,
  "expiresAt" | "createdAt" | "updatedAt"
> & {
  invitedById: string;
  tokenHash: string;
  expiresAt?: Time;
  createdAt?: Time;
  updatedAt?: Time;
};

export function buildInvitation(input: InvitationInput): Prisma.InvitationCreateManyInput {
  const createdAt = toDate(input.createdAt ?? Date.now());
  return {
    id: input.id,
    email: (input.email ?? `${uid("invitee")}@example.test`).toLowerCase(),
    role: input.role ?? "clinician",
    careSiteId: input.careSiteId ?? null,
    invitedById: input.invitedById,
    membershipId: input.membershipId ?? null,
    status: input.status ?? "pending",
    tokenHash: input.tokenHash,
    expiresAt: toDate(input.expiresAt ?? createdAt.getTime() + 7 * 86_400_000),
    createdAt,
    updatedAt: toDate(input.updatedAt ?? createdAt),
  };
}

export function createInvitation(db: Db, input: InvitationInput) {
  return db.invitation.create({ data: buildInvitation(input) });
}

/** A signed-in session (both sign-in steps done) lasting `hours`; the caller signs its id. */
export function createSession(db: Db, input: { userId: string; at?: Time; hours?: number }) {
  const at = toDate(input.at ?? Date.now());
  return db.session.create({
    data: {
      id: crypto.randomBytes(32).toString("base64url"),
      userId: input.userId,
      data: JSON.stringify({ userId: input.userId, authenticatedAt: at.getTime() }),
      createdAt: at,
      authenticatedAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + (input.hours ?? 12) * 3_600_000),
    },
  });
}
