// The super admin dashboard's lists (domain/careSites/careSite.server.ts) on a large database: 500 care
// sites and 20,000 users with their memberships and device pairings.
//
//   npm run bench:lists        (tsx scripts/bench/lists.ts; run from the project root so tsx
//                               reads tsconfig.json and resolves the app's "~/" imports)
//
// It migrates a temporary database with the app's own runner, bulk-inserts the rows with
// better-sqlite3 in one transaction (DateTime columns as integer ms, as the app stores them),
// runs ANALYZE, and only then imports the app's modules with DATA_DIR pointing at it. Each case
// runs 5 times to warm up, then 30 timed times; it prints a table and rewrites its own section of
// docs/performance.md (between the lists markers; the rest of that file is kept).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { applyMigrations, readMigrations } from "../../app/lib/migrate.server";
import { quantile, queryPlanLines, sectionMarkers, writeSection } from "./support";

const ROOT = path.resolve(__dirname, "..", "..");
const { start: START_MARKER, end: END_MARKER } = sectionMarkers("lists");

const CARE_SITES = 500;
const INACTIVE_CARE_SITES = 20;
const USERS = { patient: 16_000, clinician: 3_000, clinicadmin: 1_000 } as const;
const WARMUP = 5;
const RUNS = 30;

const FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen", "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Betty", "Mark", "Sandra", "Donald", "Ashley", "Steven", "Maria", "Andrew", "Emily", "Kenneth", "Donna", "Joshua", "Michelle", "Kevin", "Carol"]; // prettier-ignore
const LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts"]; // prettier-ignore
const CITIES = ["Austin", "Dallas", "Houston", "Chicago", "Springfield", "Denver", "Boston", "Seattle", "Portland", "Phoenix", "Columbus", "Madison", "Richmond", "Raleigh", "Omaha", "Tulsa", "Fresno", "Mesa", "Miami", "Atlanta"]; // prettier-ignore
const STATES = ["Texas", "Illinois", "Colorado", "Massachusetts", "Washington", "Oregon", "Arizona", "Ohio", "Wisconsin", "Virginia", "North Carolina", "Nebraska", "Oklahoma", "California", "Florida", "Georgia"]; // prettier-ignore
const SITE_WORDS = ["Saint", "Mercy", "Valley", "Lakeside", "Riverside", "Hope", "Grace", "Summit", "Cedar", "Pine", "Harbor", "Meadow", "Unity", "Trinity", "Providence", "Sunrise"]; // prettier-ignore
const SITE_KINDS = ["Care", "Clinic", "Medical Center", "Respiratory Care", "Health", "Hospital"];

// A fixed seed, so every run measures the same data.
let seed = 42;
function random() {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];

