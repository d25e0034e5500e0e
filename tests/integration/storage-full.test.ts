// Faults of the storage (issue 18 item 10) on a real SQLite file: a COMMIT that fails, and a full
// disk under load. A full disk is made with SQLite's own limit, `PRAGMA max_page_count` (set per
// connection, on the Prisma connection and the device API's): a write that needs a new page then
// fails with SQLITE_FULL, the code a real ENOSPC gives; raising it is "space returns".
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { STORAGE_FULL_MESSAGE, StorageFullError } from "~/lib/storage.server";
import { checkReadiness } from "~/jobs/lifecycle.server";
import { readMigrations } from "~/lib/migrate.server";
import { createDevice } from "~/domain/devices/device.server";
import { deviceForToken } from "~/domain/devices/ingestDb.server";
import { verifyPassword } from "~/domain/accounts/user.server";
import { action as security, loader as securityLoader } from "~/routes/app.PasswordAndSecurity";
import { startDeviceApiServer } from "../support/deviceApiServer";
import { createUser, PASSWORD, uid } from "../support/factories";
import { MIGRATIONS_DIR } from "../support/paths";
import { bodyOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";
import { STANDARD_PRESCRIPTION } from "../../scripts/sim/client";

const expected = readMigrations(MIGRATIONS_DIR).map((m) => m.name);

let api: Awaited<ReturnType<typeof startDeviceApiServer>>;
beforeAll(async () => {
  api = await startDeviceApiServer();
});
afterAll(async () => {
  await api.close();
});

/** The device API's own connection (domain/devices/ingestDb.server.ts keeps it on globalThis). */
function ingestDb(serial: string) {
  deviceForToken(serial); // opens it
  return (globalThis as unknown as { __arcIngestDb: { db: Database.Database } }).__arcIngestDb.db;
}

async function setMaxPages(pages: number, ingest: Database.Database) {
  await prisma.$queryRawUnsafe(`PRAGMA max_page_count = ${pages}`);
  ingest.pragma(`max_page_count = ${pages}`);
}

/** Lowers the limit to the file's size, then writes until nothing more fits (rows ever smaller). */
async function fillTheDisk(ingest: Database.Database) {
  const [{ page_count }] =
    await prisma.$queryRawUnsafe<{ page_count: bigint }[]>("PRAGMA page_count");
  await setMaxPages(Number(page_count), ingest);
  for (const size of [8_000, 1_000, 100, 1]) {
    for (let i = 0; i < 100_000; i++) {
      try {
        await prisma.auditEvent.create({
          data: { action: "test.fill", detail: "x".repeat(size) },
          select: { id: true },
        });
      } catch (error) {
        expect(error).toBeInstanceOf(StorageFullError);
        break;
      }
    }
  }
}

function transmission(eventId: string) {
  return {
    sentAt: "2026-11-20T23:10:00Z",
    hmr: 1234.5,
    prescription: STANDARD_PRESCRIPTION,
    therapies: [
      {
        eventId,
        startedAt: "2026-11-20T14:00:00Z",
        mode: "Auto",
        delivered: { P_P: 0, P_T: 10, I_P: 40, I_T: 20, E_P: -40, E_T: 15, O_F: 1 },
        cycles: Array.from({ length: 5 }, (_, i) => ({
          n: i + 1,
          P_IP: 38,
          E_V: 1200,
          P_F: 250,
          SPO2: 96,
          O_F: 1,
        })),
      },
    ],
  };
}

function post(device: { serial: string; token: string }, eventId: string) {
  return fetch(`${api.url}/api/v1/devices/${device.serial}/transmissions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${device.token}` },
    body: JSON.stringify(transmission(eventId)),
  });
}

describe("a COMMIT that fails", () => {
  it("is rolled back and leaves the connection to the next query", async () => {
    const action = uid("test.commit.");
    // A deferred foreign key is checked at COMMIT: the COMMIT fails, as on a full disk.
    const failed = await prisma
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe("PRAGMA defer_foreign_keys = ON");
        await tx.auditEvent.create({ data: { action, actorId: "nobody" }, select: { id: true } });
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(String(failed)).toMatch(/ForeignKey|FOREIGN KEY/i);
    // The next queries answer (before: they waited for ever), and nothing of it was kept.
    expect(await prisma.auditEvent.count({ where: { action } })).toBe(0);
    await prisma.auditEvent.create({ data: { action }, select: { id: true } });
    expect(await prisma.auditEvent.count({ where: { action } })).toBe(1);
    await prisma.$transaction(async (tx) => {
      await tx.auditEvent.create({ data: { action }, select: { id: true } });
    });
    expect(await prisma.auditEvent.count({ where: { action } })).toBe(2);
  });
});

