// Device ingest through the HTTP API: the production build, driven by the device simulator
// (scripts/simulate-devices.ts) with 8 devices sending at once.
//
//   npm run bench:ingest              measures the current build (builds first if there is none)
//   npm run bench:ingest -- --build   runs `npm run build` first
//   options: --devices N (default 1600), --days N (default 30), --concurrency N (default 8),
//            --sync-days 1,7 (the scenarios: days a transmission gathers), --no-write (print only)
//
// It seeds the demo world (prisma/seed.ts seedDemoWorld) into a temporary DATA_DIR, adds a care
// site with enough patients for the simulator's devices, starts `node build/server.js` on a free
// port (NODE_ENV=production, LOG_REQUESTS=0, RATE_LIMIT_SCALE=100), and runs simulate(...): it
// provisions and pairs a device per patient, then every device sends its days in order, one
// transmission a day (and, in the second scenario, one a week: --sync-days), `--concurrency`
// devices at once, as fast as the server answers; each scenario on a fresh DATA_DIR. Each
// request is timed on the client (DeviceClient.sendTransmission, wrapped here); the server's CPU
// time comes from /proc, up to the moment the adherence worker has emptied AdherenceQueue (it
// recomputes off the request path). The server is stopped with SIGTERM. Then, with the server
// gone, a smaller batch of devices goes through the same app code in this process, one
// transmission at a time, to show where a request's time goes (validation, ingest write,
// adherence recompute).
// It prints a table and rewrites its own section of docs/performance.md (between the ingest
// markers; the rest of that file is kept).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { seedDemoWorld } from "../../prisma/seed";
import { DeviceClient, type Transmission } from "../sim/client";
import { plan, provision, simulate } from "../simulate-devices";
import {
  addBenchSite,
  cpuPressureTotal,
  ensureBuild,
  freePort,
  markdownTable,
  quantile,
  sectionMarkers,
  startServer,
  stopServer,
  waitForHealth,
  writeSection,
} from "./support";

const { start: START_MARKER, end: END_MARKER } = sectionMarkers("ingest");
const SESSION_SECRET = `ingest-${crypto.randomBytes(24).toString("hex")}`;

const DEVICES = Number(argValue("devices") ?? 1600);
const DAYS = Number(argValue("days") ?? 30);
const CONCURRENCY = Number(argValue("concurrency") ?? 8);
const SYNC_DAYS = (argValue("sync-days") ?? "1,7").split(",").map(Number);
const SEED = 42;
/** Devices of the in-process breakdown (after the HTTP run). */
const BREAKDOWN_DEVICES = 60;
const TARGET_THERAPIES_PER_SECOND = 2_000;