function makeDatabase(dir: string) {
  const file = path.join(dir, "arc.db");
  applyMigrations(file, readMigrations(path.join(ROOT, "prisma", "migrations")));
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  const now = Date.now();
  const id = () => crypto.randomUUID();
  const insertSite = db.prepare(
    `INSERT INTO "CareSite" (id, accountNumber, name, city, state, zip, country, status, timeZone, createdAt, updatedAt)
     VALUES (?, ?, ?, ?, ?, ?, 'United States', ?, 'America/Chicago', ?, ?)`,
  );
  const insertUser = db.prepare(
    `INSERT INTO "User" (id, username, email, phone, passwordHash, role, status, firstName, lastName, measuringUnit, country, createdAt, updatedAt)
     VALUES (?, ?, ?, ?, 'x', ?, 'active', ?, ?, 'Imperial', 'United States', ?, ?)`,
  );
  const insertMembership = db.prepare(
    `INSERT INTO "Membership" (id, careSiteId, userId, role, status, createdAt, updatedAt, acceptedAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDevice = db.prepare(
    `INSERT INTO "Device" (id, serial, type, tokenHash, createdAt) VALUES (?, ?, 'cough', 'x', ?)`,
  );
  const insertPairing = db.prepare(
    `INSERT INTO "Pairing" (id, deviceId, patientId, careSiteId, pairedAt, unpairedAt) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const counts = { memberships: 0, pairings: 0 };
  db.transaction(() => {
    const sites: string[] = [];
    for (let i = 0; i < CARE_SITES; i++) {
      const siteId = id();
      const active = i >= INACTIVE_CARE_SITES;
      if (active) sites.push(siteId);
      insertSite.run(
        siteId,
        `AC${100_000 + i}`,
        `${pick(SITE_WORDS)} ${pick(SITE_WORDS)} ${pick(SITE_KINDS)}`,
        pick(CITIES),
        pick(STATES),
        String(10_000 + Math.floor(random() * 89_999)),
        active ? "active" : "inactive",
        now,
        now,
      );
    }
    let n = 0;
    for (const [role, total] of Object.entries(USERS)) {
      for (let i = 0; i < total; i++, n++) {
        const userId = id();
        const first = pick(FIRST);
        const last = pick(LAST);
        const created = now - Math.floor(random() * 365 * 86_400_000);
        insertUser.run(
          userId,
          `user${n}`,
          `${first}.${last}.${n}@example.test`.toLowerCase(),
          `1512${String(1_000_000 + n)}`,
          role,
          first,
          last,
          created,
          created,
        );
        // One membership, a quarter of them a second one. 80 % accepted, 12 % pending, 5 %
        // rejected, 3 % blocked.
        const memberships = random() < 0.25 ? 2 : 1;
        const used = new Set<string>();
        let accepted = false;
        for (let k = 0; k < memberships; k++) {
          const siteId = pick(sites);
          if (used.has(siteId)) continue;
          used.add(siteId);
          const r = random();
          const status =
            r < 0.8 ? "accepted" : r < 0.92 ? "pending" : r < 0.97 ? "rejected" : "blocked";
          accepted ||= status === "accepted";
          insertMembership.run(
            id(),
            siteId,
            userId,
            role,
            status,
            created,
            created,
            status === "accepted" ? created : null,
          );
          counts.memberships++;
        }
        // 60 % of accepted patients have a device paired now; some had one before.
        if (role === "patient" && accepted && random() < 0.7) {
          const deviceId = id();
          insertDevice.run(deviceId, `SN${n}`, created);
          const unpaired = random() < 0.15 ? now - 86_400_000 : null;
          insertPairing.run(id(), deviceId, userId, pick(sites), created, unpaired);
          counts.pairings++;
        }
      }
    }
  })();
  db.exec("ANALYZE");
  db.close();
  return { file, ...counts };
}

type Case = { list: string; label: string; run: () => Promise<unknown> };
type Result = Case & { median: number; p95: number; total: number };

async function time(c: Case): Promise<Result> {
  let total = 0;
  for (let i = 0; i < WARMUP; i++) await c.run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const result = (await c.run()) as { total?: number } | undefined;
    times.push(performance.now() - start);
    total = result?.total ?? total;
  }
  times.sort((a, b) => a - b);
  return { ...c, median: quantile(times, 0.5), p95: quantile(times, 0.95), total };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-bench-lists-"));
  try {
    const built = performance.now();
    const made = makeDatabase(dir);
    const buildSeconds = (performance.now() - built) / 1000;

    // The app reads its environment when first imported: point it at the database first.
    process.env.DATA_DIR = dir;
    process.env.SESSION_SECRET = crypto.randomBytes(32).toString("hex");
    process.env.NODE_ENV = "production";
    const models = await import("../../app/domain/careSites/careSite.server");
    const { listQueries } = await import("../../app/domain/careSites/sql.server");
    const { configureDatabase, disconnectDatabase } = await import("../../app/lib/db.server");
    await configureDatabase();

    // The lists are the provider's admins' (domain/access.server.ts mayAdministerAllCareSites).
    const admin = {
      id: "bench",
      role: "superadmin",
      email: "",
      sites: [],
      currentCareSiteId: null,
    };
    const base = { q: "", sort: "name" as const, order: "asc" as const, page: 1 };
    const people = { ...base, role: "patient" as const, sort: "lastName" as const };
    const careSiteTotal = (await models.listCareSites(admin, base)).total;
    const patientTotal = (await models.listEnrolledPeople(admin, people)).total;
    const lastPage = (total: number) => Math.max(1, Math.ceil(total / 10));
    const firstPatients = await models.listEnrolledPeople(admin, people);

    const cases: Case[] = [
      {
        list: "counts",
        label: "getEnrolledCounts (4 counts)",
        run: () => models.getEnrolledCounts(admin),
      },
      {
        list: "care sites",
        label: "first page, name ↑",
        run: () => models.listCareSites(admin, base),
      },
      {
        list: "care sites",
        label: 'search "spring"',
        run: () => models.listCareSites(admin, { ...base, q: "spring" }),
      },
      ...models.CARE_SITE_SORTS.map((sort) => ({
        list: "care sites",
        label: `sort ${sort} ↓`,
        run: () => models.listCareSites(admin, { ...base, sort, order: "desc" }),
      })),
      {
        list: "care sites",
        label: `last page (${lastPage(careSiteTotal)})`,
        run: () => models.listCareSites(admin, { ...base, page: lastPage(careSiteTotal) }),
      },
      {
        list: "patients",
        label: "first page, last name ↑",
        run: () => models.listEnrolledPeople(admin, people),
      },
      {
        list: "patients",
        label: 'search "son"',
        run: () => models.listEnrolledPeople(admin, { ...people, q: "son" }),
      },
      {
        list: "patients",
        label: 'search "pending"',
        run: () => models.listEnrolledPeople(admin, { ...people, q: "pending" }),
      },
      ...models.PERSON_SORTS.map((sort) => ({
        list: "patients",
        label: `sort ${sort} ↓`,
        run: () => models.listEnrolledPeople(admin, { ...people, sort, order: "desc" }),
      })),
      {
        list: "patients",
        label: `last page (${lastPage(patientTotal)})`,
        run: () => models.listEnrolledPeople(admin, { ...people, page: lastPage(patientTotal) }),
      },
      {
        list: "patients",
        label: "row links of a page (pairings)",
        run: () =>
          models.getPatientLinks(
            admin,
            firstPatients.rows.map((r) => r.id),
          ),
      },
      {
        list: "clinicians",
        label: "first page, last name ↑",
        run: () => models.listEnrolledPeople(admin, { ...people, role: "clinician" }),
      },
    ];
    const results: Result[] = [];
    for (const c of cases) results.push(await time(c));
    await disconnectDatabase();

    const plans = explain(made.file, listQueries, people, base);
    const section = render({ results, made, buildSeconds, plans });
    console.log(section);
    writeSection("lists", section);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Queries = typeof import("../../app/domain/careSites/sql.server").listQueries;

/** SQLite's plan of the page query of the main cases, as `EXPLAIN QUERY PLAN` prints it. */
function explain(
  file: string,
  queries: Queries,
  people: Parameters<Queries["people"]>[0],
  base: Parameters<Queries["careSites"]>[0],
) {
  const db = new Database(file, { readonly: true });
  const tree = (sql: { sql: string; values: unknown[] }) => {
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql.sql}`).all(...(sql.values as never[])) as {
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
  const first = { offset: 0, limit: 10, reverse: false };
  const out = {
    "patients, first page by last name": tree(queries.people(people).page(first)),
    "patients, last page by last name (read from the other end)": tree(
      queries.people(people).page({ ...first, reverse: true }),
    ),
    "patients, first page by first name": tree(
      queries.people({ ...people, sort: "firstName" }).page(first),
    ),
    'patients, search "son"': tree(queries.people({ ...people, q: "son" }).page(first)),
    "patients, total": tree(queries.people(people).total),
    "care sites, first page by name": tree(queries.careSites(base).page(first)),
  };
  db.close();
  return out;
}

function render(input: {
  results: Result[];
  made: { memberships: number; pairings: number };
  buildSeconds: number;
  plans: Record<string, string>;
}) {
  const cpu = os.cpus()[0]?.model?.trim() ?? "unknown CPU";
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const fmt = (ms: number) => ms.toFixed(2);
  const header = ["List", "Case", "Rows matched", "Median ms", "p95 ms"];
  const rows = input.results.map((r) => [
    r.list,
    r.label,
    r.list === "counts" || r.label.startsWith("row links") ? "–" : String(r.total),
    fmt(r.median),
    fmt(r.p95),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const right = [false, false, true, true, true];
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (right[i] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  const users = Object.values(USERS).reduce((a, b) => a + b, 0);
  return [
    START_MARKER,
    "",
    "## Dashboard lists",
    "",
    `Run ${when} UTC on ${cpu}, ${os.cpus().length} cores, Node ${process.version}, ${os.type()} ${os.release()}. ` +
      "To re-run: `npm run bench:lists` (`tsx scripts/bench/lists.ts`).",
    "",
    `A temporary database of ${CARE_SITES} care sites (${CARE_SITES - INACTIVE_CARE_SITES} active), ` +
      `${users.toLocaleString("en-US")} users (${USERS.patient.toLocaleString("en-US")} patients, ` +
      `${USERS.clinician.toLocaleString("en-US")} clinicians, ${USERS.clinicadmin.toLocaleString("en-US")} care site admins), ` +
      `${input.made.memberships.toLocaleString("en-US")} memberships (80 % accepted, 12 % pending, 5 % rejected, 3 % blocked) ` +
      `and ${input.made.pairings.toLocaleString("en-US")} pairings, built in ${input.buildSeconds.toFixed(1)} s and ANALYZEd. ` +
      `Each case is one call of the model function (domain/careSites/careSite.server.ts) through the app's Prisma client: ` +
      `a page of 10 and its total, as the dashboard's loader makes it. ${WARMUP} warm-up calls, then ${RUNS} timed; ` +
      "median and 95th percentile.",
    "",
    line(header),
    rule,
    ...rows.map(line),
    "",
    "Query plans (`EXPLAIN QUERY PLAN`) of the page queries:",
    "",
    ...queryPlanLines(input.plans),
    END_MARKER,
  ].join("\n");
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
