// `npm run bench`: what a user waits for, measured from outside over HTTP through the production
// server (`node build/server.js`, NODE_ENV=production, LOG_REQUESTS=0, DEMO_MODE=1, a DATA_DIR of
// its own), signed in, each figure beside an independent floor measured in the same run:
//
//   floor      a bare node:http handler (the floor of every page row, and the load generator's ceiling)
//   dashboard  the care-site dashboard (counts; a category list) at 2,000 and 20,000 patients × 365 days
//   profile    a patient profile with 2 years of data (the default week; a 2-year From/To range)
//   admin      the super admin's patient list at 20,000 patients, sorted by each sortable column
//   ingest     daily transmissions from the device simulator (therapies/s, transmissions/s)
//   devicelog  reopening a 200 MB device log after a restart; other users meanwhile
//   memory     RSS of the server under 50 signed-in users (with --soak-minutes N: RSS every 10 s)
//
//   npm run bench                         every row (builds first when there is no build)
//   npm run bench -- --quick              200 and 2,000 × 30 worlds, 5 s runs, 2 connections, a 20 MB
//                                         log, 10 memory users: to try the harness (not written)
//   options: --only dashboard,admin  --duration S (15)  --warmup S (3)  --connections N (10)
//            --sizes 2000x365[,20000x365] (the dashboard's worlds; one: no large-world rows)
//            --profile <row>[,<row>] | all (the rows' servers run with --cpu-prof; each row's profile
//            is cut to its timed run: self time by category and top functions, written to the
//            bench-profile section of docs/performance.md instead of the table)
//            --soak-minutes N  --worlds-dir DIR (.bench/worlds)  --scratch-dir DIR (.bench/tmp)
//            --no-write (print only)  --build (npm run build first)
//
// Load: autocannon 8 in this process, one session per connection (sessions are made directly in
// the database), a warm-up, then the timed run; every answer's status is checked (a redirect to
// sign-in or a 500 fails the row). The server's CPU time (utime + stime) and memory (VmRSS, VmHWM)
// come from /proc/<pid>. SQL floors are hand-written queries answering the same question on the
// same database through a bare better-sqlite3 connection in this process. Worlds come from
// scripts/world/build.ts and are kept under the worlds directory (rebuilt for a new migration or
// on a new day); the page rows run on them in place (the sessions and audit rows they add stay).
// Ingest and the device log run on fresh demo worlds in the scratch directory. The table is
// printed and written to docs/performance.md between the bench markers (unless --quick,
// --profile or --no-write; a failed row writes nothing).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import { createDecipheriv } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { patientProfileHref } from "../../app/domain/patients/profileLink";
import { resolveLogKeys } from "../../app/domain/deviceLogs/keys";
import { seedDemoWorld } from "../../prisma/seed";
import { writeDeviceLog } from "../make-device-log";
import { DeviceClient, type Transmission } from "../sim/client";
import { simulate } from "../simulate-devices";
import {
  loadProblems,
  makeSessions,
  processCpuMs,
  processMemory,
  monotonicUs,
  runLoad,
  startFloorServer,
  startLoad,
  timedGet,
  type Contention,
  type LoadRequest,
  type LoadResult,
  contentionMeter,
} from "./load";
import {
  fmt,
  maxTarget,
  minTarget,
  parseOptions,
  percentiles,
  ratio,
  scaleLine,
  slope,
  selfTimeByCategory,
  topSelfTime,
  verdict,
  type CpuProfile,
  type ProfileWindow,
  type Percentiles,
  type RowName,
  type Target,
} from "./measure";
import {
  addBenchSite,
  ensureBuild,
  markdownTable,
  ROOT,
  sectionMarkers,
  startServer,
  stopServer,
  waitForHealth,
  writeSection,
} from "./support";
import { ensureWorld, type World } from "./worlds";

const options = parseOptions(process.argv.slice(2));
const BENCH_DIR = path.join(ROOT, ".bench");
const WORLDS_DIR = path.resolve(options.worldsDir ?? path.join(BENCH_DIR, "worlds"));
const SCRATCH = path.resolve(options.scratchDir ?? path.join(BENCH_DIR, "tmp"));
/** The bench's ports: the floor, the app, the device-log world, ingest (BENCH_PORT_BASE, default 3421). */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE) || 3421;
const PORT = {
  floor: PORT_BASE,
  app: PORT_BASE + 1,
  devicelog: PORT_BASE + 2,
  ingest: PORT_BASE + 3,
};
const SESSION_SECRET = `bench-${crypto.randomBytes(24).toString("hex")}`;
const C = options.connections;
const SEED = 42;

/** The worlds: patients × days (the issue's sizes; --quick: small ones to try the harness). */
// The world builder gives every world one profile patient with 730 days: the profile row uses the
// small world's.
const DEFAULT_SIZES = options.quick
  ? [
      { patients: 200, days: 30 },
      { patients: 2_000, days: 30 },
    ]
  : [
      { patients: 2_000, days: 365 },
      { patients: 20_000, days: 365 },
    ];
/** --sizes with one world: the rows of the large one (dashboard at scale, admin, memory) are left out. */
const SIZES = {
  small: (options.sizes ?? DEFAULT_SIZES)[0],
  large: (options.sizes ?? DEFAULT_SIZES)[1] as { patients: number; days: number } | undefined,
};
const INGEST = options.quick
  ? { devices: 100, days: 10, concurrency: 8 }
  : { devices: 1_600, days: 30, concurrency: 8 };
const LOG_MB = options.quick ? 20 : 200;
/** The memory row's users (the issue's 50; --quick: 10). */
const MEMORY_USERS = options.quick ? 10 : 50;
/** The upload form's file field (LOG_FILE_FIELD of app/domain/deviceLogs/deviceLog.server.ts, which needs the server's env). */
const LOG_FILE_FIELD = "uploaded-csv";

