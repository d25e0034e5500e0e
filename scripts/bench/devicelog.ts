// Decrypting a 200 MiB encrypted cough log: the app's path (domain/deviceLogs decryptToRows, then
// summarize) beside a bare AES-256-GCM decrypt of the same records (the floor), in MiB/s and peak RSS.
//
//   npm run bench:devicelog   (tsx scripts/bench/devicelog.ts; from the project root)
//   options: --runs N (runs per case, default 3), --size-mb N (default 200), --no-write
//
// The log is written once into a temporary directory (scripts/make-device-log.ts, demo key) and
// deleted at the end, even on failure. Every run is a fresh child (`node --import tsx` on this
// file with --child), so each peak RSS (VmHWM) is that case's alone; runs alternate app, floor.
// Then one more child times the app's steps one by one, to show what the app adds to the floor.
import { spawn, spawnSync } from "node:child_process";
import { createDecipheriv } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parse } from "csv-parse/sync";
import { packStamp } from "../../app/domain/deviceLogs/calendar";
import { parseLogFileName } from "../../app/domain/deviceLogs/fileName";
import { resolveLogKeys } from "../../app/domain/deviceLogs/keys";
import { buildCoughLog } from "../../app/domain/deviceLogs/model";
import { decryptToRows } from "../../app/domain/deviceLogs/reader";
import { parseValuePairs, type DeviceLogRow } from "../../app/domain/deviceLogs/rows";
import { summarize } from "../../app/domain/deviceLogs/summary";
import { writeDeviceLog } from "../make-device-log";
import {
  cpuPressureTotal,
  markdownTable as table,
  quantile,
  ROOT,
  sectionMarkers,
  writeSection,
} from "./support";

const { start: START_MARKER, end: END_MARKER } = sectionMarkers("devicelog");
const MIB = 1024 * 1024;
const argValue = (name: string, fallback: number) => process.argv.includes(`--${name}`) ? Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) : fallback; // prettier-ignore
const RUNS = argValue("runs", 3);
const SIZE_MB = argValue("size-mb", 200);
const DEVICE = "BENCH200";
const TARGET = { ratio: 0.4, rssMb: 200 };

const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

// ---- In the child ----

/** The file's lines (CR/LF stripped) to `fn`, split by hand: no per-line promise or string. */
async function eachLine(file: string, fn: (line: Buffer, n: number) => void) {
  let carry: Buffer | null = null;
  let n = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      let line = chunk.subarray(start, nl);
      if (carry) [line, carry] = [Buffer.concat([carry, line]), null];
      start = nl + 1;
      fn(line[line.length - 1] === 13 ? line.subarray(0, -1) : line, n++);
    }
    if (start < chunk.length)
      carry = carry ? Buffer.concat([carry, chunk.subarray(start)]) : chunk.subarray(start);
  }
  if (carry) fn(carry, n++);
}

const KEYS = resolveLogKeys(undefined, "test");
/** Line 1's key; record `index` decrypted and authenticated, as the contract says. */
function openRecord(keyId: string, raw: Buffer, index: number) {
  const d = createDecipheriv("aes-256-gcm", KEYS.get(keyId)!, raw.subarray(0, 12), { authTagLength: 16 }); // prettier-ignore
  d.setAAD(Buffer.from(`${keyId}:${index}`, "latin1"));
  d.setAuthTag(raw.subarray(raw.length - 16));
  const plain = d.update(raw.subarray(12, raw.length - 16));
  d.final();
  return plain;
}
const keyOf = (line: Buffer) => /;key=([A-Za-z0-9-]+);/.exec(line.toString("latin1"))![1];

async function appCase(file: string) {
  const name = parseLogFileName(path.basename(file));
  if (!name.ok) throw new Error(name.message);
  const source = fs.createReadStream(file);
  const opts = { keys: KEYS, expectedDeviceId: name.meta.deviceId, deviceType: "cough" as const };
  const model = await decryptToRows(source, opts);
  const summary = summarize(model);
  return { rows: model.rows, therapies: summary.totalTherapies, cycles: model.cycles.E_V.length };
}

