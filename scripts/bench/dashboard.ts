// The care site dashboard (domain/adherence/dashboard.server.ts) on a care site of 2,000 patients with a year
// of therapy data (about 1.5 million therapies), against a floor: the same SQL run directly through
// better-sqlite3.
//
//   npm run bench:dashboard          (tsx scripts/bench/dashboard.ts; run from the project root so
//                                     tsx reads tsconfig.json and resolves the app's "~/" imports)
//   options: --runs N (timed runs per case, default 50), --keep (keep the temporary DATA_DIR and
//            print its path, for experiments on the same data), --no-write (print only)
//
// It migrates a temporary database with the app's own runner and bulk-inserts the world with
// better-sqlite3 in one transaction (DateTime columns as integer ms, booleans 0/1, as the app stores
// them). Cycle rows are not written: the dashboard never reads them, and they would multiply the
// build time. Only then it imports the app's modules with DATA_DIR pointing at the database,
// computes DailyAdherence with the app's own rebuildAll(), runs ANALYZE and measures:
//   - the loader's work, dashboardOf(...) (careSiteDashboard after its care-site check) with no
//     list (the cards' counts), week (default) and
//     month ranges;
//   - each of the 9 category lists, page 1, default sort (last name), week range;
//   - the CSV of the biggest list (dashboardCsvOf, dashboardCsv after its care-site check);
// and for each the floor: the SQL the adherence query helpers run (copied from
// domain/adherence/adherence.server.ts), plus for a list withPeople's name/photo/pairing statement, executed on
// a better-sqlite3 connection of its own. 5 warm-up calls, then N timed; median and 95th
// percentile. Targets (the issue): p95 under 100 ms, and within 3× of the floor (median to
// median). It prints a table with the query plans and rewrites its own section of
// docs/performance.md (between the dashboard markers; the rest of that file is kept).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { TZDate } from "@date-fns/tz";
import Database from "better-sqlite3";
import { applyMigrations, readMigrations } from "../../app/lib/migrate.server";
import {
  type Contention,
  contentionMeter,
  markdownTable as table,
  quantile,
  queryPlanLines,
  sectionMarkers,
  writeSection,
} from "./support";

const ROOT = path.resolve(__dirname, "..", "..");
const { start: START_MARKER, end: END_MARKER } = sectionMarkers("dashboard");

const ZONE = "America/Chicago";
const PATIENTS = 2_000;
const DAYS = 365;
const NEVER_SHARE = 0.05;
const GOAL_CHANGE_SHARE = 0.1;
/** Other care sites with patients and no data, so Membership statistics look like a shared database. */
const OTHER_SITES = 80;
const OTHER_SITE_PATIENTS = 100;
const WARMUP = 5;
const RUNS = Math.max(10, Number(argValue("runs") ?? 50));
const P95_TARGET_MS = 100;
const FLOOR_TARGET = 3;

const FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen", "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Betty", "Mark", "Sandra", "Donald", "Ashley", "Steven", "Maria", "Andrew", "Emily", "Kenneth", "Donna", "Joshua", "Michelle", "Kevin", "Carol"]; // prettier-ignore
const LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts"]; // prettier-ignore
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
const ALL_WEEK = "mon,tue,wed,thu,fri,sat,sun";
const GOAL_DAY_SUBSETS = [
  "mon,tue,wed,thu,fri",
  "mon,wed,fri",
  "tue,thu,sat",
  "mon,tue,thu,fri,sat",
];

