// The patient profile (domain/patients/profileView.server.ts) and its PDF (domain/reports/
// patientReport.ts) for a patient with 2 years of data, 6 therapies a day of 10 cycles each.
//
//   npm run bench:profile   (from the project root, so that tsx resolves the app's "~/" imports)
//   options: --runs N (loader runs per case, default 30), --pdf-runs N (default 10), --keep, --no-write
//
// Like bench:dashboard: a temporary database migrated by the app's runner and filled with
// better-sqlite3, then the app imported with DATA_DIR pointing at it, DailyAdherence by its
// rebuildAll(), ANALYZE; the route's work timed in process without HTTP. For a case that misses its
// target, the functions it calls are timed each alone. Rewrites its section of docs/performance.md.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { applyMigrations, readMigrations } from "../../app/lib/migrate.server";
import { dayInZone } from "../../app/lib/time";
import { addDays, dayStart } from "../../app/domain/adherence/score";
import { markdownTable as table, sectionMarkers, writeSection } from "./support";

const ROOT = path.resolve(__dirname, "..", "..");
const { start: START_MARKER, end: END_MARKER } = sectionMarkers("profile");

const ZONE = "America/Chicago";
const DAYS = 730;
const PER_DAY = 6;
const CYCLES = 10;
/** Other patients of the site, so that the tables are not the patient's alone. */
const OTHERS = { patients: 200, days: 30, perDay: 4 };
const WARMUP = 3;
const RUNS = Number(argValue("runs") ?? 30);
const PDF_RUNS = Number(argValue("pdf-runs") ?? 10);
const TARGET_MS = { loader: 150, PDF: 1000 };
const HOUR = 3_600_000;

function argValue(name: string) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** mulberry32: a fixed seed, so every run builds the same world (ids aside). */
let seed = 20261121;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const round1 = (v: number) => Math.round(v * 10) / 10;