/** The Therapy Compliance Report of the log's first 10 graph pages (300 points each), timed alone. */
async function pdfCase(file: string) {
  const name = parseLogFileName(path.basename(file));
  if (!name.ok) throw new Error(name.message);
  const opts = { keys: KEYS, expectedDeviceId: name.meta.deviceId, deviceType: "cough" as const };
  // Loaded here only: pdfkit in every child would add to the other cases' peak RSS.
  const { graphPage } = await import("../../app/domain/deviceLogs/graph");
  const { buildComplianceReportPdf, complianceSeries } =
    await import("../../app/domain/reports/complianceReport");
  const model = await decryptToRows(fs.createReadStream(file), opts);
  const started = performance.now();
  const summary = summarize(model);
  const graphs = Array.from({ length: 10 }, (_, i) => ({
    caption: `Graph ${i + 1}`,
    series: complianceSeries(graphPage(model, { page: i + 1 }).merged_data),
    annotations: [],
  }));
  const pdf = await buildComplianceReportPdf({
    productName: "ARC Connect",
    serial: name.meta.deviceId,
    window: { from: "2020-01-01", to: "2030-12-31" },
    generatedAt: new Date(),
    timeZone: "America/Chicago",
    summary,
    graphs,
  });
  return { pdfMs: performance.now() - started, pdfBytes: pdf.length };
}

async function floorCase(file: string) {
  let keyId = "";
  let plainBytes = 0;
  await eachLine(file, (line, n) => {
    if (n === 0) keyId = keyOf(line);
    else plainBytes += openRecord(keyId, Buffer.from(line.toString("latin1"), "base64"), n - 1).length; // prettier-ignore
  });
  return { plainBytes };
}

/** decryptToRows' steps redone with the same calls, each timed (reader.ts: line, decrypt, flush, row). */
async function partsCase(file: string) {
  const t = { b64: 0, canon: 0, aes: 0, utf8: 0, csv: 0, rows: 0, model: 0, summary: 0, rest: 0 };
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const builder = buildCoughLog();
  let [keyId, batch, lastId, clock] = ["", [] as string[], 0, 0];
  const lap = (k: keyof typeof t) => ((t[k] += performance.now() - clock), (clock = performance.now())); // prettier-ignore
  const flush = () => {
    clock = performance.now();
    const fields = parse(batch.join("\n"), { record_delimiter: "\n" }) as string[][];
    lap("csv");
    const rows = fields.map(([id, eventType, logType, timeStamp, value], i): DeviceLogRow => {
      if (!/^[1-9][0-9]*$/.test(id) || Number(id) <= lastId) throw new Error("bad Event ID");
      if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(timeStamp)) throw new Error("bad stamp");
      const pairs = parseValuePairs(value);
      if (!pairs || !/^(THERAPY|CYCLE|SETTINGS|SYSTEM|ALARM)$/.test(eventType) || !/^(INFO|WARNING|ERROR)$/.test(logType)) throw new Error("bad row"); // prettier-ignore
      const stamp = packStamp(timeStamp);
      lastId = Number(id);
      return { record: i, eventId: lastId, eventType, logType, timeStamp, stamp, value, pairs } as DeviceLogRow; // prettier-ignore
    });
    lap("rows");
    for (const row of rows) builder.add(row);
    lap("model");
    batch = [];
  };
  const started = performance.now();
  await eachLine(file, (line, n) => {
    if (n === 0) return void (keyId = keyOf(line));
    clock = performance.now();
    const b64 = line.toString("latin1");
    const raw = Buffer.from(b64, "base64");
    lap("b64");
    if (raw.toString("base64") !== b64) throw new Error(`record ${n - 1} is not canonical base64`);
    lap("canon");
    const plain = openRecord(keyId, raw, n - 1);
    lap("aes");
    const text = utf8.decode(plain);
    lap("utf8");
    if (n > 1 && !text.startsWith("#END") && batch.push(text) === 256) flush();
  });
  if (batch.length > 0) flush();
  const timed = Object.values(t).reduce((a, b) => a + b, 0);
  t.rest = performance.now() - started - timed;
  clock = performance.now();
  summarize(builder.finish({ keyId, deviceId: DEVICE }));
  lap("summary");
  return { parts: t };
}

