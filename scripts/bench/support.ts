// What every benchmark script shares: percentiles, Markdown tables, and writing its own section of
// docs/performance.md (between `<!-- name:start -->` and `<!-- name:end -->`; the rest is kept).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { DEMO_KEY_HEX } from "../../app/domain/deviceLogs/keys";
import { parsePressureTotal } from "./measure";

export const ROOT = path.resolve(__dirname, "..", "..");
export const DOC_FILE = path.join(ROOT, "docs", "performance.md");

/** The q-quantile (0..1) of an ascending list; NaN when empty. */
export function quantile(sorted: number[], q: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A Markdown table's lines; `right` marks the right-aligned columns. */
export function markdownTable(header: string[], rows: string[][], right: boolean[]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (right[i] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(header), rule, ...rows.map(line)];
}

/** Query plans as markdown: each label, then its plan in a code block. */
export function queryPlanLines(plans: Record<string, string>) {
  return Object.entries(plans).flatMap(([label, plan]) => [
    `${label}:`,
    "",
    "```",
    plan,
    "```",
    "",
  ]);
}

/** CPU pressure (Linux PSI): microseconds during which some task waited for a CPU; NaN elsewhere. */
export function cpuPressureTotal() {
  try {
    return parsePressureTotal(fs.readFileSync("/proc/pressure/cpu", "utf8"));
  } catch {
    return NaN;
  }
}

/** How busy the machine was during a run: load average at its start and end, and CPU pressure. */
export type Contention = { load: [number, number]; pressure: number };

/** Starts measuring contention; the function returned reads it for the time since. */
export function contentionMeter(): () => Contention {
  const load0 = os.loadavg()[0];
  const pressure0 = cpuPressureTotal();
  const wall0 = performance.now();
  return () => ({
    load: [load0, os.loadavg()[0]],
    pressure: (cpuPressureTotal() - pressure0) / ((performance.now() - wall0) * 1000),
  });
}

export function sectionMarkers(name: string) {
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
}

/** Replaces (or appends) the section `name` of docs/performance.md with `section` (markers included). */
export function writeSection(name: string, section: string) {
  const { start: startMarker, end: endMarker } = sectionMarkers(name);
  const doc = fs.readFileSync(DOC_FILE, "utf8");
  const start = doc.indexOf(startMarker);
  const end = doc.indexOf(endMarker);
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + section + doc.slice(end + endMarker.length)
      : `${doc.replace(/\n*$/, "\n\n")}${section}\n`;
  fs.writeFileSync(DOC_FILE, next);
  console.log(`\nWrote the ${name} section of ${path.relative(ROOT, DOC_FILE)}.`);
}

// ---------------------------------------------------------------------------------------------
// The production build and a server of it (benchmarks that go through HTTP)
// ---------------------------------------------------------------------------------------------

/**
 * The build to measure: made first when files are missing (or with --build); its version, when
 * it was made, and the source files changed since (the measured build may not be the code on disk).
 */
export function ensureBuild(extraNeeded: string[] = []) {
  const needed = ["build/server.js", "build/index.js", "build/version.txt", ...extraNeeded];
  const missing = needed.filter((p) => !fs.existsSync(path.join(ROOT, p)));
  if (process.argv.includes("--build") || missing.length > 0) {
    if (missing.length > 0)
      console.log(`No complete build (missing ${missing.join(", ")}): running npm run build.`);
    const run = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (run.status !== 0) throw new Error("npm run build failed");
  }
  const versionFile = path.join(ROOT, "build", "version.txt");
  const version = fs.readFileSync(versionFile, "utf8").trim();
  const builtAt = fs.statSync(versionFile).mtime;
  return { version, builtAt, stale: newerSources(builtAt.getTime()) };
}

function newerSources(builtMs: number) {
  const skip = new Set([
    path.join(ROOT, "app", "generated"),
    path.join(ROOT, "app", "styles", "app.css"),
  ]);
  const found: string[] = [];
  const walk = (p: string) => {
    if (skip.has(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    else if (stat.mtimeMs > builtMs) found.push(path.relative(ROOT, p));
  };
  for (const p of ["app", "server.ts", "remix.config.js"]) {
    if (fs.existsSync(path.join(ROOT, p))) walk(path.join(ROOT, p));
  }
  return found;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

/** The memory settings of the service's environment (docs/operations.md, `npm start`). */
export const SERVICE_MEMORY_ENV = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_TRIM_THRESHOLD_: "131072",
  NODE_OPTIONS: "--max-semi-space-size=8",
};

/**
 * `node build/server.js` in production mode on 127.0.0.1, its output kept for error messages;
 * `nodeArgs` go before the script (e.g. --cpu-prof).
 */
export function startServer(
  port: number,
  dataDir: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
) {
  const output: string[] = [];
  const child = spawn(process.execPath, [...nodeArgs, "build/server.js"], {
    cwd: ROOT,
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_REQUESTS: "0",
      // As the installed service runs (docs/operations.md): two malloc arenas, so that memory
      // freed by libuv's threads (brotli compressing answers) goes back to use; blocks of 128 KiB
      // and more mapped on their own and free memory at the top handed back, so that what a
      // render or start-up freed leaves RSS; V8's young generation at 8 MB semi-spaces.
      ...SERVICE_MEMORY_ENV,
      // Production refuses to start without a key of its own; the demo key's logs are measured.
      DEVICE_LOG_KEYS: `bench:${"be".repeat(32)},demo:${DEMO_KEY_HEX}`,
      PATH: process.env.PATH ?? "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

export async function waitForHealth(base: string, child: ChildProcess, output: string[]) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited (${child.exitCode}):\n${output.join("")}`);
    try {
      const res = await fetch(`${base}/healthz`);
      await res.text();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not healthy after 60 s:\n${output.join("")}`);
}

/** SIGTERM (the server's graceful shutdown), SIGKILL after 25 s. */
export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A care site (Chicago) with `count` accepted patients and no devices yet: the simulator pairs
 * them. `tag` names the site and its people (`bench.<tag>00001`); `phoneBase` keeps phones apart.
 */
export function addBenchSite(databaseFile: string, count: number, tag: string, phoneBase: number) {
  const db = new Database(databaseFile);
  try {
    db.pragma("busy_timeout = 5000");
    const now = Date.now();
    const siteId = crypto.randomUUID();
    const title = tag[0].toUpperCase() + tag.slice(1);
    db.transaction(() => {
      db.prepare(
        `INSERT INTO "CareSite" (id, accountNumber, name, city, state, zip, country, status, timeZone, createdAt, updatedAt)
         VALUES (?, ?, ?, 'Chicago', 'Illinois', '60601', 'United States', 'active', 'America/Chicago', ?, ?)`,
      ).run(siteId, `BENCH-${tag.toUpperCase()}`, `Bench ${title} Respiratory Care`, now, now);
      const user = db.prepare(
        `INSERT INTO "User" (id, username, email, phone, passwordHash, role, status, firstName, lastName, measuringUnit, country, createdAt, updatedAt)
         VALUES (?, ?, ?, ?, 'x', 'patient', 'active', 'Pat', ?, 'Imperial', 'United States', ?, ?)`,
      );
      const membership = db.prepare(
        `INSERT INTO "Membership" (id, careSiteId, userId, role, status, createdAt, updatedAt, acceptedAt)
         VALUES (?, ?, ?, 'patient', 'accepted', ?, ?, ?)`,
      );
      for (let i = 0; i < count; i++) {
        const userId = crypto.randomUUID();
        const n = String(i).padStart(5, "0");
        user.run(userId, `bench.${tag}${n}`, `bench.${tag}${n}@example.test`, `1514${phoneBase + i}`, `${title}${n}`, now, now); // prettier-ignore
        membership.run(crypto.randomUUID(), siteId, userId, now, now, now);
      }
    })();
    db.exec("ANALYZE");
    return siteId;
  } finally {
    db.close();
  }
}
