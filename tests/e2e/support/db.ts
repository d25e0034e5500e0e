// Fixtures for the test server's SQLite file: make users, care sites, devices, sessions and
// invitations with the row factories the demo world is built from (prisma/factories), read the
// outbox. Rows are unique per call so parallel tests never share state.
// The async fixtures write through a Prisma client on the file; createCareSite and createDevice
// stay synchronous (the specs call them so) and insert the factory's row with better-sqlite3,
// which `db()` also gives the specs for their own reads.
import crypto from "node:crypto";
import path from "node:path";
import { hash } from "@node-rs/argon2";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import * as factories from "../../../prisma/factories";
import { E2E_DATA_DIR, TEST_SESSION_SECRET } from "./env";

export const PASSWORD = "Test-pass1!";
export const DEMO_PASSWORD = "Demo-pass1!";
let passwordHash: Promise<string> | null = null;

const databaseFile = () => path.join(E2E_DATA_DIR, "arc.db");

export function db() {
  const database = new Database(databaseFile());
  database.pragma("busy_timeout = 5000");
  return database;
}

// One Prisma client per Playwright worker, opened at its first use and kept for the worker's life:
// opening a client costs about 60 ms of CPU (a fresh one per call was 226 ms against 24 ms a
// session write on a loaded machine), and the fixtures make one or more rows in most tests. The
// test server's file is never replaced while the run lasts (the specs that need another database
// start a server on a directory of their own), and the worker's tests run one at a time.
let client: ReturnType<typeof factories.openDatabase> | null = null;

/** Runs `work` with the worker's Prisma client on the test server's file. */
export async function withPrisma<T>(work: (client: factories.Db) => Promise<T>) {
  client ??= factories.openDatabase(databaseFile());
  return work(client);
}