function argValue(name: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Server measurements
// ---------------------------------------------------------------------------------------------

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function processCpuSeconds(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = (() => {
  const run = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  return Number(run.stdout?.trim()) || 100;
})();

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

function tableCount(db: Database.Database, table: string) {
  return (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
}

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

type HttpRun = Awaited<ReturnType<typeof runHttp>>;

async function runHttp(dataDir: string, siteId: string, syncDays: number) {
  const databaseFile = path.join(dataDir, "arc.db");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, output } = startServer(port, dataDir, { SESSION_SECRET, RATE_LIMIT_SCALE: "100" });
  try {
    await waitForHealth(base, child, output);
    // Time every request the simulator makes; the CPU and wall clocks start at its first request
    // (provisioning and planning come before).
    const latencies: number[] = [];
    const clocks: {
      start?: {
        wall: number;
        serverCpu: number;
        clientCpu: NodeJS.CpuUsage;
        pressure: number;
        load: number;
      };
    } = {};
    const original = DeviceClient.prototype.sendTransmission;
    DeviceClient.prototype.sendTransmission = async function (
      this: DeviceClient,
      transmission: Transmission,
    ) {
      clocks.start ??= {
        wall: performance.now(),
        serverCpu: processCpuSeconds(child.pid!),
        clientCpu: process.cpuUsage(),
        pressure: cpuPressureTotal(),
        load: os.loadavg()[0],
      };
      const start = performance.now();
      try {
        return await original.call(this, transmission);
      } finally {
        latencies.push(performance.now() - start);
      }
    };
    let result: Awaited<ReturnType<typeof simulate>>;
    try {
      result = await simulate({
        url: base,
        databaseFile,
        careSite: siteId,
        devices: DEVICES,
        days: DAYS,
        seed: SEED,
        concurrency: CONCURRENCY,
        rate: 0,
        syncDays,
        log: (line) => console.log(line),
      });
    } finally {
      DeviceClient.prototype.sendTransmission = original;
    }
    const c0 = clocks.start;
    if (!c0) throw new Error("the simulator sent nothing");
    const sent = performance.now();
    // The run ends when the adherence worker has caught up with what was sent.
    const queue = new Database(databaseFile, { readonly: true });
    try {
      const queued = queue.prepare(`SELECT COUNT(*) AS n FROM "AdherenceQueue"`);
      const deadline = Date.now() + 120_000;
      while ((queued.get() as { n: number }).n > 0) {
        if (Date.now() > deadline) throw new Error("the adherence queue did not drain in 2 min");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      queue.close();
    }
    const catchUpMs = performance.now() - sent;
    const wall = (performance.now() - c0.wall) / 1000;
    const serverCpu = processCpuSeconds(child.pid!) - c0.serverCpu;
    const clientCpuUsage = process.cpuUsage(c0.clientCpu);
    const clientCpu = (clientCpuUsage.user + clientCpuUsage.system) / 1e6;
    const pressure = (cpuPressureTotal() - c0.pressure) / 1e6 / wall;
    const load0 = c0.load;
    const load1 = os.loadavg()[0];
    latencies.sort((a, b) => a - b);

    // What the database holds now, and whether a scheduled job ran meanwhile.
    const db = new Database(databaseFile, { readonly: true });
    const stored = {
      therapies: (db.prepare(`SELECT COUNT(*) AS n FROM "Therapy" t JOIN "Pairing" p ON p.id = t.pairingId WHERE p.careSiteId = ?`).get(siteId) as { n: number }).n, // prettier-ignore
      cycles: tableCount(db, "Cycle"),
      dailyRows: (db.prepare(`SELECT COUNT(*) AS n FROM "DailyAdherence" d JOIN "Membership" m ON m.userId = d.patientId AND m.careSiteId = ?`).get(siteId) as { n: number }).n, // prettier-ignore
      jobs: (
        db
          .prepare(`SELECT job, COUNT(*) AS n FROM "JobRun" WHERE startedAt >= ? GROUP BY job`)
          .all(Date.now() - Math.ceil(wall + 5) * 1000) as { job: string; n: number }[]
      ).map((r) => `${r.job} ×${r.n}`),
    };
    db.close();
    const probe = await probeRejected(base, child.pid!, result.devices[0].serial);
    return {
      syncDays,
      result,
      probe,
      catchUpMs,
      wall,
      seconds: result.seconds,
      latencies,
      serverCpu,
      clientCpu,
      pressure,
      load: [load0, load1],
      stored,
    };
  } finally {
    await stopServer(child);
  }
}

/**
 * The fixed cost of a request: PROBE_REQUESTS transmissions with a wrong token, CONCURRENCY at a
 * time. The server answers 401 after express, helmet, compression, Remix's routing and the device
 * lookup (authenticateDevice), before reading the body.
 */
const PROBE_REQUESTS = 3_000;
async function probeRejected(base: string, pid: number, serial: string) {
  const url = `${base}/api/v1/devices/${serial}/transmissions`;
  const body = JSON.stringify({ sentAt: new Date().toISOString(), hmr: 1, therapies: [] });
  const send = async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { Authorization: "Bearer wrong-token", "Content-Type": "application/json" },
      body,
    });
    await res.text();
    if (res.status !== 401) throw new Error(`probe: expected 401, got ${res.status}`);
  };
  for (let i = 0; i < 50; i++) await send();
  const latencies: number[] = [];
  const cpu0 = processCpuSeconds(pid);
  const wall0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < PROBE_REQUESTS) {
        const start = performance.now();
        await send();
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - wall0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    serverCpuMs: ((processCpuSeconds(pid) - cpu0) / latencies.length) * 1000,
    p50: quantile(latencies, 0.5),
  };
}

type Breakdown = {
  transmissions: number;
  therapies: number;
  validate: number;
  ingest: number;
  recompute: number;
  recomputeRows: number;
};

