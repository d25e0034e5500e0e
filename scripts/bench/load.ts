// Load and what it costs the serving process, for `npm run bench` (scripts/bench/run.ts):
// autocannon runs (a warm-up, then the timed run) with one signed-in session per connection, the
// server's CPU time and memory from /proc, and the bare node:http floor server.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { contentionMeter, type Contention } from "./support";
export { contentionMeter, type Contention };
import {
  parseProcStatTicks,
  parseProcStatusMemory,
  percentiles,
  type Percentiles,
  type ProfileWindow,
} from "./measure";

const CLOCK_TICKS = (() => {
  const run = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  return Number(run.stdout?.trim()) || 100;
})();

/** CPU milliseconds (user + system) a process has used so far. */
export function processCpuMs(pid: number) {
  return (parseProcStatTicks(fs.readFileSync(`/proc/${pid}/stat`, "utf8")) / CLOCK_TICKS) * 1000;
}

/** VmRSS now and VmHWM (peak) of a process, MiB. */
export function processMemory(pid: number) {
  try {
    return parseProcStatusMemory(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return { rssMb: NaN, hwmMb: NaN };
  }
}

// ---------------------------------------------------------------------------------------------
// Sessions: rows in the Session table and their signed cookies (as tests/e2e/support/db.ts does)
// ---------------------------------------------------------------------------------------------

export type SessionSpec = { userId: string; careSiteId?: string };

/** One session per spec, made in the database; the "__arc_session=<value>" cookie of each. */
export async function makeSessions(databaseFile: string, secret: string, specs: SessionSpec[]) {
  const cookie = createCookie("__arc_session", { secrets: [secret] });
  const db = new Database(databaseFile);
  try {
    db.pragma("busy_timeout = 10000");
    const insert = db.prepare(
      `INSERT INTO "Session" (id, userId, data, createdAt, authenticatedAt, lastSeenAt, expiresAt)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const ids = specs.map(() => crypto.randomBytes(32).toString("base64url"));
    const now = Date.now();
    db.transaction(() => {
      specs.forEach((s, i) => {
        const data = { userId: s.userId, authenticatedAt: now, ...(s.careSiteId ? { careSiteId: s.careSiteId } : {}) }; // prettier-ignore
        insert.run(ids[i], s.userId, JSON.stringify(data), now, now, now, now + 12 * 3_600_000);
      });
    })();
    const cookies: string[] = [];
    for (const id of ids) cookies.push((await cookie.serialize(id)).split(";")[0]);
    return cookies;
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// A load run
// ---------------------------------------------------------------------------------------------

export type LoadRequest = {
  method?: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

export type LoadSpec = {
  base: string;
  /** The serving process (its CPU time and memory are read from /proc). */
  pid: number;
  /** Every connection goes through these in turn. */
  requests: LoadRequest[];
  /** Cookie of each connection, in turn (connection i gets cookies[i % length]); none: signed out. */
  cookies?: string[];
  connections: number;
  /** Seconds. */
  duration: number;
  /** Seconds of the same load before the timed run (not counted). */
  warmup: number;
  /** Statuses that count as answered (default [200]); any other fails the run. */
  expect?: number[];
  /** Called every second of the timed run with the server's memory (the soak samples it). */
  onSecond?: (memory: { rssMb: number; hwmMb: number }, elapsedS: number) => void;
};

export type LoadResult = {
  latency: Percentiles;
  requests: number;
  perSecond: number;
  cpuMsPerRequest: number;
  /** Peak VmRSS sampled during the timed run, VmHWM after it (MiB). */
  rssMb: number;
  hwmMb: number;
  /** Answers with an unexpected status (status → count), and socket errors and timeouts. */
  unexpected: Record<string, number>;
  errors: number;
  contention: Contention;
  seconds: number;
  /** The serving process, and its timed run on the monotonic clock (to cut its CPU profile). */
  pid: number;
  window: ProfileWindow;
};

/** Now on the monotonic clock, in µs (the clock of V8's CPU profiles). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

// What a browser's page load sends that changes the answer: HTML (the profile's charts travel once,
// app/ui/charts/hydration.server.ts) and compressed, as every browser asks for it.
const BROWSER_PAGE_LOAD = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "sec-fetch-dest": "document",
  "accept-encoding": "gzip, deflate, br",
};

function cannon(
  spec: LoadSpec,
  seconds: number,
  onResponse?: (status: number, ms: number) => void,
) {
  let next = 0;
  const cookies = spec.cookies ?? [];
  let instance: autocannon.Instance | null = null;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: spec.base,
        connections: spec.connections,
        duration: seconds,
        timeout: 60,
        setupClient: (client) => {
          const cookie = cookies.length ? cookies[next++ % cookies.length] : null;
          client.setRequests(
            spec.requests.map((r) => ({
              method: r.method ?? "GET",
              path: r.path,
              body: r.body,
              headers: {
                ...((r.method ?? "GET") === "GET" ? BROWSER_PAGE_LOAD : {}),
                ...(r.headers ?? {}),
                ...(cookie ? { cookie } : {}),
              },
            })),
          );
        },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onResponse) instance.on("response", (_c, status, _b, ms) => onResponse(status, ms));
  });
  return { done, stop: () => instance?.stop() };
}

/** A warm-up, then the timed run: latency of every answer, req/s, server CPU and memory. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return (await startLoad(spec)).finished;
}

/**
 * The same as runLoad, as two steps: after the warm-up (awaited), the timed run starts and lasts
 * `spec.duration` seconds or until `stop()`; `finished` is its result.
 */
export async function startLoad(spec: LoadSpec) {
  if (spec.warmup > 0) await cannon(spec, spec.warmup).done;
  const expect = new Set(spec.expect ?? [200]);
  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  let rssPeak = 0;
  const started = performance.now();
  const fromUs = monotonicUs();
  const sampler = setInterval(() => {
    const m = processMemory(spec.pid);
    rssPeak = Math.max(rssPeak, m.rssMb);
    spec.onSecond?.(m, (performance.now() - started) / 1000);
  }, 1000);
  const contention = contentionMeter();
  const cpu0 = processCpuMs(spec.pid);
  const run = cannon(spec, spec.duration, (status, ms) => {
    latencies.push(ms);
    if (!expect.has(status)) unexpected[status] = (unexpected[status] ?? 0) + 1;
  });
  const finished = (async (): Promise<LoadResult> => {
    let result: autocannon.Result;
    try {
      result = await run.done;
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const window = { fromUs, toUs: monotonicUs() };
    const cpu = processCpuMs(spec.pid) - cpu0;
    const memory = processMemory(spec.pid);
    return {
      latency: percentiles(latencies),
      requests: latencies.length,
      perSecond: latencies.length / seconds,
      cpuMsPerRequest: latencies.length ? cpu / latencies.length : NaN,
      rssMb: Math.max(rssPeak, memory.rssMb),
      hwmMb: memory.hwmMb,
      unexpected,
      errors: result.errors + result.timeouts,
      contention: contention(),
      seconds,
      pid: spec.pid,
      window,
    };
  })();
  return { stop: run.stop, finished };
}

/** What went wrong in a run ("" when every answer had an expected status). */
export function loadProblems(result: LoadResult) {
  const parts = Object.entries(result.unexpected).map(([s, n]) => `${n}× HTTP ${s}`);
  if (result.errors) parts.push(`${result.errors} socket errors or timeouts`);
  if (result.requests === 0) parts.push("no answer at all");
  return parts.join(", ");
}

/** One GET with the cookie, timed on the client; the status and the body. */
export async function timedGet(url: string, cookie?: string) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const body = await res.text();
  return { status: res.status, ms: performance.now() - t0, body };
}

// ---------------------------------------------------------------------------------------------
// The floor: a bare node:http server in its own process
// ---------------------------------------------------------------------------------------------

/** The floor's page: about the size of a small server-rendered page's markup head. */
const FLOOR_SERVER = `
const http = require("node:http");
const html = "<!doctype html><html lang=en><head><meta charset=utf-8><title>Floor</title></head><body><main><h1>Floor</h1><p>" + "x".repeat(2000) + "</p></main></body></html>";
http.createServer((req, res) => {
  if (req.method === "POST") {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(202, { "content-type": "application/json" });
      res.end(JSON.stringify({ therapiesAccepted: Array.isArray(body.therapies) ? body.therapies.length : 0 }));
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(html);
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
`;

/**
 * The bare node:http handler (GET: a small HTML page, 200; POST: reads and parses the JSON body,
 * 202), in a child process so its CPU time is its own.
 */
export async function startFloorServer(port: number) {
  const child = spawn(process.execPath, ["-e", FLOOR_SERVER], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`floor server exited (${code})`)));
    child.stdout!.once("data", () => resolve());
  });
  return child;
}
