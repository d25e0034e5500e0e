// Device statistics (domain/deviceStats/deviceStats.server.ts, the /deviceStats page and its exports) on
// 1,000,000 records over 30 days (issue 10: first page, a search, a range and the averages each
// under 200 ms p95; a full-range CSV export that streams with flat memory).
//
//   npm run bench:device-stats   (tsx scripts/bench/device-stats.ts; run from the project root so
//                                 tsx reads tsconfig.json and resolves the app's "~/" imports)
//   options: --runs N (timed runs per case, default 30), --fresh (build the database again even if
//            a reusable one exists), --data-dir DIR (where the database lives, default
//            $TMPDIR/arc-bench-device-stats), --no-export (skip the exports), --no-write (print only)
//
// The database is its own DATA_DIR (never the repo's data/ or a test database): migrated with the
// app's own runner, then 35 devices and 1,000,000 DeviceStat rows bulk-inserted with better-sqlite3
// in one transaction (DateTime columns as integer ms, as the app stores them), oldest first as
// ingest would have written them, then ANALYZE. Building takes a while, so the file is kept and
// reused by the next run when its shape marker and row count match and every migration it has
// applied is still in prisma/migrations with the same checksum (newer ones are applied to it, then
// ANALYZE again); --fresh rebuilds it. The build runs in a child process, so that its page cache
// is not in the RSS figures of the exports. The data ends at the minute the database was built, and the
// benchmark's "now" is that minute, so a reused database measures the same ranges.
//
// Then it imports the app's modules with DATA_DIR pointing at the database and calls the model
// functions as the page's loader does (readStatsQuery from the URL's parameters; listDeviceStats and
// deviceStatAverages together for a page load). Each case: 3 warm-up calls, then N timed; p50, p95
// and max in ms. The exports (CSV of a day, CSV of all 30 days, xlsx of a day) go to a counting
// sink, with RSS and heapUsed sampled about every 250 ms and the peak RSS read before and after. A
// child process with Prisma's query log (so the timed client is the app's own, unchanged) records
// the SQL Prisma sends; each statement's EXPLAIN QUERY PLAN is shown, and its floor (the same SQL
// and parameters on a better-sqlite3 connection of its own) timed. It prints the section and
// rewrites its own section of docs/performance.md (between the device-stats markers; the rest of
// that file is kept).
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { applyMigrations, readMigrations } from "../../app/lib/migrate.server";
import { prng } from "../sim/prng";
import {
  type Contention,
  contentionMeter,
  markdownTable as table,
  quantile,
  queryPlanLines,
  ROOT,
  sectionMarkers,
  writeSection,
} from "./support";

const { start: START_MARKER, end: END_MARKER } = sectionMarkers("device-stats");

const ROWS = 1_000_000;
const DAYS = 30;
const DEVICES = 35;
const DUAL_SHARE = 0.4;
const CLEAR_SHARE = 0.3;
const PROFILE_SHARE = 0.1;
const THERAPY_SHARE = 0.25;
const SEED = 20261121;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const STEP_MS = (DAYS * DAY_MS) / ROWS;
const TESTS = ["boot", "idle", "stress", "thermal"];
const TEST_TYPES = ["burn-in", "soak", "regression", "smoke", "field"];
const MODES = ["Auto", "Manual"];
/** What the generator writes; a stored database with another marker is built again. */
const SHAPE = `device-stats v1: ${ROWS} rows, ${DAYS} days, ${DEVICES} devices, seed ${SEED}`;

const WARMUP = 3;
const RUNS = Math.max(30, Number(argValue("runs") ?? 30));
const FLOOR_RUNS = 10;
const TARGET_MS = 200;
const SAMPLE_MS = 250;
const MB = 1024 * 1024;