function argValue(name: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** mulberry32: a fixed seed, so every run builds the same world (ids aside). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(20261121);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

// ---------------------------------------------------------------------------------------------
// Days in the care site's zone
// ---------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const dayToUtc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const addDays = (day: string, n: number) =>
  new Date(dayToUtc(day) + n * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (day: string) => WEEKDAYS[new Date(dayToUtc(day)).getUTCDay()];
/** The instant a calendar day begins in the zone. */
function dayStart(day: string) {
  const [y, m, d] = day.split("-").map(Number);
  return new TZDate(y, m - 1, d, ZONE).getTime();
}
function todayInZone(now: number) {
  const t = new TZDate(now, ZONE);
  return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, "0")}-${String(t.getDate()).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------------------------
// The world
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
function pickHabit(): Habit {
  let r = random();
  for (const [habit, weight] of HABIT_WEIGHTS) {
    if (r < weight) return habit;
    r -= weight;
  }
  return "adherent";
}
/** Goals of 1-4 therapies a day, most of them 3 or 4. */
const timesPerDayPick = () => {
  const r = random();
  return r < 0.05 ? 1 : r < 0.3 ? 2 : r < 0.7 ? 3 : 4;
};

type World = {
  file: string;
  careSiteId: string;
  patients: number;
  never: number;
  goals: number;
  goalChanges: number;
  subsetGoals: number;
  transmissions: number;
  therapies: number;
  habits: Record<string, number>;
};

function buildWorld(dir: string, now: number): World {
  const file = path.join(dir, "arc.db");
  applyMigrations(file, readMigrations(path.join(ROOT, "prisma", "migrations")));
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -1000000");
  // The rows are consistent by construction; checking every foreign key would double the time.
  db.pragma("foreign_keys = OFF");
  const id = () => crypto.randomUUID();
  const q = {
    site: db.prepare(
      `INSERT INTO "CareSite" (id, accountNumber, name, city, state, zip, country, status, timeZone, createdAt, updatedAt)
       VALUES (?, ?, ?, 'Chicago', 'Illinois', '60601', 'United States', 'active', ?, ?, ?)`,
    ),
    lastSeen: db.prepare(`UPDATE "Device" SET lastSeenAt = ? WHERE id = ?`),
    user: db.prepare(
      `INSERT INTO "User" (id, username, email, phone, passwordHash, role, status, firstName, lastName, measuringUnit, country, createdAt, updatedAt)
       VALUES (?, ?, ?, ?, 'x', ?, 'active', ?, ?, 'Imperial', 'United States', ?, ?)`,
    ),
    membership: db.prepare(
      `INSERT INTO "Membership" (id, careSiteId, userId, role, status, createdAt, updatedAt, acceptedAt)
       VALUES (?, ?, ?, ?, 'accepted', ?, ?, ?)`,
    ),
    device: db.prepare(
      `INSERT INTO "Device" (id, serial, type, tokenHash, createdAt, lastSeenAt) VALUES (?, ?, 'cough', 'x', ?, ?)`,
    ),
    pairing: db.prepare(
      `INSERT INTO "Pairing" (id, deviceId, patientId, careSiteId, pairedById, pairedAt) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    prescription: db.prepare(
      `INSERT INTO "Prescription" (id, deviceId, mode, cycles, pauseP, pauseT, inspP, inspT, expP, expT, oscillation, firstSeenAt, isAdjustment)
       VALUES (?, ?, 'Auto', 5, 0, 10, 40, 20, -40, 15, 1, ?, 0)`,
    ),
    goal: db.prepare(
      `INSERT INTO "TherapyGoal" (id, patientId, pairingId, timesPerDay, days, createdById, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    transmission: db.prepare(
      `INSERT INTO "Transmission" (id, deviceId, pairingId, patientId, prescriptionId, sentAt, receivedAt, hmr, therapiesAccepted, therapiesDuplicate, deviatingTherapies, therapyAdjustment)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0)`,
    ),
    therapy: db.prepare(
      `INSERT INTO "Therapy" (id, deviceId, eventId, transmissionId, prescriptionId, pairingId, patientId, startedAt, mode, prescribedCycles, cyclesDelivered, completed, deviates, pauseP, pauseT, inspP, inspT, expP, expT, oscillation)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Auto', 5, ?, ?, ?, 0, 10, ?, 20, -40, 15, 1)`,
    ),
  };

  const today = todayInZone(now);
  const pairingDay = addDays(today, -(DAYS + 1));
  const days = Array.from({ length: DAYS }, (_, i) => addDays(today, -DAYS + i)); // oldest first
  const starts = new Map(days.map((d) => [d, dayStart(d)]));
  const pairedAt = dayStart(pairingDay) + 10 * 3_600_000;
  const careSiteId = id();
  const world: World = {
    file,
    careSiteId,
    patients: PATIENTS,
    never: 0,
    goals: 0,
    goalChanges: 0,
    subsetGoals: 0,
    transmissions: 0,
    therapies: 0,
    habits: {},
  };

  db.transaction(() => {
    q.site.run(careSiteId, "BENCH-1", "Bench Respiratory Care", ZONE, pairedAt - 30 * DAY_MS, pairedAt - 30 * DAY_MS); // prettier-ignore
    const adminId = id();
    q.user.run(adminId, "bench.admin", "bench.admin@example.test", "15125550000", "clinicadmin", "Avery", "Admin", pairedAt - 30 * DAY_MS, pairedAt - 30 * DAY_MS); // prettier-ignore
    q.membership.run(id(), careSiteId, adminId, "clinicadmin", pairedAt - 30 * DAY_MS, pairedAt - 30 * DAY_MS, pairedAt - 30 * DAY_MS); // prettier-ignore

    // Other care sites' patients (no devices): the Membership statistics of a shared database.
    for (let k = 0; k < OTHER_SITES; k++) {
      const siteId = id();
      q.site.run(siteId, `BENCH-${k + 2}`, `Other Care ${k + 2}`, ZONE, pairedAt, pairedAt);
      for (let i = 0; i < OTHER_SITE_PATIENTS; i++) {
        const userId = id();
        const first = pick(FIRST);
        const last = pick(LAST);
        q.user.run(userId, `bench.other${k}.${i}`, `${first}.${last}.${k}.${i}@example.test`.toLowerCase(), `1513${String(2_000_000 + k * 1000 + i)}`, "patient", first, last, pairedAt, pairedAt); // prettier-ignore
        q.membership.run(id(), siteId, userId, "patient", pairedAt, pairedAt, pairedAt);
      }
    }

    type Patient = {
      userId: string;
      deviceId: string;
      serial: string;
      pairingId: string;
      prescriptionId: string;
      goals: { effectiveFrom: string; timesPerDay: number; days: Set<string> }[];
      habit: Habit;
      dropAfter: string | null;
      deviationRate: number;
      hmr: number;
      event: number;
    };
    const patients: Patient[] = [];
    for (let n = 0; n < PATIENTS; n++) {
      const userId = id();
      const first = pick(FIRST);
      const last = pick(LAST);
      const created = pairedAt - int(1, 20) * DAY_MS;
      q.user.run(userId, `bench.patient${n}`, `${first}.${last}.${n}@example.test`.toLowerCase(), `1512${String(2_000_000 + n)}`, "patient", first, last, created, created); // prettier-ignore
      q.membership.run(id(), careSiteId, userId, "patient", created, created, created);
      const deviceId = id();
      const serial = `BN${String(100_000 + n)}`;
      const pairingId = id();
      const prescriptionId = id();
      q.device.run(deviceId, serial, pairedAt, null);
      q.pairing.run(pairingId, deviceId, userId, careSiteId, adminId, pairedAt);
      q.prescription.run(prescriptionId, deviceId, pairedAt);

      // Goals: the first set at pairing (it governs from the next day on); some patients have a
      // weekday subset; about 10 % had it changed in the last 30 days.
      const goals: Patient["goals"] = [];
      const addGoal = (at: number, createdDay: string, timesPerDay: number, daysText: string) => {
        q.goal.run(id(), userId, pairingId, timesPerDay, daysText, adminId, at);
        goals.push({ effectiveFrom: addDays(createdDay, 1), timesPerDay, days: new Set(daysText.split(",")) }); // prettier-ignore
        world.goals++;
      };
      const subset = random() < 0.2;
      if (subset) world.subsetGoals++;
      const firstTimes = timesPerDayPick();
      addGoal(pairedAt, pairingDay, firstTimes, subset ? pick(GOAL_DAY_SUBSETS) : ALL_WEEK);
      if (random() < GOAL_CHANGE_SHARE) {
        const changeDay = addDays(today, -int(1, 30));
        const times = firstTimes === 4 ? 3 : firstTimes + 1;
        addGoal(dayStart(changeDay) + int(9, 17) * 3_600_000, changeDay, times, random() < 0.2 ? pick(GOAL_DAY_SUBSETS) : ALL_WEEK); // prettier-ignore
        world.goalChanges++;
      }

      const habit = pickHabit();
      world.habits[habit] = (world.habits[habit] ?? 0) + 1;
      if (habit === "never") {
        world.never++;
        continue;
      }
      patients.push({
        userId,
        deviceId,
        serial,
        pairingId,
        prescriptionId,
        goals,
        habit,
        dropAfter: habit === "dropped" ? addDays(today, -int(3, 40)) : null,
        deviationRate: pick([0, 0, 0.02, 0.05, 0.1, 0.3]),
        hmr: int(50, 900) + 0.5,
        event: 0,
      });
    }

    // The data day by day, every patient's evening transmission in turn: rows lie in the tables
    // in the order a year of real ingest would have left them.
    for (let i = 0; i < days.length; i++) {
      const day = days[i];
      const weekday = weekdayOf(day);
      const midnight = starts.get(day)!;
      const progress = i / (days.length - 1);
      for (const p of patients) {
        let goal = p.goals[0];
        for (const g of p.goals) if (g.effectiveFrom <= day) goal = g;
        // How often the patient does each prescribed therapy: by habit, per day for some.
        const usage =
          p.habit === "adherent"
            ? 0.96
            : p.habit === "good"
              ? 0.85
              : p.habit === "declining"
                ? 0.95 - 0.9 * progress
                : p.habit === "erratic"
                  ? random()
                  : p.habit === "poor"
                    ? 0.4
                    : p.dropAfter !== null && day > p.dropAfter
                      ? 0
                      : 0.9;
        let count = 0;
        if (goal.days.has(weekday)) {
          for (let t = 0; t < goal.timesPerDay; t++) if (random() < usage) count++;
          if (usage > 0 && random() < 0.05) count++;
        } else if (random() < 0.3 * usage) count = 1;
        if (count === 0) continue;

        const sentAt = midnight + 21 * 3_600_000 + int(0, 3_540) * 1000;
        const transmissionId = id();
        let deviating = 0;
        const rows: [string, number, number, number, number, number][] = [];
        for (let t = 0; t < count; t++) {
          const hour = 8 + Math.floor((12 / count) * t) + int(0, 1);
          const startedAt = midnight + hour * 3_600_000 + int(0, 3_599) * 1000;
          const completed = random() < 0.93;
          const deviates = !completed || random() < p.deviationRate;
          if (deviates) deviating++;
          rows.push([id(), ++p.event, startedAt, completed ? 5 : int(1, 4), completed ? 1 : 0, deviates ? 1 : 0]); // prettier-ignore
          p.hmr += 0.25;
        }
        q.transmission.run(transmissionId, p.deviceId, p.pairingId, p.userId, p.prescriptionId, sentAt, sentAt + int(2, 30) * 1000, Math.round(p.hmr * 10) / 10, count, deviating); // prettier-ignore
        world.transmissions++;
        for (const [therapyId, e, startedAt, cycles, completed, deviates] of rows) {
          q.therapy.run(therapyId, p.deviceId, `E-${p.serial}-${e}`, transmissionId, p.prescriptionId, p.pairingId, p.userId, startedAt, cycles, completed, deviates, deviates && completed ? 44 : 40); // prettier-ignore
          world.therapies++;
        }
      }
    }
    for (const p of patients)
      q.lastSeen.run(dayStart(addDays(today, -1)) + 21 * 3_600_000, p.deviceId);
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return world;
}

// ---------------------------------------------------------------------------------------------
// The floor: the SQL of domain/adherence/adherence.server.ts on a better-sqlite3 connection of its own
// ---------------------------------------------------------------------------------------------

const SITE_PATIENTS = `SELECT userId FROM "Membership"
  WHERE careSiteId = ? AND role = 'patient' AND status = 'accepted'`;

const FLOOR_SQL = {
  timeZone: `SELECT timeZone FROM "CareSite" WHERE id = ? LIMIT 1`,
  adherenceAsOf: `SELECT p.userId AS patientId, da.score AS score
    FROM (${SITE_PATIENTS}) p
    LEFT JOIN "DailyAdherence" da ON da.patientId = p.userId AND da.day = ?
    ORDER BY p.userId`,
  missedThreeOrMore: `SELECT p.userId AS patientId
    FROM (${SITE_PATIENTS}) p
    WHERE (
      SELECT COUNT(*) FROM (
        SELECT da.therapies FROM "DailyAdherence" da
        WHERE da.patientId = p.userId AND da.day <= ? AND da.isGoalDay = 1
        ORDER BY da.day DESC LIMIT ?
      ) last WHERE last.therapies = 0
    ) = ?
    ORDER BY p.userId`,
  neverTransmitted: `SELECT p.userId AS patientId
    FROM (${SITE_PATIENTS}) p
    WHERE EXISTS (SELECT 1 FROM "Pairing" pr WHERE pr.patientId = p.userId AND pr.unpairedAt IS NULL)
      AND NOT EXISTS (SELECT 1 FROM "Transmission" t WHERE t.patientId = p.userId)
    ORDER BY p.userId`,
  goalsUpdated: `SELECT g.patientId AS patientId, MAX(g.createdAt) AS changedAt
    FROM (${SITE_PATIENTS}) p
    CROSS JOIN "TherapyGoal" g ON g.patientId = p.userId AND g.createdAt >= ? AND g.createdAt < ?
    WHERE EXISTS (
      SELECT 1 FROM "TherapyGoal" e WHERE e.patientId = g.patientId
        AND (e.createdAt < g.createdAt OR (e.createdAt = g.createdAt AND e.id < g.id)))
    GROUP BY g.patientId
    ORDER BY g.patientId`,
  transmissionStats: `SELECT p.userId AS patientId,
      COUNT(*) AS total,
      SUM(CASE WHEN t.deviatingTherapies > 0 THEN 1 ELSE 0 END) AS deviating,
      SUM(t.therapiesAccepted) AS therapies,
      SUM(t.deviatingTherapies) AS deviatingTherapies
    FROM (${SITE_PATIENTS}) p
    CROSS JOIN "Transmission" t ON t.patientId = p.userId
      AND t.sentAt >= ? AND t.sentAt < ? AND t.therapiesAccepted > 0
    GROUP BY p.userId
    ORDER BY p.userId`,
  // withPeople's statement (domain/adherence/dashboard.server.ts): the site's patients' names, photos and
  // current pairings.
  people: `SELECT u.id, u.firstName, u.lastName, u.photoId,
      (SELECT p.id FROM "Pairing" p WHERE p.patientId = u.id AND p.unpairedAt IS NULL LIMIT 1) AS pairId
    FROM "Membership" m JOIN "User" u ON u.id = m.userId
    WHERE m.careSiteId = ? AND m.role = 'patient' AND m.status = 'accepted'`,
};

const CATEGORIES = ["below75", "below50", "below25", "updatedGoals", "missed", "never", "total", "withoutDeviation", "withDeviation"] as const; // prettier-ignore
type Category = (typeof CATEGORIES)[number];
type Range = { fromDay: string; toDay: string; from: number; to: number };

function floorQueries(db: Database.Database, careSiteId: string, asOf: string) {
  const st = Object.fromEntries(
    Object.entries(FLOOR_SQL).map(([k, sql]) => [k, db.prepare(sql)]),
  ) as Record<keyof typeof FLOOR_SQL, Database.Statement>;
  type Stat = { patientId: string; total: number; deviating: number };
  /** The five queries and the categories' patient ids, as categoryRows() derives them. */
  const counts = (range: Range) => {
    st.timeZone.get(careSiteId);
    const scores = st.adherenceAsOf.all(careSiteId, asOf) as { patientId: string; score: number | null }[]; // prettier-ignore
    const missed = st.missedThreeOrMore.all(careSiteId, asOf, 3, 3) as { patientId: string }[];
    const never = st.neverTransmitted.all(careSiteId) as { patientId: string }[];
    const goals = st.goalsUpdated.all(careSiteId, range.from, range.to) as { patientId: string }[];
    const stats = st.transmissionStats.all(careSiteId, range.from, range.to) as Stat[];
    const below = (t: number) =>
      scores.filter((s) => s.score !== null && s.score < t).map((s) => s.patientId);
    const ids = (rows: { patientId: string }[]) => rows.map((r) => r.patientId);
    const byCategory: Record<Category, string[]> = {
      below75: below(0.75),
      below50: below(0.5),
      below25: below(0.25),
      updatedGoals: ids(goals),
      missed: ids(missed),
      never: ids(never),
      total: ids(stats),
      withDeviation: ids(stats.filter((s) => s.deviating > 0)),
      withoutDeviation: ids(stats.filter((s) => s.deviating === 0)),
    };
    return byCategory;
  };
  /** Each statement alone, for the breakdown of the floor. */
  const pieces = (range: Range): Record<string, () => unknown> => ({
    "care site zone": () => st.timeZone.get(careSiteId),
    adherenceAsOf: () => st.adherenceAsOf.all(careSiteId, asOf),
    missedThreeOrMore: () => st.missedThreeOrMore.all(careSiteId, asOf, 3, 3),
    neverTransmitted: () => st.neverTransmitted.all(careSiteId),
    goalsUpdated: () => st.goalsUpdated.all(careSiteId, range.from, range.to),
    transmissionStats: () => st.transmissionStats.all(careSiteId, range.from, range.to),
    "people (withPeople's statement)": () => st.people.all(careSiteId),
  });
  const list = (range: Range, category: Category) => {
    const ids = counts(range)[category];
    return ids.length ? st.people.all(careSiteId) : [];
  };
  const explain = (range: Range) => {
    const tree = (sql: string, values: unknown[]) => {
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as {
        id: number;
        parent: number;
        detail: string;
      }[];
      const depth = new Map<number, number>([[0, -1]]);
      return rows
        .map((r) => {
          const d = (depth.get(r.parent) ?? -1) + 1;
          depth.set(r.id, d);
          return `${"  ".repeat(d)}${r.detail}`;
        })
        .join("\n");
    };
    return {
      adherenceAsOf: tree(FLOOR_SQL.adherenceAsOf, [careSiteId, asOf]),
      missedThreeOrMore: tree(FLOOR_SQL.missedThreeOrMore, [careSiteId, asOf, 3, 3]),
      neverTransmitted: tree(FLOOR_SQL.neverTransmitted, [careSiteId]),
      goalsUpdated: tree(FLOOR_SQL.goalsUpdated, [careSiteId, range.from, range.to]),
      transmissionStats: tree(FLOOR_SQL.transmissionStats, [careSiteId, range.from, range.to]),
      "people (withPeople's statement)": tree(FLOOR_SQL.people, [careSiteId]),
    };
  };
  return { counts, list, pieces, explain };
}

// ---------------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------------

type Timing = { median: number; p95: number };
type Case = {
  label: string;
  rows: number | null;
  run: () => Promise<unknown>;
  floor: () => unknown;
};
type Result = { label: string; rows: number | null; app: Timing; floor: Timing };

/**
 * Warm-up calls, then the app and its floor in turn, RUNS times each: both see the same state of a
 * shared machine.
 */
async function timeCase(c: Case): Promise<Result> {
  for (let i = 0; i < WARMUP; i++) {
    await c.run();
    c.floor();
  }
  const app: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    await c.run();
    app.push(performance.now() - start);
    start = performance.now();
    c.floor();
    floor.push(performance.now() - start);
  }
  const stats = (times: number[]): Timing => {
    times.sort((a, b) => a - b);
    return { median: quantile(times, 0.5), p95: quantile(times, 0.95) };
  };
  return { label: c.label, rows: c.rows, app: stats(app), floor: stats(floor) };
}

async function measure(cases: Case[]): Promise<{ results: Result[]; contention: Contention }> {
  // One call of every case first, so the first case does not pay for a cold cache.
  for (const c of cases) {
    await c.run();
    c.floor();
  }
  const contention = contentionMeter();
  const results: Result[] = [];
  for (const c of cases) {
    const r = await timeCase(c);
    results.push(r);
    console.log(
      `${c.label}: ${r.app.median.toFixed(1)} / ${r.app.p95.toFixed(1)} ms; floor ${r.floor.median.toFixed(1)} / ${r.floor.p95.toFixed(1)} ms`,
    );
  }
  return { results, contention: contention() };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-bench-dashboard-"));
  const keep = process.argv.includes("--keep");
  try {
    const now = Date.now();
    let started = performance.now();
    const world = buildWorld(dir, now);
    const buildSeconds = (performance.now() - started) / 1000;
    console.log(
      `Built ${world.patients} patients, ${world.transmissions} transmissions, ${world.therapies} therapies in ${buildSeconds.toFixed(1)} s.`,
    );

    // The app reads its environment when first imported: point it at the database first.
    process.env.DATA_DIR = dir;
    process.env.SESSION_SECRET = crypto.randomBytes(32).toString("hex");
    process.env.NODE_ENV = "production";
    const { configureDatabase, disconnectDatabase } = await import("../../app/lib/db.server");
    const { rebuildAll } = await import("../../app/domain/adherence/adherence.server");
    const dashboard = await import("../../app/domain/adherence/dashboard.server");
    await configureDatabase();

    started = performance.now();
    const rebuilt = await rebuildAll(new Date(now));
    const rebuildSeconds = (performance.now() - started) / 1000;
    console.log(`rebuildAll: ${rebuilt.rows} rows in ${rebuildSeconds.toFixed(1)} s.`);
    // rebuildAll writes patient by patient; a database grown a day at a time holds the rows of a
    // day together (the daily finalising and each evening's transmissions write them). Lay them
    // out that way, as the other tables are.
    started = performance.now();
    const writer = new Database(world.file);
    writer.pragma("foreign_keys = OFF");
    writer.exec(`BEGIN;
      CREATE TEMP TABLE da AS SELECT * FROM "DailyAdherence";
      DELETE FROM "DailyAdherence";
      INSERT INTO "DailyAdherence" SELECT * FROM temp.da ORDER BY day, patientId;
      DROP TABLE temp.da;
      COMMIT`);
    const reorderSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    writer.exec("ANALYZE");
    const analyzeSeconds = (performance.now() - started) / 1000;
    writer.pragma("wal_checkpoint(TRUNCATE)");
    writer.close();
    // The build leaves about 1 GB of dirty pages that the kernel would write back during the
    // timed runs: flush them first.
    const fd = fs.openSync(world.file, "r+");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    const fileMb = fs.statSync(world.file).size / 1024 / 1024;

    const nowDate = new Date(now);
    const asOf = addDays(todayInZone(now), -1);
    const rangeOf = (fromDay: string): Range => ({
      fromDay,
      toDay: asOf,
      from: dayStart(fromDay),
      to: dayStart(addDays(asOf, 1)),
    });
    const first = await dashboard.dashboardOf(world.careSiteId, {
      search: new URLSearchParams(),
      list: null,
      params: { q: "", sort: "lastName", order: "asc", page: 1 },
      now: nowDate,
    });
    const month = await dashboard.dashboardOf(world.careSiteId, {
      search: new URLSearchParams({ range: "month" }),
      list: null,
      params: { q: "", sort: "lastName", order: "asc", page: 1 },
      now: nowDate,
    });
    const week = rangeOf(first.range.fromDay);
    const monthRange = rangeOf(month.range.fromDay);

    const raw = new Database(world.file, { readonly: true });
    const floor = floorQueries(raw, world.careSiteId, asOf);
    // The floor must find what the app finds.
    for (const [range, app] of [
      [week, first],
      [monthRange, month],
    ] as const) {
      const mine = floor.counts(range);
      for (const c of CATEGORIES) {
        if (mine[c].length !== app.counts[c])
          throw new Error(`floor finds ${mine[c].length} ${c}, the app ${app.counts[c]}`);
      }
    }

    const params = { q: "", sort: "lastName" as const, order: "asc" as const, page: 1 };
    const load = (search: URLSearchParams, list: Category | null) => () =>
      dashboard.dashboardOf(world.careSiteId, { search, list, params, now: nowDate });
    const biggest = [...CATEGORIES].sort((a, b) => first.counts[b] - first.counts[a])[0];
    const cases: Case[] = [
      {
        label: "loader, counts only (week)",
        rows: null,
        run: load(new URLSearchParams(), null),
        floor: () => floor.counts(week),
      },
      {
        label: "loader, counts only (month)",
        rows: null,
        run: load(new URLSearchParams({ range: "month" }), null),
        floor: () => floor.counts(monthRange),
      },
      ...CATEGORIES.map((c) => ({
        label: `list ${c} (week), page 1`,
        rows: first.counts[c],
        run: load(new URLSearchParams({ list: c }), c),
        floor: () => floor.list(week, c),
      })),
      {
        label: `list total (month), page 1`,
        rows: month.counts.total,
        run: load(new URLSearchParams({ list: "total", range: "month" }), "total"),
        floor: () => floor.list(monthRange, "total"),
      },
      {
        label: `CSV of ${biggest} (week)`,
        rows: first.counts[biggest],
        run: () => dashboard.dashboardCsvOf(world.careSiteId, biggest, new URLSearchParams()),
        floor: () => floor.list(week, biggest),
      },
    ];
    const before = await measure(cases);
    const pieces = async () => {
      const out: { label: string; week: number; month: number }[] = [];
      const w = floor.pieces(week);
      const m = floor.pieces(monthRange);
      const labels = Object.keys(w);
      for (let i = 0; i < labels.length; i++) {
        const [mLabel, mFn] = Object.entries(m)[i];
        const wTime = await timeCase({ label: labels[i], rows: null, run: async () => undefined, floor: w[labels[i]] }); // prettier-ignore
        const mTime = await timeCase({ label: mLabel, rows: null, run: async () => undefined, floor: mFn }); // prettier-ignore
        out.push({ label: labels[i], week: wTime.floor.median, month: mTime.floor.median }); // prettier-ignore
      }
      return out;
    };
    const breakdown = await pieces();
    const plans = floor.explain(week);
    raw.close();
    await disconnectDatabase();

    const section = render({
      world,
      results: before.results,
      contention: before.contention,
      breakdown,
      plans,
      buildSeconds,
      rebuildSeconds,
      reorderSeconds,
      analyzeSeconds,
      dailyRows: rebuilt.rows,
      fileMb,
      asOf,
      week,
      monthRange,
      counts: first.counts,
    });
    console.log(section);
    if (!process.argv.includes("--no-write")) writeSection("dashboard", section);
  } finally {
    if (keep) console.log(`Kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The section of docs/performance.md
// ---------------------------------------------------------------------------------------------

type Piece = { label: string; week: number; month: number };

function render(input: {
  world: World;
  results: Result[];
  contention: Contention;
  breakdown: Piece[];
  plans: Record<string, string>;
  buildSeconds: number;
  rebuildSeconds: number;
  reorderSeconds: number;
  analyzeSeconds: number;
  dailyRows: number;
  fileMb: number;
  asOf: string;
  week: Range;
  monthRange: Range;
  counts: Record<Category, number>;
}) {
  const { world, results } = input;
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const n = (v: number) => v.toLocaleString("en-US");
  const fmt = (ms: number) => ms.toFixed(1);
  const ratio = (r: Result) => r.app.median / r.floor.median;
  const verdicts = (r: Result) => [
    r.app.p95 < P95_TARGET_MS ? "yes" : "**no**",
    ratio(r) <= FLOOR_TARGET ? "yes" : "**no**",
  ];
  const contention = (c: Contention) =>
    `load average ${c.load[0].toFixed(1)} at the start and ${c.load[1].toFixed(1)} at the end, ` +
    `CPU pressure (some task waiting for a CPU) ${Math.round(c.pressure * 100)} % of the time`;

  const mainTable = table(
    ["Case", "Rows", "Median ms", "p95 ms", "Floor median", "Floor p95", "× floor", "p95 < 100", "≤ 3×"], // prettier-ignore
    results.map((r) => [
      r.label,
      r.rows === null ? "–" : n(r.rows),
      fmt(r.app.median),
      fmt(r.app.p95),
      fmt(r.floor.median),
      fmt(r.floor.p95),
      ratio(r).toFixed(1),
      ...verdicts(r),
    ]),
    [false, true, true, true, true, true, true, false, false],
  );
  const breakdownTable = (pieces: Piece[]) =>
    table(
      ["Floor statement", "Week median ms", "Month median ms"],
      pieces.map((p) => [p.label, fmt(p.week), fmt(p.month)]),
      [false, true, true],
    );

  const slow = results.filter((r) => r.app.p95 >= P95_TARGET_MS);
  const far = results.filter((r) => ratio(r) > FLOOR_TARGET);
  const worst = [...results].sort((a, b) => b.app.p95 - a.app.p95)[0];
  const worstRatio = [...results].sort((a, b) => ratio(b) - ratio(a))[0];
  const stats = input.breakdown.find((p) => p.label === "transmissionStats")!;
  const rawPeople = input.breakdown.find((p) => p.label.startsWith("people"))!;
  // How transmissionStats reads, from its plan.
  const statsPlan = input.plans.transmissionStats ?? "";
  const statsHow = [
    statsPlan.includes("SEARCH t USING COVERING INDEX")
      ? "from an index that covers it"
      : "through an index and then the table rows",
    statsPlan.includes("TEMP B-TREE FOR GROUP BY") ? "sorts them for GROUP BY" : null,
    statsPlan.includes("TEMP B-TREE FOR count(DISTINCT)")
      ? "counts distinct transmissions in temporary b-trees"
      : null,
  ]
    .filter(Boolean)
    .join(", ");
  const floorSum = (key: "week" | "month") =>
    input.breakdown.filter((p) => !p.label.startsWith("people")).reduce((a, p) => a + p[key], 0);
  const reading = [
    slow.length === 0
      ? `Every case keeps its p95 under ${P95_TARGET_MS} ms (the slowest, ${worst.label}, ${fmt(worst.app.p95)} ms).`
      : `${slow.length} of ${results.length} cases miss the p95 target of ${P95_TARGET_MS} ms: ${slow.map((r) => `${r.label} (${fmt(r.app.p95)} ms)`).join(", ")}.`,
    far.length === 0
      ? `Every case is within ${FLOOR_TARGET}× of its floor (the farthest, ${worstRatio.label}, ${ratio(worstRatio).toFixed(1)}×).`
      : `${far.length} of ${results.length} cases are more than ${FLOOR_TARGET}× their floor: ${far.map((r) => `${r.label} (${ratio(r).toFixed(1)}×)`).join(", ")}.`,
    `transmissionStats takes ${fmt(stats.week)} of the floor's ${fmt(floorSum("week"))} ms for a week and ` +
      `${fmt(stats.month)} of ${fmt(floorSum("month"))} ms for a month (it reads every transmission sent in the range, ` +
      `${n(Math.round(world.transmissions / DAYS))} a day at this site, ${statsHow}). ` +
      "A list also reads the names, photos and current pairings of the site's patients (withPeople's one statement, " +
      `${fmt(rawPeople.week)} ms at the floor), sorts the category's rows and builds photo URLs and profile links for ` +
      "the page of 10; that JavaScript is not timed on its own here.",
    `Machine during the timed runs: ${contention(input.contention)} (other work on this shared machine shows in the p95 more than in the median).`,
  ].join(" ");

  const habits = Object.entries(world.habits)
    .map(([h, c]) => `${h} ${n(c)}`)
    .join(", ");
  return [
    START_MARKER,
    "",
    "## Care site dashboard",
    "",
    `Run ${when} UTC on ${cpu}, ${os.cpus().length} cores, Node ${process.version}, ${os.type()} ${os.release()}. ` +
      "To re-run: `npm run bench:dashboard` (`tsx scripts/bench/dashboard.ts`; `-- --runs N`, `-- --keep`).",
    "",
    `A temporary database with one care site (${ZONE}) of ${n(world.patients)} accepted patients, each with a device ` +
      `paired ${DAYS + 1} days ago and ${DAYS} days of data up to yesterday: ${n(world.transmissions)} transmissions ` +
      `(one per patient-day with therapies) and ${n(world.therapies)} therapies, inserted day by day as ingest would have ` +
      `(${n(world.never)} patients paired but never transmitted; ` +
      `habits: ${habits}). ${n(world.goals)} therapy goals of 1–4 a day (${n(world.subsetGoals)} patients on a weekday subset, ` +
      `${n(world.goalChanges)} with a goal change in the last 30 days). No Cycle rows: the dashboard does not read them. ` +
      `${OTHER_SITES} other care sites of ${OTHER_SITE_PATIENTS} patients without data share the database. ` +
      `Bulk insert with better-sqlite3 in one transaction ${input.buildSeconds.toFixed(1)} s, DailyAdherence by the app's ` +
      `rebuildAll() ${input.rebuildSeconds.toFixed(1)} s (${n(input.dailyRows)} rows; then rewritten in day order, as a database grown a day ` +
      `at a time holds them, ${input.reorderSeconds.toFixed(1)} s), ANALYZE ${input.analyzeSeconds.toFixed(1)} s; ` +
      `database ${Math.round(input.fileMb)} MB.`,
    "",
    `App: the model functions the route calls, in process through the app's Prisma client ` +
      "(`dashboardOf(siteId, { search, list, params })`, careSiteDashboard's work after its care-site check: counts only, or a category list, page 1 of 10 by last name; " +
      "`dashboardCsvOf` for the CSV), without HTTP, session or rendering " +
      `(${["dashboard", "adherence"]
        .map(
          (m) =>
            `domain/adherence/${m}.server.ts as of ${fs
              .statSync(path.join(ROOT, "app", "domain", "adherence", `${m}.server.ts`))
              .mtime.toISOString()
              .slice(0, 16)
              .replace("T", " ")} UTC`,
        )
        .join(", ")}). ` +
      "Floor: the same SQL (copied from domain/adherence/adherence.server.ts: the care site's zone, adherenceAsOf, missedThreeOrMore, " +
      "neverTransmitted, goalsUpdated, transmissionStats) on a better-sqlite3 connection of its own, plus for a list " +
      "withPeople's statement (domain/adherence/dashboard.server.ts: the site's patients' names, photos and current pairings); " +
      "it finds the same patients in every category (checked). " +
      `Data as of ${input.asOf}; week ${input.week.fromDay}..${input.week.toDay}, month ${input.monthRange.fromDay}..${input.monthRange.toDay}. ` +
      `${WARMUP} warm-up calls, then ${RUNS} timed calls of the app and of the floor in turn, for each case; median and 95th percentile in ms. ` +
      `Targets: p95 under ${P95_TARGET_MS} ms; median within ${FLOOR_TARGET}× the floor's median.`,
    "",
    ...mainTable,
    "",
    ...breakdownTable(input.breakdown),
    "",
    reading,
    "",
    "Query plans (`EXPLAIN QUERY PLAN`, week range):",
    "",
    ...queryPlanLines(input.plans),
    END_MARKER,
  ].join("\n");
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
