// Fixtures that talk to the test server's SQLite file directly: make users and sessions, read the
// outbox. Rows are unique per call so parallel tests never share state.
import crypto from "node:crypto";
import path from "node:path";
import { hash } from "@node-rs/argon2";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { E2E_DATA_DIR, TEST_SESSION_SECRET } from "./env";

export const PASSWORD = "Test-pass1!";
export const DEMO_PASSWORD = "Demo-pass1!";
let passwordHash: Promise<string> | null = null;

export function db() {
  const database = new Database(path.join(E2E_DATA_DIR, "arc.db"));
  database.pragma("busy_timeout = 5000");
  return database;
}

function id(prefix: string) {
  return `${prefix}${crypto.randomBytes(6).toString("hex")}`;
}

export async function createUser(role: string, options: { careSiteIds?: string[] } = {}) {
  passwordHash ??= hash(PASSWORD);
  const username = id("e2e.");
  const userId = id("u_");
  const now = Date.now();
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "User" (id, username, email, phone, passwordHash, role, status, firstName, lastName,
           measuringUnit, country, createdAt, updatedAt)
         VALUES (?, ?, ?, ?, ?, ?, 'active', 'Erin', ?, 'Imperial', 'United States', ?, ?)`,
      )
      .run(
        userId,
        username,
        `${username}@example.test`,
        `1512${crypto.randomInt(1e6, 1e7)}`,
        await passwordHash,
        role,
        username,
        now,
        now,
      );
    for (const careSiteId of options.careSiteIds ?? []) {
      database
        .prepare(
          `INSERT INTO "Membership" (id, careSiteId, userId, role, status, createdAt, updatedAt, acceptedAt)
           VALUES (?, ?, ?, ?, 'accepted', ?, ?, ?)`,
        )
        .run(id("m_"), careSiteId, userId, role, now, now, now);
    }
    return database
      .prepare(`SELECT id, username, email, phone, role FROM "User" WHERE id = ?`)
      .get(userId) as {
      id: string;
      username: string;
      email: string;
      phone: string;
      role: string;
    };
  } finally {
    database.close();
  }
}

/** A new active care site in Chicago's zone; the name has no digits, so a search finds only it. */
export function createCareSite(namePrefix = "E2E Clinic") {
  const careSiteId = id("cs_");
  const name = `${namePrefix} ${crypto.randomBytes(3).toString("hex").replace(/\d/g, "q")}`;
  const now = Date.now();
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "CareSite" (id, name, city, state, zip, country, status, timeZone, createdAt, updatedAt)
         VALUES (?, ?, 'Austin', 'Texas', '78701', 'United States', 'active', 'America/Chicago', ?, ?)`,
      )
      .run(careSiteId, name, now, now);
  } finally {
    database.close();
  }
  return { id: careSiteId, name };
}

/** A provisioned device and its bearer token (only the token's sha256 is stored, as in production). */
export function createDevice(serial: string, type: "cough" | "clear" = "cough") {
  const deviceId = id("d_");
  const token = crypto.randomBytes(32).toString("base64url");
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "Device" (id, serial, type, tokenHash, createdAt) VALUES (?, ?, ?, ?, ?)`,
      )
      .run(
        deviceId,
        serial,
        type,
        crypto.createHash("sha256").update(token).digest("hex"),
        Date.now(),
      );
  } finally {
    database.close();
  }
  return { id: deviceId, serial, token };
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
  const sessionId = crypto.randomBytes(32).toString("base64url");
  const now = Date.now();
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "Session" (id, userId, data, createdAt, authenticatedAt, lastSeenAt, expiresAt)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        sessionId,
        userId,
        JSON.stringify({ userId, authenticatedAt: now }),
        now,
        now,
        now,
        now + 12 * 3_600_000,
      );
  } finally {
    database.close();
  }
  const serialized = await sessionCookie.serialize(sessionId);
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

/** An invitation row for a new email address with a valid link token; returns the token. */
export async function createInvitation(
  options: {
    role?: string;
    careSiteId?: string | null;
    status?: string;
    expiresInMs?: number;
  } = {},
) {
  const inviter = await createUser("superadmin");
  const invitationId = id("i_");
  const email = `${id("e2e.inv.")}@example.test`;
  const { token, tokenHash } = invitationToken(invitationId);
  const now = Date.now();
  const database = db();
  try {
    database
      .prepare(
        `INSERT INTO "Invitation" (id, email, role, careSiteId, invitedById, status, tokenHash,
           expiresAt, createdAt, updatedAt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        invitationId,
        email,
        options.role ?? "clinician",
        options.careSiteId === undefined ? anyCareSiteId() : options.careSiteId,
        inviter.id,
        options.status ?? "pending",
        tokenHash,
        now + (options.expiresInMs ?? 24 * 3_600_000),
        now,
        now,
      );
  } finally {
    database.close();
  }
  return { id: invitationId, email, token };
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