async function child(mode: string, file: string) {
  const cases: Record<string, (f: string) => Promise<object>> = { app: appCase, floor: floorCase, parts: partsCase, pdf: pdfCase, idle: async () => ({}) }; // prettier-ignore
  const cpu = process.cpuUsage();
  const started = performance.now();
  const detail = await cases[mode](file);
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1];
  const rssKb = hwm ? Number(hwm) : process.resourceUsage().maxRSS;
  console.log(JSON.stringify({ ms, cpuMs: (user + system) / 1000, rssMb: rssKb / 1024, ...detail })); // prettier-ignore
}

// ---- In the parent ----

type Sample = { ms: number; cpuMs: number; rssMb: number; pdfMs?: number; pdfBytes?: number; rows?: number; therapies?: number; cycles?: number; parts?: Record<string, number> }; // prettier-ignore

function runChild(mode: string, file: string) {
  return new Promise<Sample>((resolve, reject) => {
    const args = ["--import", "tsx", __filename, "--child", mode, file];
    const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (d) => (out += d));
    proc.on("error", reject);
    const fail = () => new Error(`${mode} child exited with an error`);
    proc.on("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!)) : reject(fail()))); // prettier-ignore
  });
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-bench-devicelog-"));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once("SIGINT", () => (cleanup(), process.exit(130)));
  try {
    let started = performance.now();
    const log = await writeDeviceLog({ dir, type: "cough", deviceId: DEVICE, sizeMb: SIZE_MB, seed: 42 }); // prettier-ignore
    const genSeconds = (performance.now() - started) / 1000;
    const mb = log.bytes / MIB;
    console.log(`Wrote ${log.fileName}: ${mb.toFixed(1)} MiB, ${log.rows} rows in ${genSeconds.toFixed(1)} s.`); // prettier-ignore
    const idle = await runChild("idle", log.path);
    const load = [os.loadavg()[0]];
    const pressure0 = cpuPressureTotal();
    started = performance.now();
    const runs: { app: Sample[]; floor: Sample[] } = { app: [], floor: [] };
    for (let i = 0; i < RUNS; i++)
      for (const mode of ["app", "floor"] as const) {
        const s = await runChild(mode, log.path);
        runs[mode].push(s);
        console.log(`${mode} run ${i + 1}: ${(mb / (s.ms / 1000)).toFixed(1)} MiB/s, ${s.rssMb.toFixed(0)} MB`); // prettier-ignore
      }
    const pressure = (cpuPressureTotal() - pressure0) / 1000 / (performance.now() - started);
    load.push(os.loadavg()[0]);
    const a = runs.app[0];
    if (a.rows !== log.rows || a.therapies !== log.therapies || a.cycles !== log.cycles)
      throw new Error(`the app read ${a.rows} rows, ${a.therapies} therapies, ${a.cycles} cycles; the generator wrote ${log.rows}, ${log.therapies}, ${log.cycles}`); // prettier-ignore
    const m = (k: "app" | "floor") => ({ speed: mb / (median(runs[k].map((s) => s.ms)) / 1000), all: runs[k].map((s) => mb / (s.ms / 1000)), cpu: median(runs[k].map((s) => s.cpuMs)) / 1000, rss: median(runs[k].map((s) => s.rssMb)), rssMax: Math.max(...runs[k].map((s) => s.rssMb)) }); // prettier-ignore
    const [app, floor] = [m("app"), m("floor")];
    const ratio = app.speed / floor.speed;
    const met = { ratio: ratio >= TARGET.ratio, rss: app.rssMax < TARGET.rssMb };
    const pairs = runs.app.map((s, i) => runs.floor[i].ms / s.ms);
    const cpuRatio = floor.cpu / app.cpu;
    const parts = (await runChild("parts", log.path)).parts!;
    const pdf = await runChild("pdf", log.path);
    const bare = spawnSync(process.execPath, ["-e", "console.log(require('fs').readFileSync('/proc/self/status', 'utf8'))"], { encoding: "utf8" }); // prettier-ignore
    const bareMb = Number(/VmHWM:\s+(\d+) kB/.exec(bare.stdout)?.[1]) / 1024;
    const section = render({ log, mb, genSeconds, idle, bareMb, load, pressure, app, floor, ratio, pairs, cpuRatio, met, parts, pdf }); // prettier-ignore
    console.log(section);
    if (!process.argv.includes("--no-write")) writeSection("devicelog", section);
  } finally {
    cleanup();
  }
}