/** Inserts a factory's row as it is (the synchronous fixtures). */
function insertRow(table: string, row: object) {
  const values = Object.entries(row).filter(([, value]) => value !== undefined);
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "${table}" (${values.map(([c]) => `"${c}"`).join(", ")})
         VALUES (${values.map(() => "?").join(", ")})`,
      )
      .run(values.map(([, value]) => factories.storedValue(value)));
  } finally {
    database.close();
  }
}

function id(prefix: string) {
  return `${prefix}${crypto.randomBytes(6).toString("hex")}`;
}

export async function createUser(role: string, options: { careSiteIds?: string[] } = {}) {
  passwordHash ??= hash(PASSWORD);
  const username = id("e2e.");
  const hashed = await passwordHash;
  return withPrisma(async (client) => {
    const user = await factories.createUser(client, {
      id: id("u_"),
      username,
      passwordHash: hashed,
      role,
      firstName: "Erin",
      lastName: username,
    });
    for (const careSiteId of options.careSiteIds ?? []) {
      await factories.createMembership(client, {
        id: id("m_"),
        careSiteId,
        userId: user.id,
        role,
        createdAt: user.createdAt,
      });
    }
    const { email, phone } = user;
    return { id: user.id, username, email, phone, role };
  });
}

/** A new active care site in Chicago's zone; the name has no digits, so a search finds only it. */
export function createCareSite(namePrefix = "E2E Clinic") {
  const name = `${namePrefix} ${crypto.randomBytes(3).toString("hex").replace(/\d/g, "q")}`;
  const row = factories.buildCareSite({ id: id("cs_"), name });
  insertRow("CareSite", row);
  return { id: row.id!, name };
}

/** A provisioned device and its bearer token (only the token's sha256 is stored, as in production). */
export function createDevice(serial: string, type: "cough" | "clear" = "cough") {
  const { row, token } = factories.buildDevice({ id: id("d_"), serial, type });
  insertRow("Device", row);
  return { id: row.id!, serial, token };
}

export function anyCareSiteId() {
  const database = db();
  try {
    return (
      // A care site of the demo world (never one a test made, whose name may sort first).
      (
        database
          .prepare(`SELECT id FROM "CareSite" WHERE id LIKE 'seed-site-%' ORDER BY name LIMIT 1`)
          .get() as { id: string }
      ).id
    );
  } finally {
    database.close();
  }
}

export function userByUsername(username: string) {
  const database = db();
  try {
    return database
      .prepare(`SELECT id, phone, role FROM "User" WHERE username = ?`)
      .get(username) as {
      id: string;
      phone: string;
      role: string;
    };
  } finally {
    database.close();
  }
}

/** The newest sign-in code texted to a phone, read from the outbox table. */
export function latestCode(phone: string, after = 0) {
  const database = db();
  try {
    const row = database
      .prepare(
        `SELECT body FROM "OutboxMessage" WHERE "to" = ? AND channel = 'sms' AND createdAt >= ?
         ORDER BY createdAt DESC LIMIT 1`,
      )
      .get(phone, after) as { body: string } | undefined;
    return row?.body.match(/\b(\d{4})\b/)?.[1] ?? null;
  } finally {
    database.close();
  }
}

export function expireCodes(userId: string) {
  const database = db();
  try {
    database
      .prepare(`UPDATE "OneTimeCode" SET expiresAt = ? WHERE userId = ?`)
      .run(Date.now() - 1000, userId);
  } finally {
    database.close();
  }
}

const sessionCookie = createCookie("__arc_session", { secrets: [TEST_SESSION_SECRET] });

/** A signed-in session made directly in the database; returns the cookie value to send. */
export async function createSession(userId: string) {
  const session = await withPrisma((client) => factories.createSession(client, { userId }));
  const serialized = await sessionCookie.serialize(session.id);
  return serialized.split(";")[0].slice("__arc_session=".length);
}

/** The newest code emailed to an address (password reset by email), read from the outbox table. */
export function latestEmailCode(email: string, after = 0) {
  const database = db();
  try {
    const row = database
      .prepare(
        `SELECT body FROM "OutboxMessage" WHERE "to" = ? AND channel = 'email' AND createdAt >= ?
         ORDER BY createdAt DESC LIMIT 1`,
      )
      .get(email, after) as { body: string } | undefined;
    return row?.body.match(/\b(\d{4})\b/)?.[1] ?? null;
  } finally {
    database.close();
  }
}

/**
 * An invitation link's param1 as the app makes it (app/domain/invitations/token.server.ts):
 * `${invitationId}.${random}` signed with an HMAC keyed from the session secret.
 */
export function invitationToken(invitationId: string) {
  const payload = `${invitationId}.${crypto.randomBytes(16).toString("base64url")}`;
  const key = crypto.createHmac("sha256", TEST_SESSION_SECRET).update("invitation-token").digest();
  const signature = crypto.createHmac("sha256", key).update(payload).digest("base64url");
  const token = `${payload}.${signature}`;
  return { token, tokenHash: crypto.createHash("sha256").update(token).digest("hex") };
}

/**
 * An invitation row from a new super admin (or `inviterId`), for a new email address (or
 * `email`) with a valid link token; returns the token and the inviter.
 */
export async function createInvitation(
  options: {
    role?: string;
    careSiteId?: string | null;
    status?: string;
    expiresInMs?: number;
    email?: string;
    /** The sender (a user of a role that may invite this one); default a new super admin. */
    inviterId?: string;
  } = {},
) {
  const inviter = options.inviterId ? { id: options.inviterId } : await createUser("superadmin");
  const invitationId = id("i_");
  const email = options.email ?? `${id("e2e.inv.")}@example.test`;
  const { token, tokenHash } = invitationToken(invitationId);
  const careSiteId = options.careSiteId === undefined ? anyCareSiteId() : options.careSiteId;
  await withPrisma((client) =>
    factories.createInvitation(client, {
      id: invitationId,
      email,
      role: options.role ?? "clinician",
      careSiteId,
      invitedById: inviter.id,
      status: options.status ?? "pending",
      tokenHash,
      expiresAt: Date.now() + (options.expiresInMs ?? 24 * 3_600_000),
    }),
  );
  return { id: invitationId, email, token, inviterId: inviter.id };
}

export function invitationById(invitationId: string) {
  const database = db();
  try {
    return database
      .prepare(
        `SELECT id, email, role, careSiteId, status, membershipId FROM "Invitation" WHERE id = ?`,
      )
      .get(invitationId) as {
      id: string;
      email: string;
      role: string;
      careSiteId: string | null;
      status: string;
      membershipId: string | null;
    };
  } finally {
    database.close();
  }
}

/** A user found by username with their memberships, or undefined. */
export function registeredUser(username: string) {
  const database = db();
  try {
    const user = database
      .prepare(
        `SELECT id, username, email, phone, role, status, firstName, lastName FROM "User"
         WHERE username = ?`,
      )
      .get(username) as
      | {
          id: string;
          username: string;
          email: string;
          phone: string;
          role: string;
          status: string;
          firstName: string;
          lastName: string;
        }
      | undefined;
    if (!user) return undefined;
    const memberships = database
      .prepare(`SELECT id, careSiteId, role, status FROM "Membership" WHERE userId = ?`)
      .all(user.id) as { id: string; careSiteId: string; role: string; status: string }[];
    return { ...user, memberships };
  } finally {
    database.close();
  }
}

export function passwordHashOf(userId: string) {
  const database = db();
  try {
    return (
      database.prepare(`SELECT passwordHash FROM "User" WHERE id = ?`).get(userId) as {
        passwordHash: string;
      }
    ).passwordHash;
  } finally {
    database.close();
  }
}

/** A patient with an accepted membership at a care site. */
export function patientOf(careSiteId: string) {
  const database = db();
  try {
    const row = database
      .prepare(
        `SELECT userId FROM "Membership" WHERE careSiteId = ? AND role = 'patient' AND status = 'accepted' ORDER BY userId LIMIT 1`,
      )
      .get(careSiteId) as { userId: string };
    return row.userId;
  } finally {
    database.close();
  }
}