describe("a full disk under load", () => {
  it("answers 503 'storage full' meanwhile, readiness fails, and everything answers again once space returns", async () => {
    const user = await createUser();
    const browser = await signedInBrowser(user.id);
    const made = await createDevice({
      serial: uid("SN").replace(/[^A-Za-z0-9]/g, ""),
      type: "cough",
    });
    if (!made.ok) throw new Error(made.error);
    const device = { id: made.device.id, serial: made.device.serial, token: made.token };
    const ingest = ingestDb(device.serial);
    const changePassword = (to: string, from = PASSWORD) =>
      browser.run(
        security,
        browser.post("/app/PasswordAndSecurity", {
          panel: "password",
          intent: "password",
          oldPassword: from,
          newPassword: to,
          confirmPassword: to,
        }),
      );

    try {
      await fillTheDisk(ingest);
      // Devices keep sending until the device API's tables are full too: what got a 202 is kept.
      let acknowledged = 0;
      for (let i = 0; i < 10_000; i++) {
        const answer = await post(device, `E-fill-${i}`);
        if (answer.status !== 202) {
          expect(answer.status).toBe(503);
          break;
        }
        acknowledged++;
      }
      expect(await prisma.transmission.count({ where: { deviceId: device.id } })).toBe(
        acknowledged,
      );

      // Under load: devices sending, a page write, a page read, model writes, all at once.
      const [devices, page, read, writes] = await Promise.all([
        Promise.all(Array.from({ length: 8 }, (_, i) => post(device, `E-full-${i}`))),
        changePassword("Better-pass2?"),
        browser.run(securityLoader, browser.get("/app/PasswordAndSecurity")),
        Promise.allSettled(
          Array.from({ length: 5 }, () =>
            prisma.auditEvent.create({ data: { action: "test.load" }, select: { id: true } }),
          ),
        ),
      ]);
      for (const answer of devices) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get("Retry-After")).toBe("60");
        expect(await answer.json()).toMatchObject({
          type: expect.stringMatching(/storage-full$/),
          status: 503,
        });
      }
      expect(await prisma.transmission.count({ where: { deviceId: device.id } })).toBe(
        acknowledged,
      );
      // The page that writes says so, in words, with 503; the page that reads answers.
      expect(statusOf(page)).toBe(503);
      expect(await (page as Response).text()).toBe(STORAGE_FULL_MESSAGE);
      expect(statusOf(read)).toBe(200);
      for (const w of writes) {
        expect(w.status).toBe("rejected");
        expect((w as PromiseRejectedResult).reason).toBeInstanceOf(StorageFullError);
      }
      const full = await checkReadiness(expected);
      expect(full.ready).toBe(false);
      expect(full.database).toMatch(/^storage full/);

      // Space returns: no restart, the same connections.
      await setMaxPages(1_000_000_000, ingest);
      const again = await Promise.all(
        Array.from({ length: 8 }, (_, i) => post(device, `E-back-${i}`)),
      );
      for (const answer of again) expect(answer.status).toBe(202);
      expect(await prisma.transmission.count({ where: { deviceId: device.id } })).toBe(
        acknowledged + 8,
      );
      // (The password change is not one transaction with its audit event: the new password may
      // have been stored before the audit event failed.)
      const { passwordHash } = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      const current = (await verifyPassword(passwordHash, PASSWORD)) ? PASSWORD : "Better-pass2?";
      const changed = await changePassword("Better-pass3?", current);
      expect(statusOf(changed)).not.toBe(503);
      expect(await bodyOf(changed).catch(() => ({}))).not.toMatchObject({
        formError: expect.anything(),
      });
      await prisma.auditEvent.create({ data: { action: "test.load" }, select: { id: true } });
      expect((await checkReadiness(expected)).database).toBe("ok");
    } finally {
      await setMaxPages(1_000_000_000, ingest);
      await prisma.auditEvent.deleteMany({ where: { action: { in: ["test.fill", "test.load"] } } });
    }
  }, 120_000);
});