function argValue(name: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

// ---------------------------------------------------------------------------------------------
// The database
// ---------------------------------------------------------------------------------------------

type Meta = {
  shape: string;
  /** The data's last instant (a whole minute): the benchmark's "now". */
  endMs: number;
  rows: number;
  devices: { serial: string; type: string; core: string }[];
  profiles: number;
  buildSeconds: number;
  builtAt: string;
};

type World = Meta & { file: string; reused: boolean; migrated: string[]; fileMb: number };

const round2 = (v: number) => Math.round(v * 100) / 100;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function buildWorld(dir: string): World {
  const started = performance.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "arc.db");
  const migrated = applyMigrations(file, readMigrations(path.join(ROOT, "prisma", "migrations")));
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -1000000");
  db.pragma("foreign_keys = OFF");
  const r = prng(SEED);
  const gauss = () => (r.next() + r.next() + r.next() + r.next() - 2) * 1.7; // about N(0, 1)
  const endMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const startMs = endMs - DAYS * DAY_MS;

  const serials = new Set<string>();
  const devices = Array.from({ length: DEVICES }, () => {
    let serial = "";
    // As the demo seed makes them: year, week, "A", number.
    const pad = (v: number, width: number) => String(v).padStart(width, "0");
    do serial = `${r.int(21, 24)}${pad(r.int(1, 52), 2)}A${pad(r.int(1, 9999), 4)}`;
    while (serials.has(serial));
    serials.add(serial);
    return {
      id: crypto.randomUUID(),
      serial,
      type: r.chance(CLEAR_SHARE) ? "clear" : "cough",
      core: r.chance(DUAL_SHARE) ? "Dual" : "Single",
      memory: 30 + r.next() * 30,
      cpu: 8 + r.next() * 25,
      temp: 40 + r.next() * 12,
      // Some devices report more often than others.
      weight: 0.5 + r.next(),
    };
  });
  const totalWeight = devices.reduce((a, d) => a + d.weight, 0);
  const pickDevice = () => {
    let x = r.next() * totalWeight;
    for (const d of devices) if ((x -= d.weight) < 0) return d;
    return devices[devices.length - 1];
  };

  const insertDevice = db.prepare(
    `INSERT INTO "Device" (id, serial, type, tokenHash, createdAt, lastSeenAt) VALUES (?, ?, ?, 'x', ?, ?)`,
  );
  const insertStat = db.prepare(
    `INSERT INTO "DeviceStat" ("deviceId", "serial", "deviceType", "core", "memoryUsage",
       "cpuUsage", "temperature", "test", "createdAt", "receivedAt", "therapyStartTime",
       "therapyEndTime", "profile", "testType", "usr", "sys", "nic", "idle", "io", "irq", "sirq",
       "mode", "oscillation", "frequency", "amplitude", "cycle", "flow", "pausePressure",
       "inspPressure", "expPressure", "duration", "testDec")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
             ?, ?, ?, ?)`,
  );
  let profiles = 0;
  db.transaction(() => {
    for (const d of devices) insertDevice.run(d.id, d.serial, d.type, startMs - 90 * DAY_MS, endMs);
    for (let i = 0; i < ROWS; i++) {
      // Oldest first, about one every 2.6 s; the last one at the end minute.
      const at = i === ROWS - 1 ? endMs : Math.floor(startMs + (i + r.next()) * STEP_MS);
      const d = pickDevice();
      const therapy = r.chance(THERAPY_SHARE);
      const cpu = round2(clamp(d.cpu + (therapy ? 20 : 0) + gauss() * 8, 0.5, 100));
      const memory = round2(clamp(d.memory + (therapy ? 8 : 0) + gauss() * 5, 5, 99));
      const temp = Math.round((d.temp + cpu * 0.15 + gauss() * 1.5) * 10) / 10;
      const duration = therapy ? r.int(30, 900) : null;
      let profile: string | null = null;
      if (r.chance(PROFILE_SHARE)) {
        profiles++;
        profile = JSON.stringify(
          Array.from({ length: r.int(3, 6) }, (_, k) => ({
            step: k + 1,
            pressure: r.int(-45, 45),
            flow: round2(r.next() * 300),
            time: r.int(1, 5),
          })),
        );
      }
      const testType = r.pick(TEST_TYPES);
      insertStat.run(
        d.id,
        d.serial,
        d.type,
        d.core,
        memory,
        cpu,
        temp,
        therapy ? "therapy" : r.pick(TESTS),
        at,
        at + r.int(200, 5000),
        therapy ? at - duration! * 1000 : null,
        therapy ? at : null,
        profile,
        testType,
        round2(cpu * 0.62),
        round2(cpu * 0.24),
        0,
        round2(100 - cpu),
        round2(cpu * 0.08),
        round2(cpu * 0.02),
        round2(cpu * 0.04),
        therapy ? r.pick(MODES) : null,
        therapy ? (r.chance(0.3) ? "On" : "Off") : null,
        therapy ? r.int(10, 20) : null,
        therapy ? r.int(1, 10) : null,
        therapy ? r.int(1, 6) : null,
        therapy ? round2(100 + r.next() * 200) : null,
        therapy ? 0 : null,
        therapy ? r.int(30, 50) : null,
        therapy ? -r.int(30, 50) : null,
        duration,
        r.chance(0.5) ? `Routine ${testType} run` : null,
      );
    }
  })();
  db.exec("ANALYZE");
  const meta: Meta = {
    shape: SHAPE,
    endMs,
    rows: ROWS,
    devices: devices.map((d) => ({ serial: d.serial, type: d.type, core: d.core })),
    profiles,
    buildSeconds: (performance.now() - started) / 1000,
    builtAt: new Date().toISOString(),
  };
  db.exec(`CREATE TABLE "_bench_meta" ("value" TEXT NOT NULL)`);
  db.prepare(`INSERT INTO "_bench_meta" ("value") VALUES (?)`).run(JSON.stringify(meta));
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  // Flush the build's dirty pages now rather than during the timed runs.
  const fd = fs.openSync(file, "r+");
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return { ...meta, file, reused: false, migrated, fileMb: fs.statSync(file).size / MB };
}