type Measure = { speed: number; all: number[]; cpu: number; rss: number; rssMax: number };
type Report = { log: Awaited<ReturnType<typeof writeDeviceLog>>; mb: number; genSeconds: number; idle: Sample; bareMb: number; load: number[]; pressure: number; app: Measure; floor: Measure; ratio: number; pairs: number[]; cpuRatio: number; met: { ratio: boolean; rss: boolean }; parts: Record<string, number>; pdf: Sample }; // prettier-ignore

function render(r: Report) {
  const { log, mb, genSeconds, idle, bareMb, load, pressure, app, floor, ratio, met } = r; // prettier-ignore
  const pc = (v: number) => `${Math.round(v * 100)} %`;
  const [f1, n] = [(v: number) => v.toFixed(1), (v: number) => v.toLocaleString("en-US")];
  const yes = (ok: boolean) => (ok ? "met" : "**missed**");
  const row = (label: string, x: Measure, target: string) => [label, `**${f1(x.speed)}**`, x.all.map(f1).join(" / "), f1(x.cpu), `${f1(x.rss)} (max ${f1(x.rssMax)})`, target]; // prettier-ignore
  // prettier-ignore
  return [
    START_MARKER, "", "## Device log decryption", "",
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${os.cpus()[0]?.model?.trim()}, ${os.cpus().length} cores, Node ${process.version}, ${os.type()} ${os.release()}. ` +
      "To re-run: `npm run bench:devicelog` (`tsx scripts/bench/devicelog.ts`; `-- --runs N`, `-- --size-mb N`). " +
      `Machine during the timed runs: load average ${load.map(f1).join(" at the start, ")} at the end, CPU pressure ` +
      `(some task waiting for a CPU) ${Math.round(pressure * 100)} % of the time; runs alternate app and floor so both share it.`,
    "",
    `The log: \`${log.fileName}\`, written once by \`writeDeviceLog({ type: "cough", sizeMb: ${SIZE_MB}, seed: 42 })\` ` +
      `(scripts/make-device-log.ts, demo key) in ${f1(genSeconds)} s (not in the figures below): ${(log.bytes / 1e6).toFixed(1)} MB ` +
      `(${f1(mb)} MiB), ${n(log.rows)} data records (${n(log.therapies)} therapies, ${n(log.cycles)} cycles), deleted afterwards. ` +
      "Each run is a fresh child process (`node --import tsx scripts/bench/devicelog.ts --child app|floor <file>`) that " +
      `times its work from opening the file; ${RUNS} runs per case, median. MiB/s is the file's bytes over that time ` +
      "(1 MiB = 2^20 bytes); peak RSS is the child's VmHWM (/proc/self/status) and includes Node, tsx and the imported " +
      `modules: a child that only loads them peaks at ${f1(idle.rssMb)} MB (a bare \`node -e\` at ${f1(bareMb)} MB).`,
    "",
    "- App: `fs.createReadStream(file)` → `decryptToRows(stream, { keys: resolveLogKeys(undefined, \"test\"), " +
      "expectedDeviceId, deviceType: \"cough\" })` (every check of the contract, into the compact model) → `summarize(model)`.",
    "- Floor: the same file split into lines by hand, each record base64-decoded, AES-256-GCM decrypted and " +
      "authenticated with node:crypto (nonce 12 bytes, tag the last 16, AAD `<keyId>:<index>`), nothing parsed.",
    "",
    ...table(
      ["Case", "Median MiB/s", "Runs MiB/s", "CPU s (median)", "Peak RSS MB (median)", "Target"],
      [row("App: decrypt + parse + summary", app, `≥ ${TARGET.ratio * 100} % of the floor; RSS < ${TARGET.rssMb} MB`), row("Floor: base64 + AES-256-GCM only", floor, "–")],
      [false, true, true, true, true, false],
    ),
    "",
    `The app runs at **${pc(ratio)}** of the floor's throughput (target ≥ ${pc(TARGET.ratio)}: ${yes(met.ratio)}); ` +
      `its peak RSS is **${f1(app.rssMax)} MB** at most (target < ${TARGET.rssMb} MB: ${yes(met.rss)}). Its summary counts ` +
      `the therapies, cycles and rows the generator wrote. Reading: the ratio ${Math.abs(ratio - TARGET.ratio) < 0.05 ? "is close to the line" : met.ratio ? "has room" : "falls short"}: ` +
      `run by run (each app run against the floor run after it) it is ${r.pairs.map(pc).join(", ")}, and by CPU time ` +
      `${pc(r.cpuRatio)}. Of the peak RSS, ${f1(idle.rssMb)} MB is there before the file is opened (Node, tsx and the ` +
      `modules; the production server is bundled and does not load tsx), so the model of ${n(log.cycles)} cycles, the ` +
      `batches and garbage not yet collected take about ${f1(app.rssMax - idle.rssMb)} MB (the floor, which keeps nothing, ` +
      `${f1(floor.rssMax - idle.rssMb)} MB).`,
    "", ...partsText(r.parts, mb),
    "",
    `Therapy Compliance Report of 10 graphs (the log's first 10 pages of 300 points; summary, graph series and pdfkit, after the log is read): ` +
      `${(r.pdf.pdfMs! / 1000).toFixed(2)} s, ${(r.pdf.pdfBytes! / 1024).toFixed(0)} KB, target under 2 s: ${r.pdf.pdfMs! < 2000 ? "met" : "**missed**"}.`,
    "", END_MARKER,
  ].join("\n");
}