function buildWorld(file: string, today: string) {
  applyMigrations(file, readMigrations(path.join(ROOT, "prisma", "migrations")));
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("foreign_keys = OFF"); // consistent by construction
  const id = () => crypto.randomUUID();
  const q = {
    site: db.prepare(`INSERT INTO "CareSite" (id, name, city, state, zip, timeZone, createdAt, updatedAt) VALUES (?, 'Bench Respiratory Care', 'Chicago', 'Illinois', '60601', '${ZONE}', ?, ?)`), // prettier-ignore
    user: db.prepare(`INSERT INTO "User" (id, username, email, phone, passwordHash, role, firstName, lastName, createdAt, updatedAt) VALUES (?, ?, ?, '15125550100', 'x', ?, ?, ?, ?, ?)`), // prettier-ignore
    member: db.prepare(`INSERT INTO "Membership" (id, careSiteId, userId, role, status, createdAt, updatedAt, acceptedAt) VALUES (?, ?, ?, ?, 'accepted', ?, ?, ?)`), // prettier-ignore
    profile: db.prepare(`INSERT INTO "PatientProfile" (userId, patientTag, dateOfBirth, gender, heightIn, weightLb, existingCondition1, updatedAt) VALUES (?, 'ARC-0001', '1961-04-12', 'Male', 69, 172, 'ALS', ?)`), // prettier-ignore
    note: db.prepare(`INSERT INTO "PatientNote" (id, patientId, careSiteId, authorId, body, createdAt, updatedAt) VALUES (?, ?, ?, ?, 'Tolerating therapy well.', ?, ?)`), // prettier-ignore
    device: db.prepare(`INSERT INTO "Device" (id, serial, type, tokenHash, createdAt) VALUES (?, ?, 'cough', 'x', ?)`), // prettier-ignore
    pairing: db.prepare(`INSERT INTO "Pairing" (id, deviceId, patientId, careSiteId, pairedById, pairedAt) VALUES (?, ?, ?, ?, ?, ?)`), // prettier-ignore
    prescription: db.prepare(`INSERT INTO "Prescription" (id, deviceId, mode, cycles, pauseP, pauseT, inspP, inspT, expP, expT, oscillation, firstSeenAt) VALUES (?, ?, 'Auto', ${CYCLES}, 0, 10, 40, 20, -40, 15, 1, ?)`), // prettier-ignore
    goal: db.prepare(`INSERT INTO "TherapyGoal" (id, patientId, pairingId, timesPerDay, days, createdById, createdAt) VALUES (?, ?, ?, ?, 'mon,tue,wed,thu,fri,sat,sun', ?, ?)`), // prettier-ignore
    transmission: db.prepare(`INSERT INTO "Transmission" (id, deviceId, pairingId, patientId, prescriptionId, sentAt, receivedAt, hmr, therapiesAccepted, deviatingTherapies) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), // prettier-ignore
    therapy: db.prepare(`INSERT INTO "Therapy" (id, deviceId, eventId, transmissionId, prescriptionId, pairingId, patientId, startedAt, mode, prescribedCycles, cyclesDelivered, completed, deviates, pauseP, pauseT, inspP, inspT, expP, expT, oscillation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Auto', ${CYCLES}, ?, ?, ?, 0, 10, ?, 20, -40, 15, 1)`), // prettier-ignore
    cycle: db.prepare(`INSERT INTO "Cycle" (id, therapyId, n, peakInspP, expVolume, peakFlow, spo2, oscillation) VALUES (?, ?, ?, ?, ?, ?, ?, 1)`), // prettier-ignore
  };
  const careSiteId = id();
  const clinicianId = id();

  /** A patient paired `days` + 1 days ago with a goal of `perDay` a day, with data up to yesterday. */
  const patient = (n: number, days: number, perDay: number, usage: number) => {
    const [userId, deviceId, pairingId, prescriptionId] = [id(), id(), id(), id()];
    const firstDay = addDays(today, -days);
    const pairedAt = dayStart(addDays(firstDay, -1), ZONE) + 10 * HOUR;
    q.user.run(userId, `patient${n}`, `patient${n}@example.test`, "patient", n ? `Other${n}` : "Robert", "Garcia", pairedAt, pairedAt); // prettier-ignore
    q.member.run(id(), careSiteId, userId, "patient", pairedAt, pairedAt, pairedAt);
    q.device.run(deviceId, `BP${100_000 + n}`, pairedAt);
    q.pairing.run(pairingId, deviceId, userId, careSiteId, clinicianId, pairedAt);
    q.prescription.run(prescriptionId, deviceId, pairedAt);
    q.goal.run(id(), userId, pairingId, perDay, clinicianId, pairedAt + HOUR);
    let hmr = int(50, 400);
    let event = 0;
    for (let i = 0; i < days; i++) {
      const midnight = dayStart(addDays(firstDay, i), ZONE);
      const therapies: { id: string; at: number; cycles: number; deviates: boolean; inspP: number }[] = []; // prettier-ignore
      // Now and then a therapy skipped or one more; about 3 % stopped early, 2 % at other settings.
      for (let t = 0; t < perDay + (random() < 0.03 ? 1 : 0); t++) {
        if (random() > usage) continue;
        const short = random() < 0.03;
        const off = !short && random() < 0.02;
        const at = midnight + (7 + 2 * t) * HOUR + int(0, 5_400) * 1000;
        therapies.push({ id: id(), at, cycles: short ? int(3, CYCLES - 1) : CYCLES, deviates: short || off, inspP: off ? 44 : 40 }); // prettier-ignore
      }
      if (therapies.length === 0) continue;
      hmr += 0.15 * therapies.length;
      const transmissionId = id();
      const sentAt = midnight + 21 * HOUR + int(0, 3_540) * 1000;
      q.transmission.run(transmissionId, deviceId, pairingId, userId, prescriptionId, sentAt, sentAt + int(2, 30) * 1000, round1(hmr), therapies.length, therapies.filter((t) => t.deviates).length); // prettier-ignore
      const progress = i / days; // flow and volume improve slowly over the years
      for (const t of therapies) {
        q.therapy.run(t.id, deviceId, `E-${++event}`, transmissionId, prescriptionId, pairingId, userId, t.at, t.cycles, t.cycles === CYCLES ? 1 : 0, t.deviates ? 1 : 0, t.inspP); // prettier-ignore
        const flow = 170 + 60 * progress + 20 * (random() - 0.5);
        const volume = 1_150 + 250 * progress + 150 * (random() - 0.5);
        const oximeter = random() < 0.6; // SpO2 only when the oximeter is worn
        for (let c = 1; c <= t.cycles; c++)
          q.cycle.run(id(), t.id, c, round1(t.inspP + 4 * (random() - 0.5)), Math.round(volume + 80 * (random() - 0.5)), round1(flow + 25 * (random() - 0.5)), oximeter ? int(92, 99) : null); // prettier-ignore
      }
    }
    return { patientId: userId, pairingId, pairedAt };
  };

  const created = dayStart(addDays(today, -DAYS - 30), ZONE);
  const profiled = db.transaction(() => {
    q.site.run(careSiteId, created, created);
    q.user.run(clinicianId, "clinician", "clinician@example.test", "clinician", "Avery", "Clinician", created, created); // prettier-ignore
    q.member.run(id(), careSiteId, clinicianId, "clinician", created, created, created);
    const main = patient(0, DAYS, PER_DAY, 0.995);
    q.profile.run(main.patientId, main.pairedAt);
    q.note.run(id(), main.patientId, careSiteId, clinicianId, main.pairedAt + 90 * 24 * HOUR, main.pairedAt + 90 * 24 * HOUR); // prettier-ignore
    for (let n = 1; n <= OTHERS.patients; n++) patient(n, OTHERS.days, OTHERS.perDay, 0.85);
    return main;
  })();
  // [the patient's, the other patients'] rows of each kind.
  const split = (from: string) =>
    db.prepare(`SELECT SUM(patientId = ?), SUM(patientId <> ?) FROM ${from}`).raw().get(profiled.patientId, profiled.patientId) as [number, number]; // prettier-ignore
  const [transmissions, therapies, incomplete, deviating, cycles] = [
    `"Transmission"`,
    `"Therapy"`,
    `"Therapy" WHERE completed = 0`,
    `"Therapy" WHERE completed = 1 AND deviates = 1`,
    `"Cycle" c JOIN "Therapy" t ON t.id = c.therapyId`,
  ].map(split);
  const world = { careSiteId, clinicianId, ...profiled, transmissions, therapies, incomplete, deviating, cycles }; // prettier-ignore
  db.close();
  return world;
}

type Timing = { median: number; p95: number };
function stats(times: number[]): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]; // prettier-ignore
  return { median: quantile(0.5), p95: quantile(0.95) };
}
/** Warm-up calls, then `runs` timed ones; `fn` may time parts of itself into its argument. */
async function timeRuns(fn: (parts: number[]) => Promise<unknown>, runs: number, warmup = WARMUP) {
  for (let i = 0; i < warmup; i++) await fn([]);
  const total: number[] = [];
  const parts: number[][] = [];
  for (let i = 0; i < runs; i++) {
    const own: number[] = [];
    const start = performance.now();
    await fn(own);
    total.push(performance.now() - start);
    own.forEach((ms, k) => (parts[k] ??= []).push(ms));
  }
  return { total: stats(total), parts: parts.map(stats) };
}
/** CPU pressure (Linux PSI): µs during which some task waited for a CPU. */
function cpuPressureTotal() {
  try {
    return Number(/some .*total=(\d+)/.exec(fs.readFileSync("/proc/pressure/cpu", "utf8"))?.[1]);
  } catch {
    return NaN;
  }
}