const log = (line: string) => console.log(line);

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

type Row = {
  group: RowName;
  name: string;
  targets: Target[];
  /** The figure each target is judged on, in target order. */
  judged: number[];
  latency?: Percentiles;
  perSecond?: number;
  cpuMs?: number;
  memory?: { rssMb: number; hwmMb: number };
  floor: string;
  ratio: string;
  /** Free text instead of the latency columns (ingest, device log). */
  measured?: string;
  problem?: string;
  contention?: Contention;
};

const rows: Row[] = [];
const lines: string[] = [];
/** "Where the time goes": one block per profiled row (--profile). */
const profiles: string[] = [];
/** The timed runs of rows on a profiled server: its profile is cut to each of them. */
const profileWindows: { group: RowName; pid: number; label: string; window: ProfileWindow }[] = [];

function loadRow(
  group: RowName,
  name: string,
  load: LoadResult,
  targets: Target[],
  floor: { text: string; cpuMs: number },
): Row {
  const judged = targets.map((t) => (t.unit === "req/s" ? load.perSecond : load.latency.p95));
  profileWindows.push({ group, pid: load.pid, label: name, window: load.window });
  return {
    group,
    name,
    targets,
    judged,
    latency: load.latency,
    perSecond: load.perSecond,
    cpuMs: load.cpuMsPerRequest,
    memory: { rssMb: load.rssMb, hwmMb: load.hwmMb },
    floor: floor.text,
    ratio: `CPU ${ratio(load.cpuMsPerRequest, floor.cpuMs)}`,
    problem: loadProblems(load) || undefined,
    contention: load.contention,
  };
}

const p95Target = (ms: number) => maxTarget(`p95 < ${ms} ms`, ms, "ms");
const rpsTarget = (n: number) => minTarget(`≥ ${n} req/s`, n, "req/s");

// ---------------------------------------------------------------------------------------------
// Servers
// ---------------------------------------------------------------------------------------------

type App = { base: string; pid: number; stop: () => Promise<void> };

/** The server of these rows; with --profile naming one of them, it runs with --cpu-prof. */
async function startApp(port: number, dataDir: string, groups: RowName[]): Promise<App> {
  const profiled = groups.some((g) => options.profile.includes(g));
  const profDir = path.join(SCRATCH, "cpu-prof", `${groups.join("+")}-${Date.now()}`);
  if (profiled) fs.mkdirSync(profDir, { recursive: true });
  const nodeArgs = profiled ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [];
  const base = `http://127.0.0.1:${port}`;
  const { child, output } = startServer(
    port,
    dataDir,
    { SESSION_SECRET, DEMO_MODE: "1", RATE_LIMIT_SCALE: "1000" },
    nodeArgs,
  );
  try {
    await waitForHealth(base, child, output);
    await startUpDone(child.pid!);
  } catch (error) {
    await stopServer(child);
    throw error;
  }
  return {
    base,
    pid: child.pid!,
    stop: async () => {
      await stopServer(child);
      if (profiled) reportProfile(profDir, child.pid!);
    },
  };
}

/**
 * Waits until the server's start-up work (jobs that run at start: finalising days, the adherence
 * queue, the outbox) is done: its CPU stays under 5 % of a core for two half-second windows in a
 * row (at most 3 minutes). Otherwise the first row's CPU per request would carry that work.
 */
async function startUpDone(pid: number) {
  const deadline = performance.now() + 180_000;
  let calm = 0;
  let before = processCpuMs(pid);
  while (calm < 2 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = processCpuMs(pid);
    calm = now - before < 25 ? calm + 1 : 0;
    before = now;
  }
}

/**
 * Where the time of each profiled row went: the server's CPU profile (and its worker threads')
 * cut to the row's timed run, as self time by category and the functions with the most.
 */
