// The release binary's size, start-up time and idle memory, beside `node build/server.js` for
// comparison.
//
//   npm run bench:binary      measures dist/arc-connect (make it first: npm run build:binary)
//
// Both serve the same seeded demo world from a temporary DATA_DIR. Start-up is the time from
// spawning the process to the first answered request (GET /healthz polled every 5 ms); the
// binary's first start also unpacks its files (a new ARC_RUNTIME_DIR), later starts reuse them.
// Idle RSS is read from /proc after one sign-in page was served and the process sat idle 10 s.
// Writes the "release-binary" section of docs/performance.md.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, markdownTable, quantile, ROOT, stopServer, writeSection } from "./support";

const BINARY = path.join(ROOT, "dist", "arc-connect");
const BLOB = path.join(ROOT, ".cache", "binary", "work", "sea-prep.blob");
const RUNS = 7;
const IDLE_MS = 10_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "arc-bench-binary-"));
const baseEnv = {
  NODE_ENV: "production" as const,
  PATH: "/usr/bin:/bin",
  HOME: tmp,
  HOST: "127.0.0.1",
  DATA_DIR: path.join(tmp, "data"),
  SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
  DEVICE_LOG_KEYS: `bench:${crypto.randomBytes(32).toString("hex")}`,
  LOG_REQUESTS: "0",
};

type Sample = { startMs: number; rssMb?: number };

function rssMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function startOnce(command: string[], env: Record<string, string>, idle: boolean) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: { ...baseEnv, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr.on("data", (d: Buffer) => output.push(d.toString()));
  try {
    let startMs = 0;
    while (!startMs) {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${output.join("")}`);
      if (performance.now() - started > 60_000) throw new Error(`not up:\n${output.join("")}`);
      try {
        const res = await fetch(`${base}/healthz`);
        await res.text();
        if (res.ok) startMs = performance.now() - started;
      } catch {
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    const sample: Sample = { startMs };
    if (idle) {
      const page = await fetch(`${base}/`);
      await page.text();
      if (!page.ok) throw new Error(`GET / answered ${page.status}`);
      await new Promise((r) => setTimeout(r, IDLE_MS));
      sample.rssMb = rssMb(child.pid!);
    }
    return sample;
  } finally {
    await stopServer(child);
  }
}

async function measure(label: string, command: string[], env: Record<string, string>) {
  const samples: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    samples.push(await startOnce(command, env, run === RUNS - 1));
    process.stdout.write(`${label}: start ${run + 1} ${samples[run].startMs.toFixed(0)} ms\n`);
  }
  const warm = samples
    .slice(1)
    .map((s) => s.startMs)
    .sort((a, b) => a - b);
  return { first: samples[0].startMs, warm, rss: samples[RUNS - 1].rssMb! };
}

async function main() {
  if (!fs.existsSync(BINARY))
    throw new Error("No dist/arc-connect: run npm run build:binary first.");
  const version = spawnSync(BINARY, ["--version"], { encoding: "utf8" }).stdout.trim();
  const seeded = spawnSync(BINARY, ["seed-demo"], {
    env: { ...baseEnv, ARC_RUNTIME_DIR: path.join(tmp, "runtime-seed") },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`seed-demo failed:\n${seeded.stderr}`);

  // The first start unpacks into an empty folder; the others find the files there.
  const binary = await measure("binary", [BINARY, "serve"], {
    ARC_RUNTIME_DIR: path.join(tmp, "runtime"),
  });
  const node = await measure("node build/server.js", [process.execPath, "build/server.js"], {});

  const size = fs.statSync(BINARY).size;
  const blob = fs.existsSync(BLOB) ? fs.statSync(BLOB).size : NaN;
  const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const table = markdownTable(
    ["", `dist/arc-connect (Node 24)`, `node build/server.js (Node ${process.versions.node})`],
    [
      ["first start to first answer (unpacks its files)", ms(binary.first), "n/a"],
      [
        `start to first answer, median of ${RUNS - 1} (p100)`,
        `${ms(quantile(binary.warm, 0.5))} (${ms(binary.warm.at(-1)!)})`,
        `${ms(quantile(node.warm, 0.5))} (${ms(node.warm.at(-1)!)})`,
      ],
      ["idle RSS after one page and 10 s", mb(binary.rss * 1048576), mb(node.rss * 1048576)],
    ],
    [false, true, true],
  );
  const lines = [
    "<!-- release-binary:start -->",
    "## Release binary",
    "",
    `Measured by \`npm run bench:binary\` on ${new Date().toISOString().slice(0, 10)}, version ${version},` +
      ` ${os.cpus().length} cores. Both serve the seeded demo world; start-up is spawn to the first` +
      " answered GET /healthz (polled every 5 ms).",
    "",
    `Size: **${mb(size)}** (${(size / 1e6).toFixed(0)} million bytes), of which the app's blob` +
      ` (bundled script, code cache, static files, migrations, native addons) is ${mb(blob)} and the` +
      " rest is the Node executable.",
    "",
    ...table,
    "<!-- release-binary:end -->",
  ];
  console.log(`\n${lines.join("\n")}`);
  writeSection("release-binary", lines.join("\n"));
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