/** The stored database when it has this generator's shape and migrations it can still take; else null. */
function reuseWorld(dir: string, justBuilt = false): World | null {
  const file = path.join(dir, "arc.db");
  if (!fs.existsSync(file)) return null;
  const migrations = readMigrations(path.join(ROOT, "prisma", "migrations"));
  let meta: Meta;
  try {
    const db = new Database(file, { readonly: true });
    try {
      meta = JSON.parse(
        (db.prepare(`SELECT "value" FROM "_bench_meta"`).get() as { value: string }).value,
      ) as Meta;
      if (meta.shape !== SHAPE) {
        console.log(`The stored database has another shape (${meta.shape}): building it again.`);
        return null;
      }
      const applied = db
        .prepare(
          `SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name`,
        )
        .all() as { name: string; checksum: string }[];
      const sum = (sql: string) => crypto.createHash("sha256").update(sql).digest("hex");
      const known = new Map(migrations.map((m) => [m.name, sum(m.sql)]));
      const foreign = applied.filter((a) => known.get(a.name) !== a.checksum);
      if (foreign.length > 0) {
        console.log(
          `The stored database has migrations that are not (or no longer) in prisma/migrations: ` +
            `${foreign.map((f) => f.name).join(", ")}; building it again.`,
        );
        return null;
      }
      const rows = (db.prepare(`SELECT count(*) AS n FROM "DeviceStat"`).get() as { n: number }).n;
      if (rows !== meta.rows) {
        console.log(`The stored database has ${rows} rows, not ${meta.rows}: building it again.`);
        return null;
      }
    } finally {
      db.close();
    }
  } catch (error) {
    console.log(`The stored database cannot be reused (${(error as Error).message}): building it again.`); // prettier-ignore
    return null;
  }
  if (!justBuilt)
    console.log(`Reusing ${file} (built ${meta.builtAt}, ${meta.rows.toLocaleString("en-US")} rows; --fresh to rebuild).`); // prettier-ignore
  const migrated = applyMigrations(file, migrations);
  if (migrated.length > 0) {
    console.log(`Applied ${migrated.join(", ")} to it; ANALYZE.`);
    const db = new Database(file);
    db.exec("ANALYZE");
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
  }
  return { ...meta, file, reused: true, migrated, fileMb: fs.statSync(file).size / MB };
}

/** A 4-character piece of one device's serial that no other serial and no other searched value contains. */
function searchTerm(world: World) {
  const others = [...TESTS, "therapy", ...TEST_TYPES, ...MODES, "cough", "clear", "Single", "Dual"];
  const device = world.devices[Math.floor(world.devices.length / 2)];
  for (let i = 0; i + 4 <= device.serial.length; i++) {
    const piece = device.serial.slice(i, i + 4);
    const hits = [...world.devices.map((d) => d.serial), ...others].filter((s) =>
      s.toLowerCase().includes(piece.toLowerCase()),
    );
    if (hits.length === 1) return { piece, serial: device.serial };
  }
  throw new Error(`no piece of ${device.serial} is unique to it`);
}

// ---------------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------------

type Timing = { p50: number; p95: number; max: number; runs: number };
type Case = {
  group: string;
  label: string;
  range: string;
  required: boolean;
  matched: number;
  run: () => Promise<unknown>;
};
type Result = Case & Timing;

async function timeCase(c: Case): Promise<Result> {
  for (let i = 0; i < WARMUP; i++) await c.run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await c.run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    ...c,
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    max: times[times.length - 1],
    runs: RUNS,
  };
}

// ---------------------------------------------------------------------------------------------
// Exports: a counting sink, memory sampled as it goes
// ---------------------------------------------------------------------------------------------

type Sample = { t: number; rss: number; heap: number; rows: number };
type ExportRun = {
  label: string;
  range: string;
  seconds: number;
  bytes: number;
  rows: number;
  lines: number;
  before: { rss: number; heap: number };
  /** The process's peak RSS (getrusage maxrss) before and after: catches a peak between samples. */
  peakRss: { before: number; after: number };
  samples: Sample[];
};

async function drain(
  label: string,
  range: string,
  rows: number,
  stream: ReadableStream<Uint8Array>,
  countLines: boolean,
): Promise<ExportRun> {
  const mem = () => process.memoryUsage();
  const peak0 = process.resourceUsage().maxRSS * 1024;
  const m0 = mem();
  const samples: Sample[] = [];
  let bytes = 0;
  let lines = 0;
  const t0 = performance.now();
  let last = t0;
  const sample = () => {
    const m = mem();
    last = performance.now();
    samples.push({ t: last - t0, rss: m.rss, heap: m.heapUsed, rows: lines });
  };
  // A timer and the sink itself both sample: whichever runs when ~250 ms have passed.
  const timer = setInterval(sample, SAMPLE_MS);
  try {
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (countLines) {
        const buf = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
      }
      if (performance.now() - last >= SAMPLE_MS) sample();
    }
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  sample();
  const peakRss = { before: peak0, after: process.resourceUsage().maxRSS * 1024 };
  return { label, range, seconds, bytes, rows, lines, before: { rss: m0.rss, heap: m0.heapUsed }, peakRss, samples }; // prettier-ignore
}

// ---------------------------------------------------------------------------------------------
// The SQL Prisma sends (a child with the query log) and its plans
// ---------------------------------------------------------------------------------------------

type PlanFilter = { label: string; filter: { start: number; end: number; q: string } };
type Captured = { label: string; query: string; params: string };

