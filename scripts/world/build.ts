// A world at scale (issue 23): the demo world (prisma/seed.ts: its accounts, care sites and 60
// patients) plus N patients over a big care site and ~20 smaller ones, each paired with a device and
// with D days of transmissions and therapies up to yesterday, deterministic from a seed.
//
//   npm run db:world -- --patients N --days D [--seed S] [--data-dir DIR] [--fresh]   (cli.ts)
//
// - The big site is the demo's "Hill Country Respiratory Care", where demo.siteadmin and
//   demo.clinician are accepted members: a person signing in sees it at scale. It gets about 90 % of
//   the N patients; the rest are spread over up to 20 smaller sites in several zones.
// - One "profile patient" (the big site's first) always has 730 days of data with cycles (6
//   therapies a day of 10 cycles), for the profile benchmark; the crowd gets no cycles (the
//   dashboard does not read them).
// - Rows are written with raw better-sqlite3 (prisma/factories/bulk.ts) in one transaction, day by
//   day as ingest would have left them (the data tables' secondary indexes made after the load,
//   no journal during it); ids are sequential ("w-tx-000000001") so the same arguments
//   give the same rows (the calendar follows the clock, as the demo seed's does, and password hashes
//   are salted).
// - Aggregates (DailyAdherence and whatever the app derives from the base rows) are computed by the
//   app's own rebuildAll(), in a child process pointed at the data directory (the app reads
//   DATA_DIR once per process), then rewritten in day order, then ANALYZE. AdherenceQueue stays empty.
// - world.json beside the database says what was built (WorldInfo), for the benchmarks.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import {
  EVERY_DAY,
  buildCareSite,
  buildDevice,
  buildMembership,
  buildPairing,
  buildPatientNote,
  buildPatientProfile,
  buildPrescription,
  buildTherapyGoal,
  buildUser,
  bulkWriters,
  pad,
} from "../../prisma/factories";
import { seedDemoWorld } from "../../prisma/seed";
import { at, dayOf, shiftDay, weekday } from "../../prisma/seed/calendar";
import {
  ADULT_CONDITIONS,
  ALLERGIES,
  BLOOD_TYPES,
  FEMALE,
  LAST,
  MALE,
  SITES,
} from "../../prisma/seed/content";
import { demoDeviceToken } from "../../prisma/seed/devices";
import { Rng } from "../../prisma/seed/random";

const ROOT = path.resolve(__dirname, "..", "..");

/** world.json: what the benchmarks read. Keep the key names. */
export type WorldInfo = {
  patients: number;
  days: number;
  seed: number;
  /** The last day with data (yesterday), YYYY-MM-DD in the big site's zone. */
  asOf: string;
  builtAt: string;
  /** The newest migration applied. */
  migration: string;
  bigSite: { id: string; name: string; patients: number };
  accounts: { superadmin: string; abmadmin: string; siteadmin: string; clinician: string };
  profilePatient: { patientId: string; careSiteId: string; pairId: string };
  rows: Record<string, number>;
};

export type BuildOptions = {
  dataDir: string;
  patients: number;
  days: number;
  seed?: number;
  fresh?: boolean;
  log?: (line: string) => void;
  /** The clock the world is built for (default now): data runs up to the day before. */
  now?: Date;
};

export const DEFAULT_SEED = 42;
export const PROFILE_DAYS = 730;
const PROFILE_PER_DAY = 6;
const PROFILE_CYCLES = 10;
const CROWD_CYCLES = 5;
/** Every tenth patient goes to a smaller site. */
const SMALL_SHARE = 10;
const MAX_SMALL_SITES = 20;
const NEVER_SHARE = 0.05;
const GOAL_CHANGE_SHARE = 0.1;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const SMALL_SITE_PLACES = [
  { city: "Houston", state: "Texas", zip: "77002", timeZone: "America/Chicago", area: "713" },
  { city: "Denver", state: "Colorado", zip: "80202", timeZone: "America/Denver", area: "720" },
  { city: "Phoenix", state: "Arizona", zip: "85004", timeZone: "America/Phoenix", area: "602" },
  { city: "Seattle", state: "Washington", zip: "98101", timeZone: "America/Los_Angeles", area: "206" }, // prettier-ignore
  { city: "Boston", state: "Massachusetts", zip: "02108", timeZone: "America/New_York", area: "617" }, // prettier-ignore
  { city: "Atlanta", state: "Georgia", zip: "30303", timeZone: "America/New_York", area: "404" },
  { city: "Minneapolis", state: "Minnesota", zip: "55401", timeZone: "America/Chicago", area: "612" }, // prettier-ignore
  { city: "San Diego", state: "California", zip: "92101", timeZone: "America/Los_Angeles", area: "619" }, // prettier-ignore
] as const;
const SMALL_SITE_KINDS = ["Respiratory Care", "Pulmonary Clinic", "Breathing Center", "Lung Health", "Home Respiratory Services"]; // prettier-ignore
const GOAL_DAY_SUBSETS = ["mon,tue,wed,thu,fri", "mon,wed,fri", "tue,thu,sat", "mon,tue,thu,fri,sat"]; // prettier-ignore