function reportProfile(dir: string, pid: number) {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort() : []; // prettier-ignore
  if (files.length === 0) {
    profiles.push(`No CPU profile was written in ${path.relative(ROOT, dir)}.`);
    return;
  }
  const windows = profileWindows.filter((w) => w.pid === pid && options.profile.includes(w.group));
  for (const f of files) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as CpuProfile;
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread.
    const thread = f.split(".")[4];
    const who = thread === "0" ? "main thread" : `worker thread ${thread}`;
    for (const { label, window } of windows) {
      const categories = selfTimeByCategory(profile, window);
      const busyMs = categories.reduce((sum, c) => sum + c.ms, 0);
      if (thread !== "0" && busyMs < 50) continue; // a worker that did nothing in this row
      const seconds = (window.toUs - window.fromUs) / 1e6;
      profiles.push(
        [
          `#### ${label}: ${who}`,
          "",
          `${fmt(busyMs)} ms busy in ${fmt(seconds, 1)} s of the timed run (${path.relative(ROOT, path.join(dir, f))}). Self time by what it is spent on:`,
          "",
          ...categories.filter((c) => c.share >= 0.01).map((c) => `- ${(c.share * 100).toFixed(1)} % ${c.name} (${fmt(c.ms)} ms)`), // prettier-ignore
          "",
          "Functions with the most self time:",
          "",
          ...topSelfTime(profile, 8, window).map((t) => `- ${(t.share * 100).toFixed(1)} % \`${t.name}\``), // prettier-ignore
        ].join("\n"),
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// SQL floors: hand-written, on the same database, timed in this process
// ---------------------------------------------------------------------------------------------

/**
 * Median CPU milliseconds (this process's user + system) of running `fn` (each run answers the
 * whole question), after a warm-up: CPU, not wall time, as the server's figure is CPU per request
 * (on a shared machine wall time counts the neighbours).
 */
function timeSql(fn: () => unknown) {
  for (let i = 0; i < 5; i++) fn();
  const times: number[] = [];
  const t0 = performance.now();
  while (times.length < 5 || (performance.now() - t0 < 1000 && times.length < 500)) {
    const c = process.cpuUsage();
    fn();
    const used = process.cpuUsage(c);
    times.push((used.user + used.system) / 1000);
  }
  return percentiles(times).p50;
}

/** A DateTime bound as the database stores it (Prisma on SQLite: ms since the epoch, or text). */
function dateBound(db: Database.Database, ms: number) {
  const sample = db.prepare(`SELECT sentAt FROM "Transmission" LIMIT 1`).get() as
    { sentAt: number | string } | undefined;
  return typeof sample?.sentAt === "string" ? new Date(ms).toISOString() : ms;
}

const SITE_PATIENTS = `"Membership" m WHERE m.careSiteId = ? AND m.role = 'patient' AND m.status = 'accepted'`;

function dashboardSqlFloor(world: World) {
  const db = new Database(world.databaseFile, { readonly: true });
  try {
    const site = world.info.bigSite.id;
    const asOf = world.info.asOf;
    const weekEnd = Date.parse(`${asOf}T00:00:00Z`) + 86_400_000;
    const weekStart = weekEnd - 7 * 86_400_000;
    const scores = db.prepare(
      `SELECT COUNT(*) AS patients,
              SUM(CASE WHEN d.score < 0.75 THEN 1 ELSE 0 END) AS below75,
              SUM(CASE WHEN d.score < 0.5 THEN 1 ELSE 0 END) AS below50,
              SUM(CASE WHEN d.score < 0.25 THEN 1 ELSE 0 END) AS below25
       FROM "Membership" m
       LEFT JOIN "DailyAdherence" d ON d.patientId = m.userId AND d.day = ?
       WHERE m.careSiteId = ? AND m.role = 'patient' AND m.status = 'accepted'`,
    );
    const sent = db.prepare(
      `SELECT COUNT(*) AS transmitted, SUM(CASE WHEN x.deviating > 0 THEN 1 ELSE 0 END) AS withDeviation
       FROM (SELECT t.patientId, SUM(t.deviatingTherapies) AS deviating
             FROM "Membership" m JOIN "Transmission" t ON t.patientId = m.userId
             WHERE m.careSiteId = ? AND m.role = 'patient' AND m.status = 'accepted'
               AND t.sentAt >= ? AND t.sentAt < ?
             GROUP BY t.patientId) x`,
    );
    const never = db.prepare(
      `SELECT COUNT(*) AS never FROM ${SITE_PATIENTS}
       AND NOT EXISTS (SELECT 1 FROM "Transmission" t WHERE t.patientId = m.userId)`,
    );
    const page = db.prepare(
      `SELECT u.id, u.firstName, u.lastName, d.score
       FROM "Membership" m
       JOIN "DailyAdherence" d ON d.patientId = m.userId AND d.day = ?
       JOIN "User" u ON u.id = m.userId
       WHERE m.careSiteId = ? AND m.role = 'patient' AND m.status = 'accepted' AND d.score < 0.75
       ORDER BY u.lastName, u.firstName, u.id LIMIT 10`,
    );
    const [from, to] = [dateBound(db, weekStart), dateBound(db, weekEnd)];
    const counts = () => {
      scores.get(asOf, site);
      sent.get(site, from, to);
      never.get(site);
    };
    const countsMs = timeSql(counts);
    const pageMs = timeSql(() => page.all(asOf, site));
    return { countsMs, listMs: countsMs + pageMs };
  } finally {
    db.close();
  }
}

function profileSqlFloor(world: World, from: string, to: string) {
  const db = new Database(world.databaseFile, { readonly: true });
  try {
    const series = db.prepare(
      `SELECT day, dayAdherence, score, therapies, completed, maxHmr FROM "DailyAdherence"
       WHERE patientId = ? AND day >= ? AND day <= ? ORDER BY day`,
    );
    const id = world.info.profilePatient.patientId;
    const days = series.all(id, from, to).length;
    return { ms: timeSql(() => series.all(id, from, to)), days };
  } finally {
    db.close();
  }
}

const ADMIN_SORTS = ["lastName", "firstName", "status", "email"] as const;

function adminSqlFloor(world: World, sort: (typeof ADMIN_SORTS)[number]) {
  const db = new Database(world.databaseFile, { readonly: true });
  try {
    const count = db.prepare(`SELECT COUNT(*) AS n FROM "User" WHERE role = 'patient'`);
    const page =
      sort === "status"
        ? db.prepare(
            `SELECT x.id, x.firstName, x.lastName, x.email, x.status FROM (
               SELECT u.id, u.firstName, u.lastName, u.email,
                      CASE WHEN EXISTS (SELECT 1 FROM "Membership" m WHERE m.userId = u.id AND m.status = 'accepted')
                           THEN 'Accepted' ELSE 'Pending' END AS status
               FROM "User" u WHERE u.role = 'patient') x
             ORDER BY x.status, x.lastName, x.id LIMIT 10`,
          )
        : db.prepare(
            `SELECT id, firstName, lastName, email FROM "User" WHERE role = 'patient'
             ORDER BY "${sort}", id LIMIT 10`,
          );
    return timeSql(() => {
      count.get();
      page.all();
    });
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The rows
// ---------------------------------------------------------------------------------------------

let httpFloor: LoadResult | null = null;

async function floorRow() {
  const child = await startFloorServer(PORT.floor);
  try {
    const load = await runLoad({
      base: `http://127.0.0.1:${PORT.floor}`,
      pid: child.pid!,
      requests: [{ path: "/" }],
      connections: C,
      duration: options.duration,
      warmup: options.warmup,
    });
    httpFloor = load;
    rows.push({
      ...loadRow("floor", "HTTP floor: bare node:http, 2 KB HTML", load, [], { text: "itself", cpuMs: NaN }), // prettier-ignore
      ratio: "1×",
    });
  } finally {
    await stopServer(child);
  }
}

const floorCpu = () => httpFloor?.cpuMsPerRequest ?? NaN;
const floorText = (sqlMs: number) => `http ${fmt(floorCpu(), 2)} + SQL ${fmt(sqlMs, 2)} ms`;

async function dashboardRows(world: World, label: string, app: App, targets: Target[]) {
  const { bigSite, accounts } = world.info;
  const cookies = await makeSessions(
    world.databaseFile,
    SESSION_SECRET,
    Array.from({ length: C }, () => ({ userId: accounts.siteadmin, careSiteId: bigSite.id })),
  );
  const sql = dashboardSqlFloor(world);
  const size = `${fmt(bigSite.patients)} patients in the site, ${fmt(world.info.patients)} × ${world.info.days} days`;
  const results: Record<string, LoadResult> = {};
  for (const [key, pathname, floorMs] of [
    ["counts", "/app", sql.countsMs],
    ["list", "/app?list=below75", sql.listMs],
  ] as const) {
    const load = await runLoad({ base: app.base, pid: app.pid, requests: [{ path: pathname }], cookies, connections: C, duration: options.duration, warmup: options.warmup }); // prettier-ignore
    results[key] = load;
    rows.push(loadRow("dashboard", `Dashboard ${label}, ${key === "counts" ? "counts" : "list below 75 %"} (${size}) \`${pathname}\``, load, targets, { text: floorText(floorMs), cpuMs: floorCpu() + floorMs })); // prettier-ignore
  }
  return results;
}

async function profileRows(world: World, app: App) {
  const { accounts, profilePatient: pp, asOf } = world.info;
  const cookies = await makeSessions(
    world.databaseFile,
    SESSION_SECRET,
    Array.from({ length: C }, () => ({ userId: accounts.clinician, careSiteId: pp.careSiteId })),
  );
  const href = patientProfileHref({ profileId: pp.patientId, clinicId: pp.careSiteId, pairId: pp.pairId }); // prettier-ignore
  const to = asOf;
  const from = new Date(Date.parse(`${asOf}T00:00:00Z`) - 729 * 86_400_000).toISOString().slice(0, 10); // prettier-ignore
  const weekFrom = new Date(Date.parse(`${asOf}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10); // prettier-ignore
  for (const [label, pathname, range] of [
    ["default week", href, [weekFrom, to]],
    ["2-year From/To", `${href}&from=${from}&to=${to}`, [from, to]],
  ] as const) {
    const check = await timedGet(`${app.base}${pathname}`, cookies[0]);
    const sql = profileSqlFloor(world, range[0], range[1]);
    const load = await runLoad({ base: app.base, pid: app.pid, requests: [{ path: pathname }], cookies, connections: C, duration: options.duration, warmup: options.warmup }); // prettier-ignore
    const row = loadRow("profile", `Patient profile, ${label} (${sql.days} days of data in range)`, load, [p95Target(150), rpsTarget(100)], { text: floorText(sql.ms), cpuMs: floorCpu() + sql.ms }); // prettier-ignore
    // A refused range would silently measure the default week (lib/dateRange.ts rangeMessages).
    if (check.status !== 200) row.problem = `the first request answered HTTP ${check.status}`;
    else if (/cannot be (before|after)|Dates after today|Please choose a From/.test(check.body))
      row.problem = "the range was refused (the page shows the range's error message)";
    rows.push(row);
  }
}

async function adminRows(world: World, app: App) {
  const cookies = await makeSessions(
    world.databaseFile,
    SESSION_SECRET,
    Array.from({ length: C }, () => ({ userId: world.info.accounts.superadmin })),
  );
  for (const sort of ADMIN_SORTS) {
    const pathname = `/app?tab=patient&pt_sort=${sort}&pt_order=asc`;
    const sqlMs = adminSqlFloor(world, sort);
    const load = await runLoad({ base: app.base, pid: app.pid, requests: [{ path: pathname }], cookies, connections: C, duration: options.duration, warmup: options.warmup }); // prettier-ignore
    rows.push(loadRow("admin", `Super admin patient list by ${sort} (${fmt(world.info.patients)} patients) \`${pathname}\``, load, [p95Target(50)], { text: floorText(sqlMs), cpuMs: floorCpu() + sqlMs })); // prettier-ignore
  }
}

async function memoryRows(world: World, app: App) {
  const { accounts, bigSite, profilePatient: pp } = world.info;
  const cookies = await makeSessions(
    world.databaseFile,
    SESSION_SECRET,
    Array.from({ length: MEMORY_USERS }, (_, i) => ({
      userId: i % 2 ? accounts.clinician : accounts.siteadmin,
      careSiteId: bigSite.id,
    })),
  );
  const profile = patientProfileHref({ profileId: pp.patientId, clinicId: pp.careSiteId, pairId: pp.pairId }); // prettier-ignore
  const requests: LoadRequest[] = [
    { path: "/app" },
    { path: "/app?list=total" },
    { path: profile },
    { path: "/app/chat" },
  ];
  const before = processMemory(app.pid);
  const load = await runLoad({ base: app.base, pid: app.pid, requests, cookies, connections: MEMORY_USERS, duration: options.duration, warmup: options.warmup }); // prettier-ignore
  const row = loadRow("memory", `Memory: ${MEMORY_USERS} signed-in users (own sessions; dashboard, list, profile, chat; ${fmt(world.info.patients)} patients)`, load, [maxTarget("RSS < 300 MB", 300, "MB")], { text: `RSS before: ${fmt(before.rssMb)} MB`, cpuMs: NaN }); // prettier-ignore
  row.judged = [Math.max(load.rssMb, load.hwmMb)];
  row.ratio = "–";
  rows.push(row);
  if (options.soakMinutes > 0) {
    const samples: { x: number; y: number }[] = [];
    let nextAt = 0;
    log(`Soak: ${options.soakMinutes} min of the same load, RSS every 10 s …`);
    const soak = await runLoad({
      base: app.base, pid: app.pid, requests, cookies, connections: MEMORY_USERS,
      duration: options.soakMinutes * 60, warmup: 0,
      onSecond: (m, s) => {
        if (s < nextAt) return;
        samples.push({ x: s / 60, y: m.rssMb });
        // The curve as it goes: RSS every 5 minutes.
        if (nextAt % 300 === 0) log(`Soak ${nextAt / 60} min: RSS ${fmt(m.rssMb)} MB (peak ${fmt(m.hwmMb)})`);
        nextAt += 10;
      },
    }); // prettier-ignore
    const perMin = slope(samples);
    const first = samples[0]?.y ?? NaN;
    const last = samples.at(-1)?.y ?? NaN;
    const soakRow = loadRow("memory", `Soak: ${options.soakMinutes} min of the same load (RSS start → end, slope)`, soak, [maxTarget("RSS < 300 MB", 300, "MB"), maxTarget("growth < 1 MB/min", 1, "MB/min")], { text: "–", cpuMs: NaN }); // prettier-ignore
    soakRow.judged = [Math.max(soak.rssMb, soak.hwmMb), perMin];
    soakRow.floor = `${fmt(first)} → ${fmt(last)} MB, ${perMin.toFixed(2)} MB/min over ${samples.length} samples`;
    soakRow.ratio = "–";
    rows.push(soakRow);
  }
}

// ---- ingest ----

async function ingestRow() {
  const dataDir = path.join(SCRATCH, "ingest-world");
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const databaseFile = path.join(dataDir, "arc.db");
  await seedDemoWorld(databaseFile);
  const siteId = addBenchSite(databaseFile, INGEST.devices, "http", 3_000_000);
  const app = await startApp(PORT.ingest, dataDir, ["ingest"]);
  const latencies: number[] = [];
  let sample = "";
  let clock: { cpu: number; t: number; us: number; contention: () => Contention } | null = null;
  const original = DeviceClient.prototype.sendTransmission;
  let result: Awaited<ReturnType<typeof simulate>>;
  let serverCpu = 0;
  let seconds = 0;
  let contention: Contention;
  try {
    DeviceClient.prototype.sendTransmission = async function (this: DeviceClient, t: Transmission) {
      clock ??= { cpu: processCpuMs(app.pid), t: performance.now(), us: monotonicUs(), contention: contentionMeter() }; // prettier-ignore
      if (!sample) sample = JSON.stringify(t);
      const start = performance.now();
      try {
        return await original.call(this, t);
      } finally {
        latencies.push(performance.now() - start);
      }
    };
    try {
      result = await simulate({
        url: app.base,
        databaseFile,
        careSite: siteId,
        devices: INGEST.devices,
        days: INGEST.days,
        seed: SEED,
        concurrency: INGEST.concurrency,
        rate: 0,
        syncDays: 1,
        log: (line) => log(`  ${line}`),
      });
    } finally {
      DeviceClient.prototype.sendTransmission = original;
    }
    if (!clock) throw new Error("the simulator sent nothing");
    const c0: { cpu: number; t: number; us: number; contention: () => Contention } = clock;
    seconds = (performance.now() - c0.t) / 1000;
    // The server's CPU until the adherence worker has caught up with what was sent.
    const db = new Database(databaseFile, { readonly: true });
    try {
      const queued = db.prepare(`SELECT COUNT(*) AS n FROM "AdherenceQueue"`);
      const deadline = Date.now() + 120_000;
      while ((queued.get() as { n: number }).n > 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
    } finally {
      db.close();
    }
    serverCpu = processCpuMs(app.pid) - c0.cpu;
    contention = c0.contention();
    const label =
      "Ingest over HTTP (the simulator's transmissions until the adherence worker caught up)";
    profileWindows.push({ group: "ingest", pid: app.pid, label, window: { fromUs: c0.us, toUs: monotonicUs() } }); // prettier-ignore
  } finally {
    await app.stop();
  }
  // The floor: the bare handler reading the same JSON bodies, at the same concurrency.
  const child = await startFloorServer(PORT.floor);
  let floor: LoadResult;
  try {
    floor = await runLoad({ base: `http://127.0.0.1:${PORT.floor}`, pid: child.pid!, requests: [{ method: "POST", path: "/api/v1/devices/X/transmissions", headers: { "content-type": "application/json" }, body: sample }], connections: INGEST.concurrency, duration: options.duration, warmup: options.warmup, expect: [202] }); // prettier-ignore
  } finally {
    await stopServer(child);
  }
  const therapiesPerS = result.therapiesAccepted / seconds;
  const transmissionsPerS = result.transmissions / seconds;
  const cpuPer = serverCpu / result.transmissions;
  rows.push({
    group: "ingest",
    name: `Ingest over HTTP: ${fmt(INGEST.devices)} devices × ${INGEST.days} daily transmissions, ${INGEST.concurrency} at a time (simulator)`,
    targets: [minTarget("≥ 2,000 therapies/s", 2000, "therapies/s")],
    judged: [therapiesPerS],
    latency: percentiles(latencies),
    perSecond: transmissionsPerS,
    cpuMs: cpuPer,
    measured: `${fmt(therapiesPerS)} therapies/s, ${fmt(transmissionsPerS)} transmissions/s (${(result.therapiesAccepted / result.transmissions).toFixed(2)} therapies each)`,
    floor: `bare handler: ${fmt(floor.perSecond)} req/s, ${fmt(floor.cpuMsPerRequest, 2)} ms CPU`,
    ratio: `CPU ${ratio(cpuPer, floor.cpuMsPerRequest)}`,
    problem: [result.errors ? `${result.errors} failed transmissions` : "", loadProblems(floor) ? `floor: ${loadProblems(floor)}` : ""].filter(Boolean).join("; ") || undefined, // prettier-ignore
    contention: contention!,
  });
}

// ---- device log ----

async function ensureLogFile() {
  const dir = path.join(SCRATCH, "logs", `${LOG_MB}mb`);
  const existing = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith(".")) : [];
  if (existing.length === 1) return path.join(dir, existing[0]);
  fs.rmSync(dir, { recursive: true, force: true });
  log(`Writing a ${LOG_MB} MB device log (scripts/make-device-log.ts, demo key) …`);
  const written = await writeDeviceLog({ type: "cough", deviceId: "BENCH200", dir, sizeMb: LOG_MB, seed: 7, keyId: "demo" }); // prettier-ignore
  return written.path;
}

/** The floor of decrypting: every record of the file through AES-256-GCM (node:crypto), nothing else. */
async function gcmFloor(file: string) {
  const keys = resolveLogKeys(undefined, "test");
  const t0 = performance.now();
  let keyId = "";
  let n = -1;
  let carry = "";
  let plain = 0;
  const open = (line: string) => {
    if (n < 0) keyId = /;key=([A-Za-z0-9-]+);/.exec(line)?.[1] ?? "";
    else if (line) {
      const raw = Buffer.from(line, "base64");
      const d = createDecipheriv("aes-256-gcm", keys.get(keyId)!, raw.subarray(0, 12), { authTagLength: 16 }); // prettier-ignore
      d.setAAD(Buffer.from(`${keyId}:${n}`, "latin1"));
      d.setAuthTag(raw.subarray(raw.length - 16));
      plain += d.update(raw.subarray(12, raw.length - 16)).length;
      d.final();
    }
    n++;
  };
  for await (const chunk of fs.createReadStream(file, {
    encoding: "latin1",
  }) as AsyncIterable<string>) {
    const parts = (carry + chunk).split("\n");
    carry = parts.pop()!;
    for (const p of parts) open(p.endsWith("\r") ? p.slice(0, -1) : p);
  }
  if (carry) open(carry);
  return { ms: performance.now() - t0, records: n, plainMb: plain / 1024 / 1024 };
}

async function devicelogRows() {
  const file = await ensureLogFile();
  const fileMb = fs.statSync(file).size / 1024 / 1024;
  const dataDir = path.join(SCRATCH, "devicelog-world");
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const databaseFile = path.join(dataDir, "arc.db");
  await seedDemoWorld(databaseFile);
  const db = new Database(databaseFile, { readonly: true });
  const siteadmin = (db.prepare(`SELECT id FROM "User" WHERE username = 'demo.siteadmin'`).get() as { id: string }).id; // prettier-ignore
  db.close();
  const cookies = await makeSessions(databaseFile, SESSION_SECRET, Array.from({ length: C }, () => ({ userId: siteadmin }))); // prettier-ignore
  const others = (app: App, duration: number, warmup: number) => ({ base: app.base, pid: app.pid, requests: [{ path: "/app" }], cookies, connections: C, duration, warmup }); // prettier-ignore

  let app = await startApp(PORT.devicelog, dataDir, ["devicelog"]);
  let uploadMs = NaN;
  let firstOpen = { ms: NaN, status: 0 };
  let reopen = { ms: NaN, status: 0 };
  let warmOpen = { ms: NaN, status: 0 };
  let base: LoadResult, duringUpload: LoadResult, duringReopen: LoadResult;
  let memory = { rssMb: NaN, hwmMb: NaN };
  let problem = "";
  try {
    base = await runLoad(others(app, options.duration, options.warmup));
    // Upload (the decrypt pages' form) and first open, with the other users' load running.
    const load = await startLoad(others(app, 3600, 0));
    let uuid = "";
    try {
      const form = new FormData();
      form.append(LOG_FILE_FIELD, await fs.openAsBlob(file), path.basename(file));
      const t0 = performance.now();
      const res = await fetch(`${app.base}/decrypt/upload?back=%2Fdecrypt`, { method: "POST", body: form, redirect: "manual" }); // prettier-ignore
      await res.text();
      uploadMs = performance.now() - t0;
      const location = res.headers.get("location") ?? "";
      uuid = new URL(location, app.base).searchParams.get("log") ?? "";
      if (!uuid) problem = `the upload was refused (HTTP ${res.status}, ${location})`;
      else firstOpen = await timedGet(`${app.base}/decrypt?uuid=${uuid}`);
    } finally {
      load.stop();
      duringUpload = await load.finished;
      profileWindows.push({ group: "devicelog", pid: app.pid, label: `Device log: the ${fmt(fileMb)} MB upload and first open, other users loading \`/app\``, window: duringUpload.window }); // prettier-ignore
    }
    if (uuid) {
      await app.stop();
      app = await startApp(PORT.devicelog, dataDir, ["devicelog"]);
      const again = await startLoad(others(app, 3600, 0));
      try {
        // Let the other users' load start before the reopen.
        await new Promise((r) => setTimeout(r, 500));
        reopen = await timedGet(`${app.base}/decrypt?uuid=${uuid}`);
        warmOpen = await timedGet(`${app.base}/decrypt?uuid=${uuid}`);
      } finally {
        again.stop();
        duringReopen = await again.finished;
        profileWindows.push({ group: "devicelog", pid: app.pid, label: "Device log: the reopen after a restart, other users loading `/app`", window: duringReopen.window }); // prettier-ignore
      }
      memory = processMemory(app.pid);
      if (reopen.status !== 200) problem = `the reopen answered HTTP ${reopen.status}`;
    } else duringReopen = duringUpload;
  } finally {
    await app.stop();
  }
  const floor = await gcmFloor(file);
  rows.push({
    group: "devicelog",
    name: `Device log: first open of a ${fmt(fileMb)} MB log's therapy dashboard after a restart`,
    targets: [maxTarget("< 1 s", 1000, "ms")],
    judged: [reopen.ms],
    memory,
    measured: `${fmt(reopen.ms)} ms (then ${fmt(warmOpen.ms)} ms warm; upload ${fmt(uploadMs)} ms, first open ${fmt(firstOpen.ms)} ms)`,
    floor: `GCM loop ${fmt(floor.ms)} ms (${fmt(floor.records)} records)`,
    ratio: ratio(reopen.ms, floor.ms),
    problem: problem || undefined,
  });
  const worst = Math.max(duringUpload.latency.p95, duringReopen.latency.p95);
  rows.push({
    group: "devicelog",
    name: "Device log: other users' dashboard (`/app`) during the upload and the reopen",
    targets: [maxTarget("p95 < 1.5× without", 1.5, "×")],
    judged: [worst / base.latency.p95],
    latency: duringUpload.latency,
    perSecond: duringUpload.perSecond,
    cpuMs: duringUpload.cpuMsPerRequest,
    measured: `p95 ${fmt(base.latency.p95)} ms without; ${fmt(duringUpload.latency.p95)} ms during the upload (p99 ${fmt(duringUpload.latency.p99)}), ${fmt(duringReopen.latency.p95)} ms during the reopen`, // prettier-ignore
    floor: `without: p95 ${fmt(base.latency.p95)} ms`,
    ratio: `p95 ${ratio(worst, base.latency.p95)}`,
    problem:
      [loadProblems(base), loadProblems(duringUpload)].filter(Boolean).join("; ") || undefined,
    contention: duringUpload.contention,
  });
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

function machine(build: ReturnType<typeof ensureBuild>) {
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim(); // prettier-ignore
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT, encoding: "utf8" }).stdout.trim(); // prettier-ignore
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  return (
    `${cpu}, ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
    `${os.type()} ${os.release()}; commit ${commit}${dirty ? " (with uncommitted changes)" : ""}, ` +
    `build \`${build.version}\` (build/version.txt ${build.builtAt.toISOString().slice(0, 16).replace("T", " ")} UTC)` +
    (build.stale.length ? `, ${build.stale.length} source file(s) newer than the build` : "")
  );
}

function table() {
  const header = ["Row", "Target", "p50 / p95 / p99 ms", "req/s", "CPU ms/req", "RSS MB now / peak", "Floor", "Ratio", "Verdict"]; // prettier-ignore
  const body = rows.map((r) => {
    const verdicts = r.targets.map((t, i) => verdict(t, r.judged[i]));
    const v = r.problem
      ? `**FAILED**: ${r.problem}`
      : verdicts.length === 0
        ? "–"
        : verdicts.every((x) => x.met)
          ? "met"
          : verdicts.map((x) => x.text).join("; ");
    const lat = r.latency
      ? `${fmt(r.latency.p50)} / ${fmt(r.latency.p95)} / ${fmt(r.latency.p99)}`
      : "–";
    return [
      r.measured ? `${r.name}: **${r.measured}**` : r.name,
      r.targets.map((t) => t.label).join(", ") || "–",
      lat,
      r.perSecond !== undefined ? fmt(r.perSecond) : "–",
      r.cpuMs !== undefined ? fmt(r.cpuMs, 2) : "–",
      r.memory ? `${fmt(r.memory.rssMb)} / ${fmt(r.memory.hwmMb)}` : "–",
      r.floor,
      r.ratio,
      v,
    ];
  });
  return markdownTable(header, body, [false, false, true, true, true, true, false, false, false]);
}

function loadNotes() {
  return rows
    .filter((r) => r.contention)
    .map(
      (r) =>
        `${r.name.replace(/ `.*`/, "")}: load ${r.contention!.load[0].toFixed(1)} → ${r.contention!.load[1].toFixed(1)}, CPU pressure ${Math.round(r.contention!.pressure * 100)} %`,
    ) // prettier-ignore
    .map((l) => `- ${l}`);
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  if (options.build) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  const build = ensureBuild();
  fs.mkdirSync(WORLDS_DIR, { recursive: true });
  fs.mkdirSync(SCRATCH, { recursive: true });
  const want = (row: RowName) => options.only.includes(row);
  log(`npm run bench: ${options.only.join(", ")}; ${options.duration} s runs after ${options.warmup} s of warm-up, ${C} connections${options.quick ? " (quick)" : ""}.`); // prettier-ignore
  const worldNotes: string[] = [];
  const world = async (size: { patients: number; days: number }) => {
    const w = await ensureWorld(WORLDS_DIR, { ...size, seed: SEED }, log);
    worldNotes.push(`${fmt(w.info.patients)} × ${w.info.days}: ${path.relative(ROOT, w.dataDir) || w.dataDir}, ${w.builtInS === null ? "reused" : `built in ${fmt(w.builtInS)} s`}, big site ${w.info.bigSite.name} (${fmt(w.info.bigSite.patients)} patients)`); // prettier-ignore
    return w;
  };

  // The HTTP floor comes first: every page row's floor includes it.
  await floorRow();

  const scale: { small?: Record<string, LoadResult>; large?: Record<string, LoadResult> } = {};
  // One world (--sizes): the memory row runs on it (and says so), on a server of its own.
  const memoryOnSmall = !SIZES.large && want("memory");
  if (want("dashboard") || want("profile")) {
    const w = await world(SIZES.small);
    const app = await startApp(PORT.app, w.dataDir, ["dashboard", "profile"]);
    try {
      if (want("dashboard"))
        scale.small = await dashboardRows(w, `${fmt(SIZES.small.patients)} × ${SIZES.small.days}`, app, [p95Target(100), rpsTarget(100)]); // prettier-ignore
      if (want("profile")) await profileRows(w, app);
    } finally {
      await app.stop();
    }
  }
  if (memoryOnSmall) {
    const w = await world(SIZES.small);
    const app = await startApp(PORT.app, w.dataDir, ["memory"]);
    try {
      await memoryRows(w, app);
    } finally {
      await app.stop();
    }
  }
  if (!SIZES.large && (want("admin") || want("memory")))
    log(
      `One world (--sizes): the large world's rows (dashboard at scale, admin) are left out${memoryOnSmall ? "; the memory row ran on the one world" : ""}.`,
    );
  if (SIZES.large && (want("dashboard") || want("admin") || want("memory"))) {
    const large = SIZES.large;
    const w = await world(large);
    const app = await startApp(PORT.app, w.dataDir, ["dashboard", "admin", "memory"]);
    try {
      if (want("dashboard"))
        scale.large = await dashboardRows(w, `${fmt(large.patients)} × ${large.days}`, app, [p95Target(150)]); // prettier-ignore
      if (want("admin")) await adminRows(w, app);
      if (want("memory")) await memoryRows(w, app);
    } finally {
      await app.stop();
    }
  }
  if (scale.small && scale.large && SIZES.large) {
    for (const key of ["counts", "list"]) {
      lines.push(scaleLine(`Dashboard ${key}, ${fmt(SIZES.large.patients)} vs ${fmt(SIZES.small.patients)} patients`, scale.small[key].latency.p95, scale.large[key].latency.p95)); // prettier-ignore
    }
  }
  if (want("ingest")) await ingestRow();
  if (want("devicelog")) await devicelogRows();

  const minutes = (performance.now() - started) / 60_000;
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const { start, end } = sectionMarkers("bench");
  const section = [
    start,
    "",
    "## npm run bench: over HTTP, beside the floors",
    "",
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`${command}\` (${minutes.toFixed(1)} min) on ${machine(build)}. ` +
      `${options.duration} s per row after ${options.warmup} s of warm-up, ${C} connections (memory: ${MEMORY_USERS}), each its own signed-in session; ` +
      "the production server (`node build/server.js`, NODE_ENV=production, LOG_REQUESTS=0, DEMO_MODE=1) on the world's DATA_DIR. " +
      "Latency is per answer as autocannon sees it; CPU ms/req is the server's utime + stime (/proc) over the timed run ÷ answers; " +
      "RSS is VmRSS (peak sampled during the run) / VmHWM (the process's peak). A page row's floor is the bare node:http " +
      "handler's CPU per request plus the median CPU time of hand-written SQL answering the same question on the same database " +
      "(bare better-sqlite3, in the bench's process); its ratio is the server's CPU per request ÷ that floor.",
    "",
    ...table(),
    "",
    ...lines.map((l) => `- ${l}`),
    ...(lines.length ? [""] : []),
    "Worlds:",
    "",
    ...worldNotes.map((n) => `- ${n}`),
    "",
    "Load on the machine during each row (2 cores shared; figures are noisy, ratios less so):",
    "",
    ...loadNotes(),
    "",
    "To re-run: `npm run build && npm run bench` (`-- --quick` to try it, `-- --only dashboard,admin`, " +
      "`-- --profile all` for where the time goes (the bench-profile section), `-- --soak-minutes 30` for the soak).",
    "",
    end,
  ].join("\n");
  console.log(`\n${section}\n`);
  const profiled = options.profile.length > 0;
  const where = profiled ? profileSection(command, minutes, build) : "";
  if (profiled) console.log(`\n${where}\n`);
  const failed = rows.filter((r) => r.problem);
  if (failed.length > 0) {
    console.error(`${failed.length} row(s) failed: docs/performance.md is not written.`);
    process.exitCode = 1;
  } else if (!options.write || options.quick) {
    log("(not written to docs/performance.md: --quick or --no-write)");
  } else if (profiled) {
    // Profiled figures carry the profiler's cost: only where the time goes is written.
    writeSection("bench-profile", where);
  } else writeSection("bench", section);
}

/** The "where the time goes" section of a profiled run (`--profile`). */
function profileSection(command: string, minutes: number, build: ReturnType<typeof ensureBuild>) {
  const { start, end } = sectionMarkers("bench-profile");
  return [
    start,
    "",
    "## Where the time goes: CPU profiles of the rows, cut to each timed run",
    "",
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`${command}\` (${minutes.toFixed(1)} min) on ${machine(build)}. ` +
      "Each server ran with `node --cpu-prof` (sampling every 1 ms; the figures of a profiled run are a few per cent slower, so its table is " +
      "not written); each row's profile is the samples of its timed run only (start-up and warm-up left out), idle left out. " +
      "Self time is where the CPU was when sampled: a SQLite statement's time shows as the JavaScript function that ran it.",
    "",
    ...(profiles.length ? profiles.flatMap((p) => [p, ""]) : ["(no profile was written)", ""]),
    end,
  ].join("\n");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
