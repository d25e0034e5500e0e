// The demo world of ARC Connect: three care sites, their staff, about 60 patients with devices and
// 90 days of therapy data ending yesterday (America/Chicago), invitations in every status, notification
// settings and one chat. Deterministic: every choice comes from a seeded PRNG; only the calendar
// ("today") follows the clock, so the shape of the world is the same on every run.
//
//   tsx prisma/seed.ts             resets the database (DATA_DIR/arc.db) and loads the demo world
//   tsx prisma/seed.ts --if-empty  loads it only when the User table is empty (npm start)
//
// The world is built by area under prisma/seed/ from the row factories of prisma/factories/ (the
// tests' too) and written through Prisma in one transaction (prisma/seed/write.ts).
// Not filled on purpose: DailyAdherence (computed by the adherence engine), NotificationSummary,
// OutboxMessage, Session, OneTimeCode, DeviceStat.
import fs from "node:fs";
import path from "node:path";
import { hash } from "@node-rs/argon2";
import { applyMigrations, migrationsDir, readMigrations } from "../app/lib/migrate.server";
import { openDatabase } from "./factories";
import { HOME_ZONE, dayOf } from "./seed/calendar";
import { addChat } from "./seed/chat";
import { addSpareDevices } from "./seed/devices";
import { addOpenInvitations } from "./seed/invitations";
import { addNotes, addNotificationSettings } from "./seed/notes";
import { addPatients } from "./seed/patients";
import { addCareSites, addStaff } from "./seed/staff";
import { newContext, type World } from "./seed/world";
import { writeWorld } from "./seed/write";

export { demoDeviceToken } from "./seed/devices";
export { tableCounts } from "./seed/write";

export const DEMO_PASSWORD = "Demo-pass1!";

/** The accounts a demo visitor signs in with (all share DEMO_PASSWORD). */
export const DEMO_ACCOUNTS = [
  { username: "demo.superadmin", role: "superadmin", label: "Super admin" },
  { username: "demo.abmadmin", role: "abmadmin", label: "ABM Admin" },
  { username: "demo.siteadmin", role: "clinicadmin", label: "Care Site Admin, 2 care sites" },
  { username: "demo.clinician", role: "clinician", label: "Clinician, 2 care sites" },
  {
    username: "demo.newclinician",
    role: "clinician",
    label: "Clinician, no care site yet (1 pending invitation)",
  },
] as const;

/** The world's rows (pure: same today, same rows, except the password hash). */
export function buildDemoWorld(today: Date, passwordHash: string): World {
  const ctx = newContext(today, passwordHash);
  addCareSites(ctx);
  const staff = addStaff(ctx);
  addOpenInvitations(ctx, staff);
  const notable = addPatients(ctx, staff);
  addSpareDevices(ctx);
  addNotes(ctx, staff, notable);
  addNotificationSettings(ctx, staff);
  addChat(ctx, staff, notable);
  return ctx.w;
}

export type SeedResult = { counts: Record<string, number>; ms: number; today: string };

/** Resets the database file (applying migrations first) and loads the demo world. */
export async function seedDemoWorld(
  databaseFile: string,
  today: Date = new Date(),
): Promise<SeedResult> {
  const started = performance.now();
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  applyMigrations(databaseFile, readMigrations(migrationsDir()));
  const passwordHash = await hash(DEMO_PASSWORD); // once: argon2 is slow on purpose
  const world = buildDemoWorld(today, passwordHash);
  const db = openDatabase(databaseFile);
  try {
    const counts = await writeWorld(db, world);
    return {
      counts,
      ms: Math.round(performance.now() - started),
      today: dayOf(today.getTime(), HOME_ZONE),
    };
  } finally {
    await db.$disconnect();
  }
}

/** Whether the database has users, and whether the demo's are among them. */
async function existingUsers(databaseFile: string) {
  const db = openDatabase(databaseFile);
  try {
    return {
      users: await db.user.count(),
      demo: await db.user.count({ where: { username: DEMO_ACCOUNTS[0].username } }),
    };
  } finally {
    await db.$disconnect();
  }
}

/** `tsx prisma/seed.ts [--if-empty]`, `arc-connect seed-demo [--if-empty]` */
export async function seedCommand(args: string[]) {
  const databaseFile = path.join(path.resolve(process.env.DATA_DIR ?? "data"), "arc.db");
  if (args.includes("--if-empty")) {
    applyMigrations(databaseFile, readMigrations(migrationsDir()));
    const { users, demo } = await existingUsers(databaseFile);
    if (users > 0) {
      console.log(`Database ${databaseFile} already has data; demo world not loaded again.`);
      if (demo > 0) printDemoAccounts();
      return;
    }
  }
  const { counts, ms, today } = await seedDemoWorld(databaseFile);
  // The adherence rows are the engine's to compute (app/domain/adherence/adherence.server.ts), through the
  // app's own client on the same DATA_DIR.
  const { rebuildAll } = await import("../app/domain/adherence/adherence.server");
  const rebuilt = await rebuildAll();
  console.log(`Adherence computed: ${rebuilt.rows} patient-days for ${rebuilt.patients} patients.`);
  console.log(
    `Demo world loaded into ${databaseFile} in ${ms} ms (therapy data up to the day before ${today}, America/Chicago).`,
  );
  const shown = Object.entries(counts).filter(([, n]) => n > 0);
  console.log(shown.map(([t, n]) => `${t} ${n}`).join(", "));
  printDemoAccounts();
}

function printDemoAccounts() {
  console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
  for (const a of DEMO_ACCOUNTS) console.log(`  ${a.username.padEnd(19)} ${a.label}`);
  console.log(
    "Sign-in codes are texted to the account's phone: without an SMS provider the server prints them.",
  );
  console.log("Demo device tokens: arc-demo-device-token-<serial>.");
}

const entry = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (/[\\/]prisma[\\/]seed(\.ts)?$/.test(entry)) {
  seedCommand(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