type Case = { kind: "loader" | "PDF"; label: string; query: string };
type Result = Case & { t: Timing; data?: Timing; build?: Timing; bytes?: number; pages?: number };
type Part = { label: string; median: number };
type Breakdown = { label: string; parts: Part[]; plan: string; reading: string };
const target = (r: Case) => TARGET_MS[r.kind];

/** The SQL trendDays() runs (domain/patients/sql.server.ts trendRows): the cycles summed per therapy. */
const TREND_SQL = `SELECT t.startedAt AS startedAt,
    SUM(c.peakFlow) AS peakFlowSum, COUNT(c.peakFlow) AS peakFlowN,
    SUM(c.expVolume) AS expVolumeSum, COUNT(c.expVolume) AS expVolumeN,
    SUM(c.peakInspP) AS peakInspPSum, COUNT(c.peakInspP) AS peakInspPN
  FROM "Therapy" t JOIN "Cycle" c ON c.therapyId = t.id
  WHERE t.patientId = ? AND t.startedAt >= ? AND t.startedAt < ?
  GROUP BY t.id`;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-bench-profile-"));
  try {
    const now = new Date();
    const today = dayInZone(now, ZONE);
    const file = path.join(dir, "arc.db");
    let started = performance.now();
    const world = buildWorld(file, today);
    const buildSeconds = (performance.now() - started) / 1000;
    console.log(`Built in ${buildSeconds.toFixed(1)} s: ${world.cycles[0]} cycles of the patient.`);

    // The app reads its environment when first imported: point it at the database first.
    process.env.DATA_DIR = dir;
    process.env.SESSION_SECRET = crypto.randomBytes(32).toString("hex");
    process.env.NODE_ENV = "production";
    const db = await import("../../app/lib/db.server");
    const { rebuildAll } = await import("../../app/domain/adherence/adherence.server");
    const model = {
      ...(await import("../../app/domain/patients/profile.server")),
      ...(await import("../../app/domain/patients/profileQueries.server")),
    };
    const view = await import("../../app/domain/patients/profileView.server");
    const { buildPatientReportPdf } = await import("../../app/domain/reports/patientReport");
    const svg = await import("../../app/ui/charts/svg.server");
    await db.configureDatabase();
    started = performance.now();
    const dailyRows = (await rebuildAll(now)).rows;
    const raw = new Database(file);
    raw.exec("ANALYZE");
    raw.pragma("wal_checkpoint(TRUNCATE)");
    const prepSeconds = (performance.now() - started) / 1000;
    const fileMb = fs.statSync(file).size / 1024 / 1024;

    const { loadActor } = await import("../../app/domain/access.server");
    const actor = await loadActor({ id: world.clinicianId, role: "clinician" });
    const viewer = { ...actor, firstName: "Avery", lastName: "Clinician", measuringUnit: "Imperial" }; // prettier-ignore
    const ids = { profileId: world.patientId, clinicId: world.careSiteId, pairId: world.pairingId };
    const find = async () => (await model.findProfile(viewer, ids))!;
    const loadView = async (query: string) =>
      view.loadProfileView(await find(), "Imperial", new URLSearchParams(query), now);
    const loadReport = async (query: string) =>
      (await view.loadReportData(await find(), viewer, new URLSearchParams(query), now)).data;
    const twoYears = `from=${addDays(today, -DAYS)}&to=${addDays(today, -1)}`;
    const pastDay = `day=${addDays(today, -365)}`;
    const cases: Case[] = [
      { kind: "loader", label: "week (default)", query: "" },
      { kind: "loader", label: "month", query: "range=month" },
      { kind: "loader", label: "From/To, 2 years", query: twoYears },
      { kind: "loader", label: "month, trend drill-down", query: `range=month&trendDay=${addDays(today, -12)}` }, // prettier-ignore
      { kind: "loader", label: "week, a past therapy day", query: pastDay },
      { kind: "PDF", label: "month", query: "range=month" },
      { kind: "PDF", label: "From/To, 2 years", query: twoYears },
    ];
    // The view must show what the world holds.
    const check = await loadView(`${twoYears}&${pastDay}&trendDay=${addDays(today, -1)}`);
    if (check.trends.days.length !== DAYS || check.therapy.therapies.length < PER_DAY - 1 || !check.trends.drillDown) // prettier-ignore
      throw new Error(`unexpected view: ${check.trends.days.length} trend days, ${check.therapy.therapies.length} therapies`); // prettier-ignore

    const load0 = os.loadavg()[0];
    const pressure0 = cpuPressureTotal();
    const wall0 = performance.now();
    const results: Result[] = [];
    for (const c of cases) {
      if (c.kind === "loader") {
        results.push({ ...c, t: (await timeRuns(() => loadView(c.query), RUNS)).total });
      } else {
        let pdf: Buffer = Buffer.alloc(0);
        const { total, parts } = await timeRuns(async (own) => {
          const start = performance.now();
          const data = await loadReport(c.query);
          own.push(performance.now() - start);
          pdf = await buildPatientReportPdf(data);
          own.push(performance.now() - start - own[0]);
        }, PDF_RUNS);
        const pages = pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;
        results.push({ ...c, t: total, data: parts[0], build: parts[1], bytes: pdf.length, pages });
      }
      const { t } = results[results.length - 1];
      console.log(`${c.kind}, ${c.label}: ${t.median.toFixed(1)} / ${t.p95.toFixed(1)} ms`);
    }
    const wallUs = (performance.now() - wall0) * 1000;
    const contention = { load: [load0, os.loadavg()[0]], pressure: (cpuPressureTotal() - pressure0) / wallUs }; // prettier-ignore

    // Where the time goes in each case that missed: the functions it calls, each alone.
    const part = async (label: string, fn: () => unknown): Promise<Part> => {
      const { total } = await timeRuns(async () => fn(), 5, 1);
      return { label, median: total.median };
    };
    const trendSql = raw.prepare(TREND_SQL);
    const countSql = raw.prepare(`SELECT COUNT(*) FROM (${TREND_SQL})`);
    const cycleCount = raw.prepare(
      `SELECT COUNT(*) AS n FROM "Therapy" t JOIN "Cycle" c ON c.therapyId = t.id
       WHERE t.patientId = ? AND t.startedAt >= ? AND t.startedAt < ?`,
    );
    const breakdowns: Breakdown[] = [];
    for (const r of results.filter((r) => r.t.p95 >= target(r))) {
      const p = world.patientId;
      const shown = await loadView(r.query);
      const { fromDay, toDay } = shown.trends.range;
      const [from, to] = [dayStart(fromDay, ZONE), dayStart(addDays(toDay, 1), ZONE)];
      const trends = await model.trendDays(p, ZONE, fromDay, toDay);
      const rows = await model.adherenceDays(p, fromDay, toDay);
      const data = await loadReport(r.query);
      const cycles = (cycleCount.get(p, from, to) as { n: number }).n.toLocaleString("en-US");
      const therapyRows = trendSql.all(p, from, to).length.toLocaleString("en-US");
      const trend = await part(`trendDays (${cycles} cycles summed into ${therapyRows} therapy rows)`, () => model.trendDays(p, ZONE, fromDay, toDay)); // prettier-ignore
      const viaPrisma = await part("– its SQL through Prisma", () => db.prisma.$queryRawUnsafe(TREND_SQL, p, from, to)); // prettier-ignore
      const viaDriver = await part("– its SQL on better-sqlite3 alone", () => trendSql.all(p, from, to)); // prettier-ignore
      const inSqlite = await part("– its SQL counting the rows in SQLite", () => countSql.get(p, from, to)); // prettier-ignore
      const last =
        r.kind === "PDF"
          ? [
              await part("therapySummary", () => model.therapySummary(p, ZONE, fromDay, toDay)),
              await part("buildPatientReportPdf", () => buildPatientReportPdf(data)),
            ]
          : [
              await part("therapiesOnDay", () => model.therapiesOnDay(p, ZONE, shown.therapy.day)),
              await part("trend, score and HMR SVG charts", () => [svg.trendChartsSvg(trends), svg.scoreHistorySvg(rows), svg.hmrChartSvg(rows)]), // prettier-ignore
            ];
      const parts = [
        await part("findProfile", find),
        await part("getPatient + getLatestNote + listGoals", () => Promise.all([model.getPatient(p), model.getLatestNote(p), model.listGoals(p)])), // prettier-ignore
        await part(`adherenceDays (${rows.length} rows)`, () => model.adherenceDays(p, fromDay, toDay)), // prettier-ignore
        ...[trend, viaPrisma, viaDriver, inSqlite, ...last],
      ];
      const ms = (t: { median: number }) => `${t.median.toFixed(1)} ms`;
      const moving = inSqlite.median < trend.median / 2;
      const reading =
        `In ${r.kind}, ${r.label} (median ${ms(r.t)}), trendDays alone takes ${ms(trend)}, its query through ` +
        `Prisma ${ms(viaPrisma)}; the same SQL returns its ${therapyRows} rows (${cycles} cycles summed) through ` +
        `better-sqlite3 alone in ${ms(viaDriver)}, and runs in ${ms(inSqlite)} inside SQLite when its rows are only counted` +
        (moving
          ? ": most of the time goes to moving the rows into JavaScript, not to finding them. "
          : ": most of the time goes to reading and summing the cycles in SQLite. ") + // prettier-ignore
        `${last[1].label}: ${ms(last[1])}.`;
      const plan = raw.prepare(`EXPLAIN QUERY PLAN ${TREND_SQL}`).all(p, from, to) as { detail: string }[]; // prettier-ignore
      breakdowns.push({ label: `${r.kind}, ${r.label}`, parts, plan: plan.map((s) => s.detail).join("; "), reading }); // prettier-ignore
    }
    raw.close();
    await db.disconnectDatabase();

    const section = render({ world, results, breakdowns, contention, buildSeconds, prepSeconds, dailyRows, fileMb, today }); // prettier-ignore
    console.log(section);
    if (!process.argv.includes("--no-write")) writeSection("profile", section);
  } finally {
    if (process.argv.includes("--keep")) console.log(`Kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

function render(x: {
  world: ReturnType<typeof buildWorld>;
  results: Result[];
  breakdowns: Breakdown[];
  contention: { load: number[]; pressure: number };
  buildSeconds: number;
  prepSeconds: number;
  dailyRows: number;
  fileMb: number;
  today: string;
}) {
  const w = x.world;
  const n = (v: number) => v.toLocaleString("en-US");
  const ms = (v: number) => v.toFixed(1);
  const met = (r: Result) => (r.t.p95 < target(r) ? "met" : "**missed**");
  const missed = x.results.filter((r) => r.t.p95 >= target(r));
  return [
    START_MARKER,
    "",
    "## Patient profile and PDF report",
    "",
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${os.cpus()[0]?.model?.trim()}, ` +
      `${os.cpus().length} cores, Node ${process.version}. To re-run: \`npm run bench:profile\` ` +
      "(`tsx scripts/bench/profile.ts`; `-- --runs N`, `-- --pdf-runs N`, `-- --keep`). Machine during the " +
      `timed runs: load average ${x.contention.load.map((l) => l.toFixed(1)).join(" at the start, ")} at the end, ` +
      `CPU pressure (some task waiting for a CPU) ${Math.round(x.contention.pressure * 100)} % of the time ` +
      "(other work on this shared machine shows in the p95 more than in the median).",
    "",
    `A temporary database: one care site (${ZONE}), one clinician (the viewer) and the patient, paired ` +
      `${DAYS + 1} days before ${x.today} with a goal of ${PER_DAY} a day, every day, with ${DAYS} days of data up to ` +
      `yesterday: ${n(w.transmissions[0])} transmissions (one a day, with an hour meter reading), ${n(w.therapies[0])} ` +
      `therapies of ${CYCLES} cycles (${n(w.incomplete[0])} stopped early, ${n(w.deviating[0])} more at deviating settings), ` +
      `${n(w.cycles[0])} cycles (pressures, volumes, flows; SpO2 null on about 40 % of therapies). ` +
      `${OTHERS.patients} other patients of the site have ${OTHERS.days} days each (${n(w.therapies[1])} therapies, ` +
      `${n(w.cycles[1])} cycles). Bulk insert ${x.buildSeconds.toFixed(1)} s; DailyAdherence by the app's rebuildAll() ` +
      `(${n(x.dailyRows)} rows) and ANALYZE ${x.prepSeconds.toFixed(1)} s; database ${Math.round(x.fileMb)} MB.`,
    "",
    "Loader: `findProfile(viewer, { profileId, clinicId, pairId })` then " +
      '`loadProfileView(found, "Imperial", search)` (its queries and server-rendered SVG charts), in process ' +
      "through the app's Prisma client, without HTTP, session, audit or React rendering of the page. " +
      `${WARMUP} warm-up calls, then ${RUNS} timed; target p95 under ${TARGET_MS.loader} ms.`,
    "",
    ...table(
      ["Case", "Query", "Median ms", "p95 ms", `p95 < ${TARGET_MS.loader} ms`],
      x.results
        .filter((r) => r.kind === "loader")
        .map((r) => [r.label, r.query ? `\`${r.query}\`` : "–", ms(r.t.median), ms(r.t.p95), met(r)]), // prettier-ignore
      [false, false, true, true, false],
    ),
    "",
    "PDF: `findProfile` + `loadReportData(found, viewer, search)` (data), then `buildPatientReportPdf(data)` " +
      `(pdfkit). ${WARMUP} warm-up calls, then ${PDF_RUNS} timed; target under ${TARGET_MS.PDF} ms, judged on the p95.`,
    "",
    ...table(
      ["Range", "Data median ms", "PDF median ms", "Median ms", "p95 ms", "Bytes", "Pages", "p95 < 1 s"], // prettier-ignore
      x.results
        .filter((r) => r.kind === "PDF")
        .map((r) => [r.label, ms(r.data!.median), ms(r.build!.median), ms(r.t.median), ms(r.t.p95), n(r.bytes!), String(r.pages), met(r)]), // prettier-ignore
      [false, true, true, true, true, true, true, false],
    ),
    "",
    missed.length === 0
      ? "Every case meets its target."
      : `${missed.length} of ${x.results.length} cases miss their target: ${missed.map((r) => `${r.kind}, ${r.label} (p95 ${ms(r.t.p95)} ms)`).join("; ")}.`, // prettier-ignore
    "",
    ...x.breakdowns.flatMap((b) => [
      `Where the time goes in ${b.label}: each function alone with that case's arguments, median of 5.`,
      "",
      ...table(["Function", "Median ms"], b.parts.map((p) => [p.label, ms(p.median)]), [false, true]), // prettier-ignore
      "",
      `Plan of trendDays' SQL: ${b.plan}.`,
      "",
      b.reading,
      "",
    ]),
    END_MARKER,
  ].join("\n");
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