function partsText(p: Record<string, number>, mb: number) {
  const labels: [string, string][] = [["rest", "Reading the file, splitting lines, timers"], ["b64", "Base64 decode (`Buffer.from(text, \"base64\")`)"], ["canon", "Canonical base64 check (re-encode, compare)"], ["aes", "AES-256-GCM decrypt and authenticate"], ["utf8", "UTF-8 decode (fatal TextDecoder)"], ["csv", "CSV parse (csv-parse/sync, 256 rows a call)"], ["rows", "Row checks, Value pairs, packed stamp"], ["model", "Model (`buildCoughLog().add`)"], ["summary", "`summarize(model)`"]]; // prettier-ignore
  const total = Object.values(p).reduce((a, b) => a + b, 0);
  const rows = labels.map(([k, label]) => [label, (p[k] / 1000).toFixed(2), `${Math.round((p[k] / total) * 100)} %`]); // prettier-ignore
  const floorShare = (p.b64 + p.aes + p.rest) / total;
  const added = labels.filter(([k]) => !["rest", "b64", "aes"].includes(k)).sort(([a], [b]) => p[b] - p[a]); // prettier-ignore
  return [
    `Where the app's time goes: one more child redoes decryptToRows' steps with the same calls, each timed (${(mb / (total / 1000)).toFixed(1)} MiB/s with the timers).`, // prettier-ignore
    "",
    ...table(["Step", "Seconds", "Share"], [...rows, ["Total", (total / 1000).toFixed(2), "100 %"]], [false, true, true]), // prettier-ignore
    "",
    `The floor's own work (reading, base64, AES) is ${Math.round(floorShare * 100)} % of it; the rest is what the app adds, ` +
      `most of it in: ${added.slice(0, 3).map(([k, l]) => `${l} ${(p[k] / 1000).toFixed(1)} s`).join("; ")}.`, // prettier-ignore
  ];
}

const childAt = process.argv.indexOf("--child");
(childAt >= 0 ? child(process.argv[childAt + 1], process.argv[childAt + 2]) : main()).catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