/**
 * The same app code in this process, one transmission at a time, for a fresh batch of devices:
 * validation (parseTransmission), ingestTransmission (the write transaction, which queues the
 * patient), and processAdherenceQueue right after it (the recompute of that one patient; the
 * server's worker batches the patients of a burst, so this is its most expensive case).
 */
async function runBreakdown(dataDir: string, siteId: string): Promise<Breakdown> {
  process.env.DATA_DIR = dataDir;
  process.env.SESSION_SECRET = SESSION_SECRET;
  process.env.NODE_ENV = "production";
  process.env.LOG_REQUESTS = "0";
  const { configureDatabase, disconnectDatabase, prisma } = await import("../../app/lib/db.server");
  const { ingestTransmission } = await import("../../app/domain/devices/ingest.server");
  const { closeIngestDatabase } = await import("../../app/domain/devices/ingestDb.server");
  const { processAdherenceQueue } = await import("../../app/domain/adherence/adherence.server");
  const { parseTransmission } = await import("../../app/domain/devices/schema");
  await configureDatabase();
  try {
    const options = {
      url: "",
      databaseFile: path.join(dataDir, "arc.db"),
      careSite: siteId,
      devices: BREAKDOWN_DEVICES,
      days: DAYS,
      seed: SEED + 1,
      concurrency: 1,
      rate: 0,
    };
    const { site, provisioned } = provision(options);
    const yesterday = new Date(Date.now() - 86_400_000);
    const lastDay = new Intl.DateTimeFormat("en-CA", { timeZone: site.timeZone }).format(yesterday);
    const totals: Breakdown = {
      transmissions: 0,
      therapies: 0,
      validate: 0,
      ingest: 0,
      recompute: 0,
      recomputeRows: 0,
    };
    for (const device of provisioned) {
      const row = await prisma.device.findUnique({
        where: { serial: device.serial },
        select: { id: true },
      });
      for (const transmission of plan(device, site.timeZone, lastDay, DAYS, SEED + 1)) {
        const body = JSON.parse(JSON.stringify(transmission)) as unknown;
        let t = performance.now();
        const parsed = parseTransmission(body);
        totals.validate += performance.now() - t;
        if (!parsed.ok) throw new Error(`invalid transmission: ${JSON.stringify(parsed.errors)}`);
        t = performance.now();
        const result = await ingestTransmission(row!, parsed.data);
        totals.ingest += performance.now() - t;
        t = performance.now();
        const recomputed = await processAdherenceQueue();
        totals.recompute += performance.now() - t;
        totals.recomputeRows += recomputed.rows;
        totals.transmissions++;
        totals.therapies += result.therapiesAccepted;
      }
    }
    return totals;
  } finally {
    closeIngestDatabase();
    await disconnectDatabase();
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main() {
  const build = ensureBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-bench-ingest-"));
  const dirs = [dir];
  try {
    const databaseFile = path.join(dir, "arc.db");
    const seeded = await seedDemoWorld(databaseFile);
    const siteId = addBenchSite(databaseFile, DEVICES + BREAKDOWN_DEVICES, "ingest", 2_000_000);
    const runs: HttpRun[] = [await runHttp(dir, siteId, SYNC_DAYS[0])];
    const breakdown = await runBreakdown(dir, siteId);
    // Every further scenario on a fresh copy of the world (the same patients, no therapies).
    for (const syncDays of SYNC_DAYS.slice(1)) {
      const next = fs.mkdtempSync(path.join(os.tmpdir(), "arc-bench-ingest-"));
      dirs.push(next);
      await seedDemoWorld(path.join(next, "arc.db"));
      runs.push(
        await runHttp(
          next,
          addBenchSite(path.join(next, "arc.db"), DEVICES, "ingest", 2_000_000),
          syncDays,
        ),
      );
    }
    const section = render({ build, seeded: seeded.counts, runs, breakdown });
    console.log(section);
    const errors = runs.reduce((n, run) => n + run.result.errors, 0);
    if (errors > 0) {
      console.error(`${errors} requests failed: the figures are not written.`);
      process.exitCode = 1;
    } else if (!process.argv.includes("--no-write")) writeSection("ingest", section);
  } finally {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

function render(input: {
  build: ReturnType<typeof ensureBuild>;
  seeded: Record<string, number>;
  runs: HttpRun[];
  breakdown: Breakdown;
}) {
  const { build, runs, breakdown: b } = input;
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const n = (v: number) => Math.round(v).toLocaleString("en-US");
  const ms = (v: number) => v.toFixed(1);
  const builtAt = build.builtAt.toISOString().slice(0, 19).replace("T", " ");
  const staleNote = build.stale.length
    ? ` ${build.stale.length} source file(s) changed after that build (e.g. ${build.stale.slice(0, 3).join(", ")}): it may not be the code on disk.`
    : " No source file is newer than the build.";
  const figures = runs.map((http) => {
    const r = http.result;
    return {
      http,
      r,
      therapiesPerSecond: r.therapiesAccepted / http.seconds,
      transmissionsPerSecond: r.transmissions / http.seconds,
      perTransmission: r.therapiesAccepted / r.transmissions,
      serverCpuPerRequest: (http.serverCpu / r.transmissions) * 1000,
      coreShare: Math.round((http.serverCpu / http.wall) * 100),
    };
  });
  const scenario = (syncDays: number) =>
    syncDays === 1 ? "daily transmissions" : `a transmission every ${syncDays} days`;

  const table = markdownTable;
  const row = (label: string, value: (f: (typeof figures)[number]) => string) => [
    label,
    ...figures.map(value),
  ];
  const main = table(
    ["Measure", ...figures.map((f) => scenario(f.http.syncDays))],
    [
      row("Devices × days (concurrency)", (f) => `${n(f.r.devices.length)} × ${DAYS} (${CONCURRENCY})`),
      row("Transmissions sent", (f) => n(f.r.transmissions)),
      row("Therapies per transmission", (f) => f.perTransmission.toFixed(2)),
      row("Therapies accepted (duplicates)", (f) => `${n(f.r.therapiesAccepted)} (${n(f.r.therapiesDuplicate)})`),
      row("Failed requests", (f) => n(f.r.errors)),
      row("Sending time", (f) => `${f.http.seconds.toFixed(1)} s`),
      row("**Therapies per second**", (f) => `**${n(f.therapiesPerSecond)}**`),
      row("Transmissions per second", (f) => n(f.transmissionsPerSecond)),
      row("Request latency p50 / p95 / p99 / max", (f) => { const lat = f.http.latencies; return `${ms(quantile(lat, 0.5))} / ${ms(quantile(lat, 0.95))} / ${ms(quantile(lat, 0.99))} / ${ms(lat[lat.length - 1])} ms`; }), // prettier-ignore
      row("Adherence caught up after the last answer", (f) => `${n(f.http.catchUpMs)} ms`),
      row("Server CPU, catch-up included", (f) => `${f.http.serverCpu.toFixed(1)} s (${f.coreShare} % of one core; ${f.serverCpuPerRequest.toFixed(2)} ms per request)`), // prettier-ignore
      row("Client CPU (simulator, this process)", (f) => `${f.http.clientCpu.toFixed(1)} s (${Math.round((f.http.clientCpu / f.http.wall) * 100)} % of one core)`), // prettier-ignore
      row("CPU pressure; load average start → end", (f) => `${Math.round(f.http.pressure * 100)} %; ${f.http.load[0].toFixed(1)} → ${f.http.load[1].toFixed(1)}`), // prettier-ignore
      row("Stored afterwards (bench site)", (f) => `${n(f.http.stored.therapies)} therapies, ${n(f.http.stored.dailyRows)} DailyAdherence rows`), // prettier-ignore
    ], // prettier-ignore
    [false, ...figures.map(() => true)],
  );
  const first = figures[0];
  const per = (v: number) => (v / b.transmissions).toFixed(2);
  const write = b.ingest;
  const breakdownRows = table(
    ["Step (in process, one at a time)", "ms per transmission"],
    [
      ["Validation (parseTransmission, zod)", per(b.validate)],
      ["Ingest write (BEGIN IMMEDIATE … COMMIT, queues the patient)", per(write)],
      ["Adherence recompute of that one patient (processAdherenceQueue)", per(b.recompute)],
      [`Server CPU per request over HTTP (${scenario(first.http.syncDays)}, above)`, first.serverCpuPerRequest.toFixed(2)], // prettier-ignore
      ["A rejected request (wrong token, 401), server CPU", first.http.probe.serverCpuMs.toFixed(2)], // prettier-ignore
    ],
    [false, true],
  );
  const verdicts = figures.map(
    (f) =>
      `with ${scenario(f.http.syncDays)} (${f.perTransmission.toFixed(2)} therapies each) ` +
      `${n(f.therapiesPerSecond)} therapies per second, ${(f.therapiesPerSecond / TARGET_THERAPIES_PER_SECOND).toFixed(2)}× the target ` +
      `(${f.therapiesPerSecond >= TARGET_THERAPIES_PER_SECOND ? "met" : "missed"}), ${f.serverCpuPerRequest.toFixed(2)} ms of server CPU per request`,
  );
  const reading =
    `Against the target of ${n(TARGET_THERAPIES_PER_SECOND)} therapies per second: ${verdicts.join("; ")}. ` +
    "The server is one Node process, so its CPU per request caps the request rate whatever the concurrency; the simulator " +
    `shares the 2 cores (${((first.http.clientCpu / first.r.transmissions) * 1000).toFixed(2)} ms of client CPU per request). ` +
    `A request refused before any ingest work (wrong token, 401) costs ${first.http.probe.serverCpuMs.toFixed(2)} ms of server CPU ` +
    `(${n(first.http.probe.perSecond)} such requests per second at ${CONCURRENCY} at a time, p50 ${ms(first.http.probe.p50)} ms): ` +
    "that is the floor of express, Remix's routing and the Fetch request/response of any device request. In process, the recompute of one " +
    `patient costs ${per(b.recompute)} ms (${(b.recomputeRows / b.transmissions).toFixed(1)} DailyAdherence rows per transmission, from the ` +
    "transmission's day to today); on the server the adherence worker does it off the request path, for all the patients of a " +
    "burst in one pass, which is why the server's CPU per request is below the in-process sum." +
    (runs.some((r) => r.stored.jobs.length)
      ? ` Scheduled jobs that ran meanwhile: ${[...new Set(runs.flatMap((r) => r.stored.jobs))].join(", ")}.`
      : "");
  return [
    START_MARKER,
    "",
    "## Device ingest",
    "",
    `Run ${when} UTC on ${cpu}, ${os.cpus().length} cores, Node ${process.version}, ${os.type()} ${os.release()}. ` +
      `Build \`${build.version}\` (build/version.txt written ${builtAt} UTC).${staleNote} ` +
      "To re-run: `npm run bench:ingest` (`tsx scripts/bench/ingest.ts`; `-- --build` builds first; `-- --devices N --days N --sync-days 1,7`).",
    "",
    `The production server (\`node build/server.js\`, NODE_ENV=production, LOG_REQUESTS=0, RATE_LIMIT_SCALE=100) on a temporary ` +
      `DATA_DIR holding the demo world (${n(input.seeded.Therapy ?? 0)} therapies) plus a care site of patients. ` +
      `The simulator (\`simulate(...)\` of scripts/simulate-devices.ts, seed ${SEED}) provisions and pairs ${n(DEVICES)} devices, then sends ` +
      `each device's last ${DAYS} days in day order, ${CONCURRENCY} devices at a time, as fast as the server answers, through HTTP on ` +
      "127.0.0.1 (Node's fetch): once with one transmission a day (`--sync-days 1`), and, on a fresh DATA_DIR, once with a " +
      "transmission every 7 days (`--sync-days 7`: a relay or phone that connects weekly; a prescription change is sent at once). " +
      "Client and server share the machine's 2 cores. Latency is per request, measured around `DeviceClient.sendTransmission`; the " +
      "server's CPU time comes from /proc and runs until the adherence worker has emptied AdherenceQueue.",
    "",
    ...main,
    "",
    `Where a request's time goes: after the first HTTP run, ${n(b.transmissions)} transmissions of ${BREAKDOWN_DEVICES} more devices ` +
      `(${n(b.therapies)} therapies, daily) through the same app code in the benchmark's process, one at a time.`,
    "",
    ...breakdownRows,
    "",
    reading,
    "",
    END_MARKER,
  ].join("\n");
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