// ---------------------------------------------------------------------------------------------
// Randomness: a stream per label, from the seed
// ---------------------------------------------------------------------------------------------

/** A stream per label, from the world's seed (the demo seed's generator, prisma/seed/random.ts). */
const streamOf = (seed: number, label: string) =>
  new Rng(label, Math.imul(seed >>> 0, 0x9e3779b1) >>> 0);
type Stream = Rng;

// ---------------------------------------------------------------------------------------------
// The database file
// ---------------------------------------------------------------------------------------------

export const databaseFileOf = (dataDir: string) => path.join(path.resolve(dataDir), "arc.db");
export const worldFileOf = (dataDir: string) => path.join(path.resolve(dataDir), "world.json");

/** Tables other than SQLite's and the migrations' own. */
function userTables(db: Database.Database) {
  return (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND name <> '_prisma_migrations' ORDER BY name`,
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
}

/** Whether any table holds a row. */
function hasData(file: string) {
  if (!fs.existsSync(file)) return false;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return userTables(db).some((t) => db.prepare(`SELECT 1 FROM "${t}" LIMIT 1`).get() !== undefined); // prettier-ignore
  } finally {
    db.close();
  }
}

export function tableRows(db: Database.Database) {
  const rows: Record<string, number> = {};
  for (const t of userTables(db))
    rows[t] = (db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n;
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The crowd
// ---------------------------------------------------------------------------------------------

type Habit = "adherent" | "good" | "declining" | "erratic" | "poor" | "dropped" | "never";
const HABIT_WEIGHTS: [Habit, number][] = [
  ["adherent", 0.35],
  ["good", 0.2],
  ["declining", 0.1],
  ["erratic", 0.15],
  ["poor", 0.1],
  ["dropped", 0.1 - NEVER_SHARE],
  ["never", NEVER_SHARE],
];

function pickHabit(r: Stream): Habit {
  let x = r.next();
  for (const [habit, weight] of HABIT_WEIGHTS) {
    if (x < weight) return habit;
    x -= weight;
  }
  return "adherent";
}

type Site = { id: string; name: string; timeZone: string; adminId: string; big: boolean };

type Patient = {
  n: number;
  userId: string;
  deviceId: string;
  serial: string;
  pairingId: string;
  prescriptionId: string;
  site: Site;
  /** Days of data (up to yesterday): D for the crowd, 730 for the profile patient. */
  days: number;
  goals: { from: string; timesPerDay: number; days: Set<string> }[];
  habit: Habit | "profile";
  dropAfter: string | null;
  deviationRate: number;
  hmr: number;
  event: number;
  lastReceivedAt: number | null;
  r: Stream;
};

// ---------------------------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------------------------

type Phase = { label: string; seconds: number; cpu: number };

/** CPU seconds of this process (user + system) since `from`. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

export async function buildWorld(opts: BuildOptions): Promise<WorldInfo> {
  const log = opts.log ?? (() => {});
  const seed = opts.seed ?? DEFAULT_SEED;
  const { patients: N, days: D } = opts;
  if (!Number.isInteger(N) || N < 1) throw new Error(`patients must be a whole number ≥ 1, got ${N}`); // prettier-ignore
  if (!Number.isInteger(D) || D < 1) throw new Error(`days must be a whole number ≥ 1, got ${D}`);
  const dataDir = path.resolve(opts.dataDir);
  const file = databaseFileOf(dataDir);
  const now = opts.now ?? new Date();
  const started = performance.now();
  const phases: Phase[] = [];
  const phase = async <T>(
    label: string,
    work: () => T | Promise<T>,
    childCpu?: (r: T) => number,
  ) => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = await work();
    const cpu = cpuSince(c0) + (childCpu ? childCpu(result) : 0);
    phases.push({ label, seconds: (performance.now() - t0) / 1000, cpu });
    return result;
  };

  if (hasData(file)) {
    if (!opts.fresh)
      throw new Error(`${file} already has data: pass --fresh (fresh: true) to replace it.`);
    log(`Emptying ${file} (--fresh).`);
  }
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(file + suffix, { force: true });
  fs.rmSync(worldFileOf(dataDir), { force: true });
  fs.mkdirSync(dataDir, { recursive: true });

  // 1. The demo world (migrations applied as the seed applies them), through Prisma.
  log(`Demo world into ${file} ...`);
  await phase("demo world (prisma/seed.ts)", () => seedDemoWorld(file, now));

  // 2. The crowd, raw.
  const db = new Database(file);
  // During the load only: no journal (the rows go straight into the file instead of through a
  // write-ahead log as large as the world, then copied again), no fsync. A crash means building
  // again (--fresh). The app's WAL comes back after the load. (2,000 × 90: 6.3 s of CPU for the
  // load against 8.1 s through the WAL, and 40 % less wall time.)
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -400000");
  db.pragma("foreign_keys = OFF"); // consistent by construction (the test checks foreign_key_check)
  const w = bulkWriters(db, {
    CareSite: ["id", "accountNumber", "name", "email", "phone", "website", "addressLine1", "addressLine2", "city", "state", "zip", "country", "status", "timeZone", "photoId", "createdAt", "updatedAt"], // prettier-ignore
    User: ["id", "username", "email", "phone", "passwordHash", "role", "status", "firstName", "lastName", "speciality", "measuringUnit", "photoId", "addressLine1", "addressLine2", "city", "state", "zip", "country", "createdAt", "updatedAt"], // prettier-ignore
    PatientProfile: ["userId", "patientTag", "dateOfBirth", "gender", "bloodType", "heightIn", "weightLb", "existingCondition1", "existingCondition2", "existingCondition3", "allergy1", "allergy2", "allergy3", "updatedAt"], // prettier-ignore
    Membership: ["id", "careSiteId", "userId", "role", "status", "createdAt", "updatedAt", "acceptedAt"], // prettier-ignore
    Device: ["id", "serial", "type", "tokenHash", "createdAt", "lastSeenAt"],
    Pairing: ["id", "deviceId", "patientId", "careSiteId", "pairedById", "pairedAt", "unpairedAt"],
    Prescription: ["id", "deviceId", "mode", "cycles", "pauseP", "pauseT", "inspP", "inspT", "expP", "expT", "oscillation", "firstSeenAt", "isAdjustment"], // prettier-ignore
    TherapyGoal: ["id", "patientId", "pairingId", "timesPerDay", "days", "createdById", "createdAt"], // prettier-ignore
    PatientNote: ["id", "patientId", "careSiteId", "authorId", "body", "createdAt", "updatedAt"],
    Transmission: ["id", "deviceId", "pairingId", "patientId", "prescriptionId", "sentAt", "receivedAt", "hmr", "therapiesAccepted", "therapiesDuplicate", "deviatingTherapies", "therapyAdjustment"], // prettier-ignore
    Therapy: ["id", "deviceId", "eventId", "transmissionId", "prescriptionId", "pairingId", "patientId", "startedAt", "mode", "prescribedCycles", "cyclesDelivered", "completed", "deviates", "pauseP", "pauseT", "inspP", "inspT", "expP", "expT", "oscillation"], // prettier-ignore
    Cycle: ["id", "therapyId", "n", "peakInspP", "expVolume", "peakFlow", "spo2", "oscillation"],
  });

  const account = (username: string) => {
    const row = db.prepare(`SELECT id, passwordHash FROM "User" WHERE username = ?`).get(username) as { id: string; passwordHash: string } | undefined; // prettier-ignore
    if (!row) throw new Error(`the demo world has no ${username}`);
    return row;
  };
  const accounts = {
    superadmin: account("demo.superadmin").id,
    abmadmin: account("demo.abmadmin").id,
    siteadmin: account("demo.siteadmin").id,
    clinician: account("demo.clinician").id,
  };
  // Every account of the world signs in with the demo password.
  const passwordHash = account("demo.superadmin").passwordHash;
  const bigRow = db.prepare(`SELECT id, name, timeZone FROM "CareSite" WHERE id = ?`).get(SITES[0].id) as { id: string; name: string; timeZone: string }; // prettier-ignore
  const big: Site = { ...bigRow, adminId: accounts.siteadmin, big: true };
  const today = (zone: string) => dayOf(now.getTime(), zone);
  const asOf = shiftDay(today(big.timeZone), -1);

  const smallCount = Math.min(MAX_SMALL_SITES, Math.floor(N / SMALL_SHARE));
  const sites: Site[] = [];
  // The data tables' secondary indexes are dropped during the load and made again after it (a
  // sorted build instead of millions of inserts at random places); the rows themselves go in day
  // order. Their CREATE statements are the migrations' own, read back from sqlite_master.
  const deferred = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
         AND tbl_name IN ('Transmission', 'Therapy', 'Cycle') ORDER BY name`,
    )
    .all() as { name: string; sql: string }[];
  const world = await phase("crowd (raw better-sqlite3)", () => {
    const result = db.transaction(() => {
      for (const index of deferred) db.exec(`DROP INDEX "${index.name}"`);
      // Smaller care sites, each with an administrator.
      for (let s = 1; s <= smallCount; s++) {
        const r = streamOf(seed, `site:${s}`);
        const place = SMALL_SITE_PLACES[(s - 1) % SMALL_SITE_PLACES.length];
        const created = now.getTime() - (Math.max(D, PROFILE_DAYS) + r.int(40, 400)) * DAY;
        const site = buildCareSite({
          id: `w-site-${pad(s, 3)}`,
          accountNumber: `ARC9${pad(s, 8)}`,
          name: `${place.city} ${SMALL_SITE_KINDS[(s - 1) % SMALL_SITE_KINDS.length]} ${s}`,
          email: `info@site${s}.world.example`,
          phone: `1${place.area}555${pad(200 + s, 4)}`,
          city: place.city,
          state: place.state,
          zip: place.zip,
          timeZone: place.timeZone,
          addressLine1: `${r.int(100, 9899)} Main St`,
          createdAt: created,
        });
        w.CareSite.add(site);
        const adminId = `w-staff-${pad(s, 3)}`;
        const first = r.pick(r.chance(0.5) ? FEMALE : MALE);
        const last = r.pick(LAST);
        w.User.add(
          buildUser({
            id: adminId,
            username: `w.siteadmin${s}`,
            email: `w.siteadmin${s}@world.example`,
            phone: `1${place.area}555${pad(300 + s, 4)}`,
            passwordHash,
            role: "clinicadmin",
            firstName: first,
            lastName: last,
            speciality: "Care site administration",
            city: place.city,
            state: place.state,
            zip: place.zip,
            createdAt: created,
          }),
        );
        w.Membership.add(buildMembership({ id: `w-staff-member-${pad(s, 3)}`, careSiteId: site.id!, userId: adminId, role: "clinicadmin", createdAt: created })); // prettier-ignore
        sites.push({
          id: site.id!,
          name: site.name,
          timeZone: place.timeZone,
          adminId,
          big: false,
        });
      }

      // The patients, their devices, pairings, prescriptions and goals.
      const patients: Patient[] = [];
      let goals = 0;
      for (let n = 0; n < N; n++) {
        const r = streamOf(seed, `patient:${n}`);
        const profile = n === 0;
        const site = n % SMALL_SHARE === SMALL_SHARE - 1 && sites.length > 0 ? sites[Math.floor(n / SMALL_SHARE) % sites.length] : big; // prettier-ignore
        const days = profile ? PROFILE_DAYS : D;
        const siteToday = today(site.timeZone);
        const pairingDay = shiftDay(siteToday, -(days + 1));
        const pairedAt = at(pairingDay, 10 * 60 + r.int(0, 360), site.timeZone);
        const created = pairedAt - r.int(1, 20) * DAY;
        const num = pad(n + 1, 7);
        const userId = `w-user-${num}`;
        const female = r.chance(0.5);
        const firstName = profile ? "Robert" : r.pick(female ? FEMALE : MALE);
        const lastName = profile ? "Garcia" : r.pick(LAST);
        const username = `${firstName}.${lastName}.${n + 1}`.toLowerCase().replace(/[^a-z0-9.]/g, ""); // prettier-ignore
        w.User.add(
          buildUser({
            id: userId,
            username,
            email: `${username}@patients.world.example`,
            phone: `1512${pad(2_000_000 + n, 7)}`,
            passwordHash,
            role: "patient",
            firstName,
            lastName,
            createdAt: created,
          }),
        );
        const age = r.int(12, 88);
        w.PatientProfile.add(
          buildPatientProfile({
            userId,
            patientTag: `W-${num}`,
            dateOfBirth: `${Number(siteToday.slice(0, 4)) - age - 1}-${pad(r.int(1, 12), 2)}-${pad(r.int(1, 28), 2)}`, // prettier-ignore
            gender: profile || !female ? "Male" : "Female",
            bloodType: r.pick(BLOOD_TYPES),
            heightIn: r.int(58, 76),
            weightLb: r.int(95, 260),
            existingCondition1: r.pick(ADULT_CONDITIONS),
            allergy1: r.chance(0.4) ? r.pick(ALLERGIES) : null,
            updatedAt: created,
          }),
        );
        w.Membership.add(buildMembership({ id: `w-member-${num}`, careSiteId: site.id, userId, role: "patient", createdAt: created })); // prettier-ignore
        const serial = `W${num}`;
        const deviceId = `w-device-${num}`;
        w.Device.add(buildDevice({ id: deviceId, serial, token: demoDeviceToken(serial), createdAt: created - 30 * DAY }).row); // prettier-ignore
        const pairingId = `w-pair-${num}`;
        w.Pairing.add(buildPairing({ id: pairingId, deviceId, patientId: userId, careSiteId: site.id, pairedById: site.adminId, pairedAt })); // prettier-ignore
        const prescriptionId = `w-rx-${num}`;
        w.Prescription.add(
          buildPrescription({
            id: prescriptionId,
            deviceId,
            mode: "Auto",
            cycles: profile ? PROFILE_CYCLES : CROWD_CYCLES,
            pauseP: 0,
            pauseT: 10,
            inspP: 40,
            inspT: 20,
            expP: -40,
            expT: 15,
            oscillation: true,
            firstSeenAt: pairedAt,
          }),
        );

        // Goals: the first at pairing (it governs from the next day on); some on a weekday subset;
        // about 10 % changed in the last 30 days.
        const patientGoals: Patient["goals"] = [];
        const addGoal = (createdAt: number, timesPerDay: number, daysText: string) => {
          w.TherapyGoal.add(buildTherapyGoal({ id: `w-goal-${pad(++goals, 8)}`, patientId: userId, pairingId, timesPerDay, days: daysText, createdById: site.adminId, createdAt })); // prettier-ignore
          patientGoals.push({ from: shiftDay(dayOf(createdAt, site.timeZone), 1), timesPerDay, days: new Set(daysText.split(",")) }); // prettier-ignore
        };
        if (profile) {
          addGoal(pairedAt + HOUR, PROFILE_PER_DAY, EVERY_DAY);
          w.PatientNote.add(buildPatientNote({ id: "w-note-0000001", patientId: userId, careSiteId: site.id, authorId: accounts.clinician, body: "Tolerating therapy well.", createdAt: pairedAt + 90 * DAY })); // prettier-ignore
        } else {
          const r2 = r.next();
          const firstTimes = r2 < 0.05 ? 1 : r2 < 0.3 ? 2 : r2 < 0.7 ? 3 : 4;
          addGoal(pairedAt + HOUR, firstTimes, r.chance(0.2) ? r.pick(GOAL_DAY_SUBSETS) : EVERY_DAY); // prettier-ignore
          if (r.chance(GOAL_CHANGE_SHARE)) {
            const changeDay = shiftDay(siteToday, -r.int(1, Math.min(30, days)));
            addGoal(at(changeDay, r.int(9 * 60, 17 * 60), site.timeZone), firstTimes === 4 ? 3 : firstTimes + 1, r.chance(0.2) ? r.pick(GOAL_DAY_SUBSETS) : EVERY_DAY); // prettier-ignore
          }
        }
        const habit = profile ? "profile" : pickHabit(r);
        patients.push({
          n,
          userId,
          deviceId,
          serial,
          pairingId,
          prescriptionId,
          site,
          days,
          goals: patientGoals,
          habit,
          dropAfter: habit === "dropped" ? shiftDay(siteToday, -r.int(3, 40)) : null,
          deviationRate: r.pick([0, 0, 0.02, 0.05, 0.1, 0.3]),
          hmr: r.int(50, 900) + 0.5,
          event: 0,
          lastReceivedAt: null,
          r,
        });
      }
      w.flushAll();

      // The data, day by day (oldest first), every patient's evening transmission in turn: rows lie
      // in the tables in the order ingest would have left them.
      const zones = [...new Set([big.timeZone, ...sites.map((s) => s.timeZone)])];
      const maxDays = Math.max(D, PROFILE_DAYS);
      /** Per zone, per days-ago k (1..maxDays): the day and its local midnight. */
      const calendar = new Map(
        zones.map((zone) => {
          const t = today(zone);
          const list = Array.from({ length: maxDays + 1 }, (_, k) => {
            const day = shiftDay(t, -k);
            return { day, weekday: weekday(day), midnight: at(day, 0, zone) };
          });
          return [zone, list];
        }),
      );
      let tx = 0;
      let th = 0;
      let cy = 0;
      const therapyRow: unknown[] = new Array(20);
      for (let k = maxDays; k >= 1; k--) {
        if (k % 60 === 0) log(`  data: ${maxDays - k} of ${maxDays} days written (${w.Therapy.rows.toLocaleString("en-US")} therapies)`); // prettier-ignore
        for (const p of patients) {
          if (k > p.days || p.habit === "never") continue;
          const r = p.r;
          const { day, weekday: wd, midnight } = calendar.get(p.site.timeZone)![k];
          const progress = (p.days - k) / Math.max(1, p.days - 1);
          let goal = p.goals[0];
          for (const g of p.goals) if (g.from <= day) goal = g;
          let count = 0;
          if (p.habit === "profile") {
            for (let t = 0; t < PROFILE_PER_DAY + (r.chance(0.03) ? 1 : 0); t++) if (r.next() <= 0.995) count++; // prettier-ignore
          } else {
            const usage =
              p.habit === "adherent" ? 0.96
              : p.habit === "good" ? 0.85
              : p.habit === "declining" ? 0.95 - 0.9 * progress
              : p.habit === "erratic" ? r.next()
              : p.habit === "poor" ? 0.4
              : p.dropAfter !== null && day > p.dropAfter ? 0
              : 0.9; // prettier-ignore
            if (goal.days.has(wd)) {
              for (let t = 0; t < goal.timesPerDay; t++) if (r.next() < usage) count++;
              if (usage > 0 && r.chance(0.05)) count++;
            } else if (r.next() < 0.3 * usage) count = 1;
          }
          if (count === 0) continue;

          const profile = p.habit === "profile";
          const cycles = profile ? PROFILE_CYCLES : CROWD_CYCLES;
          const sentAt = midnight + 21 * HOUR + r.int(0, 3_540) * 1000;
          const receivedAt = sentAt + r.int(2, 30) * 1000;
          const transmissionId = `w-tx-${pad(++tx, 9)}`;
          const firstTherapy = th;
          let deviating = 0;
          const rows: unknown[][] = [];
          for (let t = 0; t < count; t++) {
            const hour = profile ? 7 + 2 * t : 8 + Math.floor((12 / count) * t) + r.int(0, 1);
            const startedAt = midnight + hour * HOUR + r.int(0, profile ? 5_400 : 3_599) * 1000;
            const completed = r.next() < (profile ? 0.97 : 0.93);
            const deviates = !completed || r.next() < (profile ? 0.02 : p.deviationRate);
            if (deviates) deviating++;
            const delivered = completed ? cycles : r.int(profile ? 3 : 1, cycles - 1);
            const inspP = deviates && completed ? 44 : 40;
            therapyRow[0] = `w-th-${pad(++th, 10)}`;
            therapyRow[1] = p.deviceId;
            therapyRow[2] = `E-${p.serial}-${++p.event}`;
            therapyRow[3] = transmissionId;
            therapyRow[4] = p.prescriptionId;
            therapyRow[5] = p.pairingId;
            therapyRow[6] = p.userId;
            therapyRow[7] = startedAt;
            therapyRow[8] = "Auto";
            therapyRow[9] = cycles;
            therapyRow[10] = delivered;
            therapyRow[11] = completed ? 1 : 0;
            therapyRow[12] = deviates ? 1 : 0;
            therapyRow[13] = 0;
            therapyRow[14] = 10;
            therapyRow[15] = inspP;
            therapyRow[16] = 20;
            therapyRow[17] = -40;
            therapyRow[18] = 15;
            therapyRow[19] = 1;
            rows.push(therapyRow.slice());
            p.hmr += profile ? 0.15 : 0.25;
          }
          w.Transmission.push([transmissionId, p.deviceId, p.pairingId, p.userId, p.prescriptionId, sentAt, receivedAt, Math.round(p.hmr * 10) / 10, count, 0, deviating, 0]); // prettier-ignore
          p.lastReceivedAt = receivedAt;
          for (const row of rows) w.Therapy.push(row);
          if (profile) {
            // Cycles: flow and volume improve slowly over the years; SpO2 only with the oximeter.
            const progress2 = (PROFILE_DAYS - k) / PROFILE_DAYS;
            for (let t = 0; t < rows.length; t++) {
              const flow = 170 + 60 * progress2 + 20 * (r.next() - 0.5);
              const volume = 1_150 + 250 * progress2 + 150 * (r.next() - 0.5);
              const oximeter = r.chance(0.6);
              const therapyId = `w-th-${pad(firstTherapy + t + 1, 10)}`;
              const inspP = rows[t][15] as number;
              for (let c = 1; c <= (rows[t][10] as number); c++)
                w.Cycle.push([`w-cy-${pad(++cy, 9)}`, therapyId, c, Math.round((inspP + 4 * (r.next() - 0.5)) * 10) / 10, Math.round(volume + 80 * (r.next() - 0.5)), Math.round((flow + 25 * (r.next() - 0.5)) * 10) / 10, oximeter ? r.int(92, 99) : null, 1]); // prettier-ignore
            }
          }
        }
      }
      w.flushAll();
      for (const index of deferred) db.exec(index.sql);
      const seen = db.prepare(`UPDATE "Device" SET lastSeenAt = ? WHERE id = ?`);
      for (const p of patients) if (p.lastReceivedAt !== null) seen.run(p.lastReceivedAt, p.deviceId); // prettier-ignore
      return { profile: patients[0] };
    })();
    db.pragma("journal_mode = WAL");
    db.pragma("wal_checkpoint(TRUNCATE)");
    return result;
  });
  const written = w.all().map((x) => ({ table: x.table, rows: x.rows, seconds: x.ms / 1000 }));

  // 3. The aggregates, by the app's own rebuild, in a process of its own on this DATA_DIR. The
  // tables it fills (empty until now) lose their non-unique indexes meanwhile (upserts need the
  // unique ones): inserting into DailyAdherence's (day, score) index at random places cost more
  // than twice the row itself (19 against 8 µs a row measured here). Made again after step 4.
  log("Aggregates by the app's rebuildAll() ...");
  const emptyBefore = userTables(db).filter((t) => db.prepare(`SELECT 1 FROM "${t}" LIMIT 1`).get() === undefined); // prettier-ignore
  const aggregateIndexes = emptyBefore.length === 0 ? [] : (db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
      AND sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN (${emptyBefore.map(() => "?").join(", ")}) ORDER BY name`)
    .all(...emptyBefore) as { name: string; sql: string }[]); // prettier-ignore
  for (const index of aggregateIndexes) db.exec(`DROP INDEX "${index.name}"`);
  const rebuilt = await phase("rebuildAll() (child process)", () => runRebuild(dataDir, now), (r) => r.cpu); // prettier-ignore
  const aggregateTables = emptyBefore.filter((t) => db.prepare(`SELECT 1 FROM "${t}" LIMIT 1`).get() !== undefined); // prettier-ignore

  // 4. Aggregate rows by day (DailyAdherence), in day order as a database grown a day at a time
  // holds them (rebuildAll writes patient by patient): a day's rows of a site lie together.
  await phase("aggregates rewritten in day order", () => {
    for (const table of aggregateTables) {
      const info = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; pk: number }[]; // prettier-ignore
      if (!info.some((c) => c.name === "day")) continue;
      const cols = info.map((c) => `"${c.name}"`).join(", ");
      const order = ["day", ...info.filter((c) => c.pk > 0 && c.name !== "day").sort((a, b) => a.pk - b.pk).map((c) => c.name)]; // prettier-ignore
      const copy = `_world_${table}`;
      db.transaction(() => {
        db.exec(`DROP TABLE IF EXISTS "${copy}"`);
        db.exec(`CREATE TABLE "${copy}" AS SELECT ${cols} FROM "${table}"`);
        db.exec(`DELETE FROM "${table}"`);
        db.exec(`INSERT INTO "${table}" (${cols}) SELECT ${cols} FROM "${copy}" ORDER BY ${order.map((c) => `"${c}"`).join(", ")}`); // prettier-ignore
        db.exec(`DROP TABLE "${copy}"`);
      })();
    }
  });
  await phase("aggregates' indexes made again", () => {
    for (const index of aggregateIndexes) db.exec(index.sql);
  });
  db.exec(`DELETE FROM "AdherenceQueue"`);
  await phase("ANALYZE", () => db.exec("ANALYZE"));
  db.pragma("wal_checkpoint(TRUNCATE)");

  const rows = tableRows(db);
  const migration = (db.prepare(`SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name DESC LIMIT 1`).get() as { name: string }).name; // prettier-ignore
  const bigPatients = (db.prepare(`SELECT COUNT(*) AS n FROM "Membership" WHERE careSiteId = ? AND role = 'patient' AND status = 'accepted'`).get(big.id) as { n: number }).n; // prettier-ignore
  db.pragma("synchronous = FULL"); // the app's setting (app/lib/db.server.ts configureDatabase)
  db.close();

  const seconds = (performance.now() - started) / 1000;
  const info: WorldInfo = {
    patients: N,
    days: D,
    seed,
    asOf,
    builtAt: new Date().toISOString(),
    migration,
    bigSite: { id: big.id, name: big.name, patients: bigPatients },
    accounts,
    profilePatient: { patientId: world.profile.userId, careSiteId: world.profile.site.id, pairId: world.profile.pairingId }, // prettier-ignore
    rows,
  };
  fs.writeFileSync(worldFileOf(dataDir), JSON.stringify(info, null, 2) + "\n");

  // The report: rows, seconds and rows/s per table, and per phase.
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  const fmt = (v: number) => v.toLocaleString("en-US");
  const line = (label: string, n: number, s: number) =>
    `  ${label.padEnd(44)} ${fmt(n).padStart(12)} ${s.toFixed(1).padStart(8)} s ${(s > 0 ? fmt(Math.round(n / s)) : "-").padStart(12)} rows/s`; // prettier-ignore
  log(
    `World of ${fmt(N)} patients × ${fmt(D)} days (seed ${seed}) in ${file}, data up to ${asOf}.`,
  );
  log(`  ${"table (time inside SQLite's INSERTs)".padEnd(44)} ${"rows".padStart(12)} ${"seconds".padStart(10)} ${"rate".padStart(19)}`); // prettier-ignore
  for (const x of written) if (x.rows > 0) log(line(x.table, x.rows, x.seconds));
  const aggregates = Object.entries(rows).filter(([t]) => aggregateTables.includes(t));
  const rebuildSeconds = phases.find((p) => p.label.startsWith("rebuildAll"))!.seconds;
  for (const [t, n] of aggregates) log(line(`${t} (rebuildAll: ${fmt(rebuilt.rows)} rows)`, n, rebuildSeconds)); // prettier-ignore
  log("  phases:");
  for (const p of phases) log(`    ${p.label.padEnd(42)} ${p.seconds.toFixed(1).padStart(8)} s  (CPU ${p.cpu.toFixed(1)} s)`); // prettier-ignore
  const cpu = phases.reduce((a, p) => a + p.cpu, 0);
  const size = fs.statSync(file).size;
  log(line("all tables", total, seconds));
  log(line("all tables, per CPU second (this process and the child)", total, cpu));
  log(`  database ${(size / 1024 / 1024).toFixed(0)} MB; world.json beside it.`);
  return info;
}

/** rebuildAll() of the app on DATA_DIR=dataDir, in a child process (scripts/world/rebuild.ts). */
function runRebuild(dataDir: string, now: Date) {
  return new Promise<{ patients: number; rows: number; cpu: number }>((resolve, reject) => {
    const output: string[] = [];
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "scripts", "world", "rebuild.ts"), String(now.getTime())],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "development" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const text = output.join("");
      const last = text.trim().split("\n").at(-1) ?? "";
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last));
      else reject(new Error(`rebuildAll failed (exit ${code}):\n${text}`));
    });
  });
}
