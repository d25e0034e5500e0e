// The demo world (prisma/seed.ts): loads into a fresh database, re-runs cleanly, has the shape the
// demo and the dashboards rely on.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoWorld, type SeedResult } from "../../prisma/seed";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-seed-"));
const databaseFile = path.join(dir, "arc.db");
const today = new Date("2026-11-21T15:00:00Z");
let first: SeedResult;
let second: SeedResult;
let db: Database.Database;

beforeAll(async () => {
  first = await seedDemoWorld(databaseFile, today);
  second = await seedDemoWorld(databaseFile, today);
  db = new Database(databaseFile, { readonly: true });
}, 60_000);

afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const count = (sql: string, ...params: unknown[]) =>
  (db.prepare(sql).get(...params) as { n: number }).n;
const acceptedSites = (username: string) =>
  count(
    `SELECT COUNT(*) AS n FROM Membership m JOIN User u ON u.id = m.userId WHERE u.username = ? AND m.status = 'accepted'`,
    username,
  );

describe("demo world", () => {
  it("re-seeding gives the same counts", () => {
    expect(second.counts).toEqual(first.counts);
    expect(first.counts.User).toBeGreaterThan(60);
    expect(first.counts.Therapy).toBeGreaterThan(1000);
    expect(first.counts.DailyAdherence).toBe(0);
  });

  it("has the demo accounts with their roles", () => {
    const rows = db
      .prepare(`SELECT username, role FROM User WHERE username LIKE 'demo.%' ORDER BY username`)
      .all() as { username: string; role: string }[];
    const roles = Object.fromEntries(rows.map((r) => [r.username, r.role]));
    expect(roles["demo.superadmin"]).toBe("superadmin");
    expect(roles["demo.abmadmin"]).toBe("abmadmin");
    expect(roles["demo.siteadmin"]).toBe("clinicadmin");
    expect(roles["demo.clinician"]).toBe("clinician");
    expect(roles["demo.newclinician"]).toBe("clinician");
  });

  it("puts the clinician in two care sites and the new clinician in none", () => {
    expect(acceptedSites("demo.clinician")).toBe(2);
    expect(acceptedSites("demo.siteadmin")).toBe(2);
    expect(acceptedSites("demo.newclinician")).toBe(0);
    expect(
      count(
        `SELECT COUNT(*) AS n FROM Invitation i JOIN User u ON u.email = i.email WHERE u.username = 'demo.newclinician' AND i.status = 'pending'`,
      ),
    ).toBe(1);
  });

  it("has invitations in every status, with unique tokens and an ABM admin one without a care site", () => {
    const statuses = (
      db.prepare(`SELECT DISTINCT status FROM Invitation`).all() as { status: string }[]
    ).map((r) => r.status);
    expect(statuses.sort()).toEqual(["accepted", "blocked", "pending", "rejected", "resend"]);
    expect(
      count(`SELECT COUNT(*) AS n FROM Invitation WHERE role = 'abmadmin' AND careSiteId IS NULL`),
    ).toBeGreaterThan(0);
    expect(count(`SELECT COUNT(DISTINCT tokenHash) AS n FROM Invitation`)).toBe(
      first.counts.Invitation,
    );
  });

  it("has 50 to 70 patients with health data, spread over three care sites", () => {
    const patients = count(`SELECT COUNT(*) AS n FROM User WHERE role = 'patient'`);
    expect(patients).toBeGreaterThanOrEqual(50);
    expect(patients).toBeLessThanOrEqual(70);
    expect(first.counts.PatientProfile).toBe(patients);
    expect(
      count(
        `SELECT COUNT(DISTINCT careSiteId) AS n FROM Membership WHERE role = 'patient' AND status = 'accepted'`,
      ),
    ).toBe(3);
  });

  it("has a paired patient that never transmitted and one without a device", () => {
    expect(
      count(
        `SELECT COUNT(*) AS n FROM Pairing p WHERE p.unpairedAt IS NULL
           AND NOT EXISTS (SELECT 1 FROM Transmission t WHERE t.patientId = p.patientId)`,
      ),
    ).toBeGreaterThan(0);
    expect(
      count(
        `SELECT COUNT(*) AS n FROM User u WHERE u.role = 'patient' AND NOT EXISTS (SELECT 1 FROM Pairing p WHERE p.patientId = u.id)`,
      ),
    ).toBeGreaterThan(0);
    expect(count(`SELECT COUNT(*) AS n FROM Pairing WHERE unpairedAt IS NOT NULL`)).toBe(1);
  });

  it("stores times as epoch milliseconds and ends therapy data yesterday", () => {
    expect(db.prepare(`SELECT typeof(createdAt) AS t FROM User LIMIT 1`).get()).toEqual({
      t: "integer",
    });
    const last = count(`SELECT MAX(startedAt) AS n FROM Therapy`);
    expect(last).toBeLessThan(today.getTime());
    expect(last).toBeGreaterThan(today.getTime() - 2 * 86_400_000);
    const firstTherapy = count(`SELECT MIN(startedAt) AS n FROM Therapy`);
    expect(firstTherapy).toBeGreaterThan(today.getTime() - 92 * 86_400_000);
  });

  it("marks deviating therapies by the DESIGN.md §5 rule", () => {
    expect(
      count(
        `SELECT COUNT(*) AS n FROM Therapy t JOIN Transmission x ON x.id = t.transmissionId
           JOIN Prescription r ON r.id = x.prescriptionId
         WHERE t.deviates <> (t.cyclesDelivered < r.cycles OR abs(t.pauseP - r.pauseP) > 2
           OR abs(t.inspP - r.inspP) > 2 OR abs(t.expP - r.expP) > 2 OR abs(t.pauseT - r.pauseT) > 5
           OR abs(t.inspT - r.inspT) > 5 OR abs(t.expT - r.expT) > 5 OR t.oscillation <> r.oscillation)`,
      ),
    ).toBe(0);
    expect(count(`SELECT COUNT(*) AS n FROM Therapy WHERE deviates = 1`)).toBeGreaterThan(0);
    expect(
      count(
        `SELECT COUNT(*) AS n FROM Therapy WHERE completed <> (cyclesDelivered >= prescribedCycles)`,
      ),
    ).toBe(0);
  });
});