/** In the child: the app's model on a client made as db.server.ts makes it, plus the query log. */
async function captureChild(dir: string, filters: PlanFilter[]) {
  process.env.DATA_DIR = dir;
  process.env.SESSION_SECRET = crypto.randomBytes(32).toString("hex");
  process.env.NODE_ENV = "production";
  const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
  const { PrismaClient } = await import("../../app/generated/prisma/client");
  const client = new PrismaClient({
    adapter: new PrismaBetterSQLite3(
      { url: `file:${path.join(dir, "arc.db")}`, timeout: 5000 },
      { timestampFormat: "unixepoch-ms" },
    ),
    log: [{ emit: "event", level: "query" }],
  });
  const captured: Captured[] = [];
  let label = "";
  client.$on("query", (e) => {
    const kind = label.endsWith("export")
      ? "export batch"
      : /^SELECT COUNT\(\*\)/.test(e.query)
        ? "count"
        : /GROUP BY/.test(e.query)
          ? "averages"
          : "page";
    captured.push({ label: `${label}: ${kind}`, query: e.query, params: e.params });
  });
  (globalThis as { __arcPrisma?: unknown }).__arcPrisma = client;
  const model = await import("../../app/domain/deviceStats/deviceStats.server");
  for (const f of filters) {
    const filter = { start: new Date(f.filter.start), end: new Date(f.filter.end), q: f.filter.q };
    label = f.label;
    await model.listDeviceStats(filter, 1, 10);
    await model.deviceStatAverages(filter);
  }
  // The export's batches: the first and one after a cursor (the first filter is a day or more).
  const f = filters[0];
  label = `${f.label}: export`;
  const stream = model.deviceStatsCsv({
    start: new Date(f.filter.start),
    end: new Date(f.filter.end),
    q: f.filter.q,
  });
  const reader = stream.getReader();
  while (!(await reader.read()).done) {
    if (captured.filter((c) => c.label.startsWith(label)).length >= 2) {
      await reader.cancel();
      break;
    }
  }
  await client.$disconnect();
  process.stdout.write(`${JSON.stringify(captured)}\n`);
}

function captureSql(dir: string, filters: PlanFilter[]): Promise<Captured[]> {
  return new Promise((resolve, reject) => {
    const args = ["--import", "tsx", __filename, "--child", dir, JSON.stringify(filters)];
    const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (d) => (out += d));
    proc.on("error", reject);
    proc.on("close", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").pop()!) as Captured[])
        : reject(new Error(`the SQL capture child exited with ${code}`)),
    );
  });
}

/** Prisma's logged parameters as the adapter binds them (dates as integer ms, ints as numbers). */
function bindable(params: string): unknown[] {
  const list = JSON.parse(params) as unknown[];
  return list.map((p) =>
    typeof p !== "string"
      ? p
      : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(p)
        ? Date.parse(p)
        : /^-?\d+$/.test(p)
          ? Number(p)
          : p,
  );
}

type Floor = { label: string; p50: number; rows: number };

/**
 * Each statement's EXPLAIN QUERY PLAN, and (but the export's) its floor: the same SQL and
 * parameters run directly on a better-sqlite3 connection of its own, 1 warm-up then FLOOR_RUNS.
 */
