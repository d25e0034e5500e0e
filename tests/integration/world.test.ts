// The world builder (npm run db:world, scripts/world/build.ts) on a tiny world: deterministic from
// its seed, the demo accounts at work in the big site, the profile patient's two years, an empty
// AdherenceQueue, and aggregates equal to what the app's rebuildAll() computes from the base rows.
// World B is built into this worker's own DATA_DIR (copied from the migrated template by
// tests/support/worker-setup.ts, not opened before), so the app imported afterwards reads it.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROFILE_DAYS, buildWorld, worldFileOf, type WorldInfo } from "../../scripts/world/build";
import { runDir } from "../support/paths";

const NOW = new Date("2026-11-21T15:00:00Z");
const OPTIONS = { patients: 30, days: 10, seed: 7, now: NOW };

let dirA: string;
let dirB: string;
let a: WorldInfo;
let b: WorldInfo;

const open = (dir: string) => new Database(path.join(dir, "arc.db"), { readonly: true });
const firstPatients = (dir: string) => {
  const db = open(dir);
  try {
    return db
      .prepare(
        `SELECT id, firstName, lastName FROM "User" WHERE id LIKE 'w-user-%' ORDER BY id LIMIT 5`,
      )
      .all();
  } finally {
    db.close();
  }
};
const dailyRows = (dir: string) => {
  const db = open(dir);
  try {
    return db.prepare(`SELECT * FROM "DailyAdherence" ORDER BY patientId, day`).raw().all();
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  dirA = path.join(runDir(), `world-a-${process.pid}`);
  dirB = process.env.DATA_DIR!;
  a = await buildWorld({ ...OPTIONS, dataDir: dirA });
  b = await buildWorld({ ...OPTIONS, dataDir: dirB, fresh: true });
}, 600_000);

afterAll(() => {
  if (dirA) fs.rmSync(dirA, { recursive: true, force: true });
});

describe("npm run db:world", () => {
  it("builds the same world twice from the same seed, and writes world.json", () => {
    expect(b.rows).toEqual(a.rows);
    expect(firstPatients(dirB)).toEqual(firstPatients(dirA));
    expect(firstPatients(dirA)).toHaveLength(5);
    expect(a.rows.Transmission).toBeGreaterThan(0);
    expect(a.rows.Therapy).toBeGreaterThan(a.rows.Transmission);
    expect(a.rows.DailyAdherence).toBeGreaterThan(0);
    const written = JSON.parse(fs.readFileSync(worldFileOf(dirB), "utf8")) as WorldInfo;
    expect(written).toEqual(b);
    expect(Object.keys(written).sort()).toEqual(
      ["accounts", "asOf", "bigSite", "builtAt", "days", "migration", "patients", "profilePatient", "rows", "seed"], // prettier-ignore
    );
    expect(written).toMatchObject({ patients: 30, days: 10, seed: 7, asOf: "2026-11-20" });
    expect(written.migration).toBe(fs.readdirSync(path.resolve("prisma", "migrations")).filter((n) => /^\d/.test(n)).sort().at(-1)); // prettier-ignore
  });

  it("refuses a database that has data unless asked for a fresh one", async () => {
    await expect(buildWorld({ ...OPTIONS, dataDir: dirA })).rejects.toThrow(/already has data/);
  });

  it("keeps the demo accounts, demo.siteadmin and demo.clinician accepted in the big site", () => {
    const db = open(dirB);
    try {
      const members = db
        .prepare(
          `SELECT u.username, m.role FROM "Membership" m JOIN "User" u ON u.id = m.userId
           WHERE m.careSiteId = ? AND m.status = 'accepted' AND u.username LIKE 'demo.%'
           ORDER BY u.username`,
        )
        .all(b.bigSite.id);
      expect(members).toEqual([
        { username: "demo.clinician", role: "clinician" },
        { username: "demo.siteadmin", role: "clinicadmin" },
      ]);
      const ids = db
        .prepare(`SELECT username, id FROM "User" WHERE username LIKE 'demo.%'`)
        .all() as { username: string; id: string }[];
      const byName = Object.fromEntries(ids.map((r) => [r.username, r.id]));
      expect(b.accounts).toEqual({
        superadmin: byName["demo.superadmin"],
        abmadmin: byName["demo.abmadmin"],
        siteadmin: byName["demo.siteadmin"],
        clinician: byName["demo.clinician"],
      });
      expect(byName["demo.newclinician"]).toBeDefined();
      // Most of the patients are in the big site; the rest in smaller ones.
      const perSite = db
        .prepare(
          `SELECT careSiteId, COUNT(*) AS n FROM "Membership" WHERE role = 'patient' AND status = 'accepted'
             AND userId LIKE 'w-user-%' GROUP BY careSiteId ORDER BY n DESC`,
        )
        .all() as { careSiteId: string; n: number }[];
      expect(perSite[0]).toEqual({ careSiteId: b.bigSite.id, n: 27 });
      expect(perSite.length).toBeGreaterThan(1);
      const bigPatients = db
        .prepare(
          `SELECT COUNT(*) AS n FROM "Membership" WHERE careSiteId = ? AND role = 'patient' AND status = 'accepted'`,
        )
        .get(b.bigSite.id) as { n: number };
      expect(b.bigSite.patients).toBe(bigPatients.n);
      expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("gives the profile patient 730 days of data with cycles, in the big site", () => {
    expect(b.profilePatient.careSiteId).toBe(b.bigSite.id);
    const db = open(dirB);
    try {
      const { patientId, pairId } = b.profilePatient;
      const days = db
        .prepare(
          `SELECT COUNT(*) AS n, MAX(day) AS last FROM "DailyAdherence" WHERE patientId = ? AND therapies > 0`,
        )
        .get(patientId);
      expect(days).toEqual({ n: PROFILE_DAYS, last: "2026-11-20" });
      const pairing = db.prepare(`SELECT patientId, careSiteId FROM "Pairing" WHERE id = ?`).get(pairId); // prettier-ignore
      expect(pairing).toEqual({ patientId, careSiteId: b.bigSite.id });
      const cycles = db
        .prepare(
          `SELECT COUNT(*) AS n FROM "Cycle" c JOIN "Therapy" t ON t.id = c.therapyId WHERE t.patientId = ?`,
        )
        .get(patientId) as { n: number };
      expect(cycles.n).toBeGreaterThan(PROFILE_DAYS * 6 * 9);
    } finally {
      db.close();
    }
  });

  it("leaves AdherenceQueue empty and DailyAdherence as the app's rebuildAll() computes it", async () => {
    expect(b.rows.AdherenceQueue).toBe(0);
    const built = dailyRows(dirB);
    const { rebuildAll } = await import("~/domain/adherence/adherence.server");
    const { prisma, disconnectDatabase } = await import("~/lib/db.server");
    await prisma.$executeRawUnsafe(`DELETE FROM "DailyAdherence"`);
    const again = await rebuildAll(NOW);
    expect(again.rows).toBe(built.length);
    expect(dailyRows(dirB)).toEqual(built);
    expect(await prisma.adherenceQueue.count()).toBe(0);
    await disconnectDatabase();
  });
});