function explainAndFloor(file: string, captured: Captured[]) {
  const db = new Database(file, { readonly: true });
  try {
    const plans: Record<string, string> = {};
    const floors: Floor[] = [];
    const seen = new Map<string, number>();
    for (const c of captured) {
      const n = (seen.get(c.label) ?? 0) + 1;
      seen.set(c.label, n);
      const label = captured.filter((x) => x.label === c.label).length > 1 ? `${c.label} ${n}` : c.label; // prettier-ignore
      const args = bindable(c.params);
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${c.query}`).all(...args) as {
        id: number;
        parent: number;
        detail: string;
      }[];
      const depth = new Map<number, number>([[0, -1]]);
      const plan = rows.map((r) => {
        const d = (depth.get(r.parent) ?? -1) + 1;
        depth.set(r.id, d);
        return `${"  ".repeat(d)}${r.detail}`;
      });
      plans[label] = `${c.query}\n-- parameters ${c.params}\n${plan.join("\n")}`;
      if (c.label.endsWith("export batch")) continue;
      const statement = db.prepare(c.query);
      let result = statement.all(...args);
      const times: number[] = [];
      for (let i = 0; i < FLOOR_RUNS; i++) {
        const start = performance.now();
        result = statement.all(...args);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      floors.push({ label, p50: quantile(times, 0.5), rows: result.length });
    }
    return { plans, floors };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------

async function main() {
  const dir = path.resolve(argValue("data-dir") ?? path.join(os.tmpdir(), "arc-bench-device-stats")); // prettier-ignore
  for (const forbidden of [path.join(ROOT, "data"), path.join(ROOT, "tests")]) {
    if ((dir + path.sep).startsWith(forbidden + path.sep))
      throw new Error(`--data-dir must not be under ${forbidden}`);
  }
  let world = process.argv.includes("--fresh") ? null : reuseWorld(dir);
  if (!world) {
    console.log(`Building ${ROWS.toLocaleString("en-US")} records in ${dir} ...`);
    // In a child process, so the build's page cache does not stay in this process's RSS (the
    // exports' memory figures are this process's).
    const child = spawnSync(process.execPath, ["--import", "tsx", __filename, "--build", dir], {
      cwd: ROOT,
      stdio: "inherit",
    });
    if (child.status !== 0) throw new Error(`building the database failed (${child.status})`);
    world = reuseWorld(dir, true);
    if (!world) throw new Error("the database just built cannot be read");
    world.reused = false;
    console.log(`Built in ${world.buildSeconds.toFixed(1)} s (${Math.round(world.fileMb)} MB).`);
  }
  const term = searchTerm(world);

  // The app reads its environment when first imported: point it at the database first.
  process.env.DATA_DIR = dir;
  process.env.SESSION_SECRET = crypto.randomBytes(32).toString("hex");
  process.env.NODE_ENV = "production";
  const model = await import("../../app/domain/deviceStats/deviceStats.server");
  const { configureDatabase, disconnectDatabase } = await import("../../app/lib/db.server");
  await configureDatabase();

  const now = new Date(world.endMs);
  const local = (ms: number) => model.toLocalMinute(new Date(ms));
  const ranges = {
    default: {},
    day: { start: local(world.endMs - DAY_MS), end: local(world.endMs) },
    week: { start: local(world.endMs - 7 * DAY_MS), end: local(world.endMs) },
    full: { start: local(world.endMs - DAYS * DAY_MS), end: local(world.endMs) },
  } as const;
  type RangeKey = keyof typeof ranges;
  const rangeName: Record<RangeKey, string> = {
    default: "default (last 10 min)",
    day: "1 day",
    week: "7 days",
    full: `${DAYS} days (all)`,
  };
  const query = (range: RangeKey, extra: Record<string, string> = {}) =>
    model.readStatsQuery(new URLSearchParams({ ...ranges[range], ...extra }), now);
  const totals = new Map<string, number>();
  const totalOf = async (range: RangeKey, q = "") => {
    const key = `${range}|${q}`;
    if (!totals.has(key)) {
      const { filter } = query(range, q ? { q } : {});
      totals.set(key, (await model.listDeviceStats(filter, 1, 10)).total);
    }
    return totals.get(key)!;
  };
  const pageLoad = (range: RangeKey, extra: Record<string, string> = {}) => {
    const qy = query(range, extra);
    return () =>
      Promise.all([
        model.listDeviceStats(qy.filter, qy.page, qy.size),
        model.deviceStatAverages(qy.filter),
      ]);
  };
  const list = (range: RangeKey, extra: Record<string, string> = {}) => {
    const qy = query(range, extra);
    return () => model.listDeviceStats(qy.filter, qy.page, qy.size);
  };
  const averages = (range: RangeKey, extra: Record<string, string> = {}) => {
    const qy = query(range, extra);
    return () => model.deviceStatAverages(qy.filter);
  };

  const s = term.piece;
  const fullTotal = await totalOf("full");
  const lastPage = String(Math.ceil(fullTotal / 10));
  const cases: Case[] = [
    { group: "1. first page", label: "page load: list + count + averages, size 10", range: rangeName.default, required: true, matched: await totalOf("default"), run: pageLoad("default") }, // prettier-ignore
    { group: "1. first page", label: "list + count alone", range: rangeName.default, required: true, matched: await totalOf("default"), run: list("default") }, // prettier-ignore
    { group: "1. first page", label: "averages alone", range: rangeName.default, required: true, matched: await totalOf("default"), run: averages("default") }, // prettier-ignore
    ...(["default", "day", "week", "full"] as const).flatMap((r) => [
      { group: "2. search", label: `page load, q="${s}"`, range: rangeName[r], required: true, matched: 0, run: pageLoad(r, { q: s }) }, // prettier-ignore
      { group: "2. search", label: `list + count alone, q="${s}"`, range: rangeName[r], required: true, matched: 0, run: list(r, { q: s }) }, // prettier-ignore
      { group: "2. search", label: `averages alone, q="${s}"`, range: rangeName[r], required: true, matched: 0, run: averages(r, { q: s }) }, // prettier-ignore
    ]),
    ...(["day", "week", "full"] as const).flatMap((r) => [
      { group: "3. range", label: "page load: list + count + averages, size 10", range: rangeName[r], required: true, matched: 0, run: pageLoad(r) }, // prettier-ignore
      { group: "3. range", label: "list + count, size 10", range: rangeName[r], required: true, matched: 0, run: list(r) }, // prettier-ignore
      { group: "3. range", label: "list + count, size 1000", range: rangeName[r], required: true, matched: 0, run: list(r, { size: "1000" }) }, // prettier-ignore
    ]),
    ...(["day", "week", "full"] as const).map((r) => ({
      group: "4. averages",
      label: "averages",
      range: rangeName[r],
      required: true,
      matched: 0,
      run: averages(r),
    })),
    { group: "5. deep page", label: `last page (${Number(lastPage).toLocaleString("en-US")}), size 10: list + count`, range: rangeName.full, required: false, matched: fullTotal, run: list("full", { page: lastPage }) }, // prettier-ignore
  ];
  // The rows each case's range and search match (the page's Total).
  for (const c of cases) {
    if (c.matched) continue;
    const r = (Object.keys(rangeName) as RangeKey[]).find((k) => rangeName[k] === c.range)!;
    c.matched = await totalOf(r, c.label.includes("q=") ? s : "");
  }
  const expectedSearch = await totalOf("full", s);
  console.log(`Search "${s}" (a piece of ${term.serial}) matches ${expectedSearch} of ${fullTotal} records.`); // prettier-ignore

  // One call of every case first, so the first case does not pay for a cold cache.
  for (const c of cases) await c.run();
  const meter = contentionMeter();
  const results: Result[] = [];
  for (const c of cases) {
    const r = await timeCase(c);
    results.push(r);
    console.log(`${c.group} | ${c.label} | ${c.range}: p50 ${r.p50.toFixed(1)}, p95 ${r.p95.toFixed(1)}, max ${r.max.toFixed(1)} ms`); // prettier-ignore
  }
  const contention = meter();

  // Exports: the CSV of a day first (for comparison), then of everything, then the xlsx of a day.
  const exports: ExportRun[] = [];
  if (!process.argv.includes("--no-export")) {
    const runs = [
      { label: "CSV", range: "day" as const, make: model.deviceStatsCsv },
      { label: "CSV", range: "full" as const, make: model.deviceStatsCsv },
      { label: "xlsx", range: "day" as const, make: model.deviceStatsXlsx },
    ];
    for (const r of runs) {
      const rows = await totalOf(r.range);
      console.log(`${r.label} export of ${rows.toLocaleString("en-US")} records (${rangeName[r.range]}) ...`); // prettier-ignore
      const csv = r.label === "CSV";
      const e = await drain(r.label, rangeName[r.range], rows, r.make(query(r.range).filter), csv);
      exports.push(e);
      const span = (xs: number[]) => `${(Math.min(...xs) / MB).toFixed(0)}..${(Math.max(...xs) / MB).toFixed(0)} MB`; // prettier-ignore
      console.log(`  ${e.seconds.toFixed(1)} s, ${(e.bytes / MB).toFixed(1)} MB, heapUsed ${span(e.samples.map((x) => x.heap))}, RSS ${span(e.samples.map((x) => x.rss))}`); // prettier-ignore
      // Header, the rows, a blank line, the six averages.
      if (csv && e.lines !== rows + 1 + 1 + 6)
        throw new Error(`the CSV has ${e.lines} lines for ${rows} records`);
    }
  }
  await disconnectDatabase();

  // The SQL Prisma sends, its plans and its floor.
  const asFilter = (range: RangeKey, q = "") => {
    const f = query(range, q ? { q } : {}).filter;
    return { start: f.start.getTime(), end: f.end.getTime(), q: f.q };
  };
  console.log("Recording the SQL (child process), EXPLAIN QUERY PLAN and floors ...");
  const captured = await captureSql(dir, [
    { label: `${DAYS} days`, filter: asFilter("full") },
    { label: "default range", filter: asFilter("default") },
    { label: `1 day, q="${s}"`, filter: asFilter("day", s) },
    { label: `${DAYS} days, q="${s}"`, filter: asFilter("full", s) },
  ]);
  const { plans, floors } = explainAndFloor(world.file, captured);

  const section = render({ world, term, results, contention, exports, plans, floors });
  console.log(section);
  if (!process.argv.includes("--no-write")) writeSection("device-stats", section);
}

// ---------------------------------------------------------------------------------------------
// The section of docs/performance.md
// ---------------------------------------------------------------------------------------------

function render(input: {
  world: World;
  term: { piece: string; serial: string };
  results: Result[];
  contention: Contention;
  exports: ExportRun[];
  plans: Record<string, string>;
  floors: Floor[];
}) {
  const { world, term, results, contention, floors } = input;
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const n = (v: number) => v.toLocaleString("en-US");
  const fmt = (ms: number) => ms.toFixed(1);
  const mb = (bytes: number) => (bytes / MB).toFixed(1);
  const dual = world.devices.filter((d) => d.core === "Dual").length;
  const clear = world.devices.filter((d) => d.type === "clear").length;
  const mtime = (file: string) =>
    fs.statSync(path.join(ROOT, file)).mtime.toISOString().slice(0, 16).replace("T", " ");

  const mainTable = table(
    ["Case", "Measured", "Range", "Matched rows", "p50 ms", "p95 ms", "max ms", `p95 < ${TARGET_MS} ms`], // prettier-ignore
    results.map((r) => [
      r.group,
      r.label,
      r.range,
      n(r.matched),
      fmt(r.p50),
      fmt(r.p95),
      fmt(r.max),
      r.required ? (r.p95 < TARGET_MS ? "yes" : "**no**") : r.p95 < TARGET_MS ? "yes (not required)" : "no (not required)", // prettier-ignore
    ]),
    [false, false, false, true, true, true, true, false],
  );
  const floorTable = table(
    ["Statement (as Prisma sends it)", "Floor p50 ms", "Rows returned"],
    floors.map((f) => [f.label, fmt(f.p50), n(f.rows)]),
    [false, true, true],
  );

  const exportLines: string[] = [];
  const quarters = (e: ExportRun) => {
    const span = e.seconds * 1000;
    return [0, 1, 2, 3].map((k) => {
      const inQ = e.samples.filter((x) => x.t >= (k * span) / 4 && x.t < ((k + 1) * span) / 4);
      return inQ.length ? mb(Math.max(...inQ.map((x) => x.heap))) : "–";
    });
  };
  const heaps = (e: ExportRun) => e.samples.map((x) => x.heap);
  const rsses = (e: ExportRun) => e.samples.map((x) => x.rss);
  if (input.exports.length > 0) {
    exportLines.push(
      ...table(
        ["Export", "Range", "Rows", "Seconds", "Rows/s", "MB written", "Samples", "heapUsed before", "heapUsed min..max", "heapUsed max, each quarter of the run", "RSS before", "RSS min..max", "Peak RSS before → after"], // prettier-ignore
        input.exports.map((e) => [
          e.label,
          e.range,
          n(e.rows),
          e.seconds.toFixed(1),
          n(Math.round(e.rows / e.seconds)),
          mb(e.bytes),
          String(e.samples.length),
          mb(e.before.heap),
          `${mb(Math.min(...heaps(e)))}..${mb(Math.max(...heaps(e)))}`,
          quarters(e).join(" / "),
          mb(e.before.rss),
          `${mb(Math.min(...rsses(e)))}..${mb(Math.max(...rsses(e)))}`,
          `${mb(e.peakRss.before)} → ${mb(e.peakRss.after)}`,
        ]),
        [false, false, true, true, true, true, true, true, true, false, true, true, true],
      ),
    );
  }

  // The reading.
  const required = results.filter((r) => r.required);
  const slow = required.filter((r) => r.p95 >= TARGET_MS);
  const find = (group: string, label: string, range: string) =>
    results.find((r) => r.group === group && r.label.startsWith(label) && r.range === range);
  const floorOf = (label: string) => floors.find((f) => f.label === label);
  const fullName = `${DAYS} days (all)`;
  const lines: string[] = [];
  lines.push(
    slow.length === 0
      ? `Every required case (first page, search, range, averages; ${required.length} in all) keeps its p95 under ${TARGET_MS} ms.`
      : `${required.length - slow.length} of ${required.length} required cases keep their p95 under ${TARGET_MS} ms. ` +
          `Over it: ${slow.map((r) => `${r.group} ${r.label} over ${r.range} (${fmt(r.p95)} ms)`).join("; ")}.`,
  );
  const underGroups = ["1. first page", "2. search", "3. range", "4. averages"].map((g) => {
    const inGroup = required.filter((r) => r.group === g);
    const ok = [...new Set(inGroup.map((r) => r.range))].filter((range) =>
      inGroup.filter((r) => r.range === range).every((r) => r.p95 < TARGET_MS),
    );
    return `${g.slice(3)}: ${ok.length ? ok.join(", ") : "none"}`;
  });
  lines.push(
    `Ranges where every measure of a case is under ${TARGET_MS} ms p95: ${underGroups.join("; ")}.`,
  );
  /** How a statement reads, from its plan. */
  const how = (label: string) => {
    const plan = input.plans[label] ?? "";
    const index = /USING (COVERING )?INDEX (\S+)/.exec(plan);
    return [
      index
        ? `from the index ${index[2]}${index[1] ? " alone (no table rows)" : " and the table rows"}`
        : "by scanning the table",
      plan.includes("TEMP B-TREE") ? "then sorts" : "with no sort",
    ].join(", ");
  };
  const searchFull = find("2. search", "page load", fullName);
  const searchCount = floorOf(`${DAYS} days, q="${term.piece}": count`);
  const searchAvg = floorOf(`${DAYS} days, q="${term.piece}": averages`);
  if (searchFull && searchFull.p95 >= TARGET_MS && searchCount && searchAvg) {
    lines.push(
      `Why the search over long ranges is slow: it is a substring match (LIKE '%…%') over six columns, which no index can ` +
        `answer, so the exact Total and the averages each visit every record of the range and test up to six LIKEs on ` +
        `its table row: over ${DAYS} days, ${n(world.rows)} records twice (the count ${how(searchCount.label)}, floor ` +
        `${fmt(searchCount.p50)} ms; the averages ${how(searchAvg.label)}, floor ${fmt(searchAvg.p50)} ms), while the ` +
        `page of 10 walks the createdAt index from the newest record and stops at the 10th match. The cost grows with ` +
        `the range, not with the matches: ` +
        ["default", "1 day", "7 days", fullName]
          .map((range) =>
            find(
              "2. search",
              "page load",
              range.startsWith("default") ? "default (last 10 min)" : range,
            ),
          )
          .filter((r): r is Result => Boolean(r))
          .map((r) => `${r.range} ${fmt(r.p50)} ms (p50)`)
          .join(", ") +
        ". Only a search that does not scan (a lookup of the matching values, or a search index) would bring it under; " +
        "no index on these columns helps a LIKE with a leading %.",
    );
  }
  const avgFull = find("4. averages", "averages", fullName);
  const avgFloor = floorOf(`${DAYS} days: averages`);
  const countFloor = floorOf(`${DAYS} days: count`);
  const rangeFull = find("3. range", "page load", fullName);
  if (avgFull && avgFloor && countFloor && rangeFull) {
    lines.push(
      `Over ${DAYS} days without a search, the exact Total reads all ${n(world.rows)} records of the range ` +
        `${how(countFloor.label)} (floor ${fmt(countFloor.p50)} ms), and the averages read them ${how(avgFloor.label)} ` +
        `(floor ${fmt(avgFloor.p50)} ms: three AVGs over a million index entries is SQLite's own cost here). ` +
        `So the averages alone are ${avgFull.p95 < TARGET_MS ? "under" : "over"} the target (p95 ${fmt(avgFull.p95)} ms) and a whole ` +
        `${DAYS}-day page load (count + page + averages, run one after the other on the one connection) is ` +
        `${rangeFull.p95 < TARGET_MS ? "under" : "over"} it (p95 ${fmt(rangeFull.p95)} ms); ` +
        "going further would need pre-computed sums (e.g. per hour and core), not a better index.",
    );
  }
  const deep = results.find((r) => r.group === "5. deep page");
  if (deep)
    lines.push(
      `The last page of the ${DAYS} days (offset ${n(deep.matched - 10)}, not a required case): p95 ${fmt(deep.p95)} ms; ` +
        `the page's statement reads ${how(`${DAYS} days: page`)}, so SQLite steps over the offset in index order.`,
    );
  const csvFull = input.exports.find((e) => e.label === "CSV" && e.range === fullName);
  const csvDay = input.exports.find((e) => e.label === "CSV" && e.range !== fullName);
  if (csvFull) {
    lines.push(
      `The CSV of all ${n(csvFull.rows)} records streamed ${mb(csvFull.bytes)} MB in ${csvFull.seconds.toFixed(1)} s ` +
        `(${n(Math.round(csvFull.rows / csvFull.seconds))} rows/s). Memory stayed flat: heapUsed between ` +
        `${mb(Math.min(...heaps(csvFull)))} and ${mb(Math.max(...heaps(csvFull)))} MB over ${csvFull.samples.length} samples ` +
        `with the same ceiling in each quarter of the run (${quarters(csvFull).join(" / ")} MB: garbage collected batch by ` +
        `batch, nothing accumulating), RSS at most ${mb(Math.max(...rsses(csvFull)))} MB` +
        (csvDay
          ? `; a day's CSV (${n(csvDay.rows)} records, ${Math.round(csvFull.rows / csvDay.rows)}× fewer) reached ` +
            `${mb(Math.max(...heaps(csvDay)))} MB of heap.`
          : "."),
    );
  }
  lines.push(
    `Machine during the timed runs: load average ${contention.load[0].toFixed(1)} at the start and ` +
      `${contention.load[1].toFixed(1)} at the end, CPU pressure (some task waiting for a CPU) ` +
      `${Math.round(contention.pressure * 100)} % of the time (other work on this shared machine shows in the p95 and max more than in the p50).`,
  );

  return [
    START_MARKER,
    "",
    "## Device statistics",
    "",
    `Run ${when} UTC on ${cpu}, ${os.cpus().length} cores, Node ${process.version}, ${os.type()} ${os.release()}. ` +
      "To re-run: `npm run bench:device-stats` (`tsx scripts/bench/device-stats.ts`; `-- --runs N`, `-- --fresh` to " +
      "rebuild the database, `-- --data-dir DIR`, `-- --no-export`, `-- --no-write`).",
    "",
    `A database of its own (DATA_DIR \`$TMPDIR/arc-bench-device-stats\` unless \`--data-dir\`, ` +
      `${world.reused ? "reused from an earlier run" : "built by this run"}: built ${world.builtAt.slice(0, 16).replace("T", " ")} UTC ` +
      `in ${world.buildSeconds.toFixed(1)} s by one better-sqlite3 transaction, then ANALYZE; ${Math.round(world.fileMb)} MB; ` +
      `reused while its shape marker and migrations match, newer migrations applied to it) with ` +
      `${n(world.rows)} DeviceStat records over ${DAYS} days, oldest first, about one every ${(STEP_MS / 1000).toFixed(1)} s, ` +
      `the last at the minute the database was built (the benchmark's "now", so a reused database measures the same ranges): ` +
      `${DEVICES} devices (${dual} Dual core, ${DEVICES - dual} Single; ${clear} clear, ${DEVICES - clear} cough; some reporting ` +
      `up to three times as often as others), memory, CPU and temperature as plausible floats per device, ` +
      `${Math.round(THERAPY_SHARE * 100)} % of records during a therapy (mode, pressures, therapy times), tests ` +
      `${[...TESTS, "therapy"].join("/")}, test types ${TEST_TYPES.join("/")}, ${n(world.profiles)} records ` +
      `(${Math.round((world.profiles / world.rows) * 100)} %) with a profile (a JSON list of 3–6 records).`,
    "",
    "Measured: the model functions the page calls, in process through the app's Prisma client, without HTTP, the password " +
      `gate or rendering (domain/deviceStats/deviceStats.server.ts as of ${mtime("app/domain/deviceStats/deviceStats.server.ts")} UTC, ` +
      `prisma/schema.prisma as of ${mtime("prisma/schema.prisma")} UTC): the query read by \`readStatsQuery\` from the URL's ` +
      "start/end/q/page/size as the loader reads them; a page load is " +
      "`Promise.all([listDeviceStats(filter, page, size), deviceStatAverages(filter)])` as the loader runs it " +
      "(`listDeviceStats` is the exact count and one page, newest first). " +
      `The search "${term.piece}" is 4 characters of one device's serial (${term.serial}; no other serial or searched value contains them). ` +
      `${WARMUP} warm-up calls, then ${RUNS} timed calls per case; p50, p95 and max in ms. ` +
      `Target (issue 10): first page, a search, a range and the averages each under ${TARGET_MS} ms p95.`,
    "",
    ...mainTable,
    "",
    `Floor: each statement Prisma sends (recorded below) run directly on a better-sqlite3 connection of its own with the ` +
      `same parameters, 1 warm-up then ${FLOOR_RUNS} runs, p50:`,
    "",
    ...floorTable,
    "",
    ...(exportLines.length
      ? [
          "Exports to a counting sink (the stream read and dropped; a CSV's lines counted to check header + records + blank + 6 averages), " +
            `\`process.memoryUsage()\` sampled about every ${SAMPLE_MS} ms during the export (by a timer and by the sink; ` +
            "fewer samples where exceljs keeps the event loop busy), peak RSS from getrusage; MB = 2^20 bytes:",
          "",
          ...exportLines,
          "",
        ]
      : []),
    lines.join(" "),
    "",
    "The SQL Prisma sends (recorded by a child process through Prisma's query log, on a client made as db.server.ts makes it; " +
      "dates are bound as integer ms) and its `EXPLAIN QUERY PLAN` with the same parameters:",
    "",
    ...queryPlanLines(input.plans),
    END_MARKER,
  ].join("\n");
}

const childAt = process.argv.indexOf("--child");
const buildAt = process.argv.indexOf("--build");
if (buildAt >= 0) {
  buildWorld(process.argv[buildAt + 1]);
} else if (childAt >= 0) {
  captureChild(
    process.argv[childAt + 1],
    JSON.parse(process.argv[childAt + 2]) as PlanFilter[],
  ).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
