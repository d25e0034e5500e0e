// The worlds `npm run bench` measures, kept between runs: one DATA_DIR per patients × days × seed
// under the worlds directory (default .bench/worlds/, ignored by git), made by the world builder
// (scripts/world/build.ts buildWorld) and made again when the newest migration is not the one the
// world was built with (its world.json says which).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { seedDemoWorld } from "../../prisma/seed";
import { ROOT } from "./support";

/** world.json of a DATA_DIR the world builder filled (scripts/world/build.ts). */
export type WorldInfo = {
  patients: number;
  days: number;
  seed: number;
  asOf: string;
  builtAt: string;
  migration: string;
  bigSite: { id: string; name: string; patients: number };
  accounts: { superadmin: string; abmadmin: string; siteadmin: string; clinician: string };
  profilePatient: { patientId: string; careSiteId: string; pairId: string | null };
  rows: number;
};

type BuildWorld = (opts: {
  dataDir: string;
  patients: number;
  days: number;
  seed?: number;
  fresh?: boolean;
  log?: (line: string) => void;
}) => Promise<WorldInfo>;

export type World = {
  dataDir: string;
  databaseFile: string;
  info: WorldInfo;
  /** True when the world builder is missing and the demo world stands in (its own size). */
  demo: boolean;
  /** Seconds it took to build now; null when reused. */
  builtInS: number | null;
};

/** The newest migration's directory name (what a world is rebuilt for). */
export function newestMigration() {
  const dir = path.join(ROOT, "prisma", "migrations");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .at(-1)!;
}

async function loadBuilder(): Promise<BuildWorld | null> {
  const file = path.join(ROOT, "scripts", "world", "build.ts");
  if (!fs.existsSync(file)) return null;
  const mod = (await import(pathToFileURL(file).href)) as { buildWorld?: BuildWorld };
  return mod.buildWorld ?? null;
}

function readInfo(dataDir: string): WorldInfo | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, "world.json"), "utf8")) as WorldInfo;
  } catch {
    return null;
  }
}

/** The world of that size, built when missing or built for another migration. */
export async function ensureWorld(
  worldsDir: string,
  size: { patients: number; days: number; seed: number },
  log: (line: string) => void,
): Promise<World> {
  const migration = newestMigration();
  const builder = await loadBuilder();
  const name = builder ? `${size.patients}x${size.days}-seed${size.seed}` : "demo";
  const dataDir = path.join(worldsDir, name);
  const databaseFile = path.join(dataDir, "arc.db");
  const existing = readInfo(dataDir);
  if (existing && existing.migration === migration && fs.existsSync(databaseFile)) {
    return { dataDir, databaseFile, info: existing, demo: !builder, builtInS: null };
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const t0 = performance.now();
  let info: WorldInfo;
  if (builder) {
    log(`Building the world ${name} (migration ${migration}) in ${path.relative(ROOT, dataDir) || dataDir} …`);
    info = await builder({ dataDir, ...size, fresh: true, log: (line) => log(`  ${line}`) });
  } else {
    log("scripts/world/build.ts is missing: the demo world (prisma/seed.ts) stands in for every size.");
    await seedDemoWorld(databaseFile);
    info = demoWorldInfo(databaseFile, migration);
    fs.writeFileSync(path.join(dataDir, "world.json"), JSON.stringify(info, null, 2));
  }
  return { dataDir, databaseFile, info, demo: !builder, builtInS: (performance.now() - t0) / 1000 };
}

/** world.json's facts, read from a seeded demo world: its biggest care site and richest patient. */
function demoWorldInfo(databaseFile: string, migration: string): WorldInfo {
  const db = new Database(databaseFile, { readonly: true });
  try {
    const user = (username: string) =>
      (db.prepare(`SELECT id FROM "User" WHERE username = ?`).get(username) as { id: string }).id;
    const site = db
      .prepare(
        `SELECT c.id, c.name, COUNT(*) AS patients
         FROM "CareSite" c JOIN "Membership" m ON m.careSiteId = c.id
         WHERE m.role = 'patient' AND m.status = 'accepted'
           AND c.id IN (SELECT careSiteId FROM "Membership" WHERE userId = ? AND status = 'accepted')
         GROUP BY c.id, c.name ORDER BY patients DESC LIMIT 1`,
      )
      .get(user("demo.siteadmin")) as { id: string; name: string; patients: number };
    const patient = db
      .prepare(
        `SELECT m.userId AS patientId, COUNT(d.day) AS days
         FROM "Membership" m JOIN "DailyAdherence" d ON d.patientId = m.userId
         WHERE m.careSiteId = ? AND m.role = 'patient' AND m.status = 'accepted'
         GROUP BY m.userId ORDER BY days DESC LIMIT 1`,
      )
      .get(site.id) as { patientId: string; days: number };
    const pairing = db
      .prepare(`SELECT id FROM "Pairing" WHERE patientId = ? AND unpairedAt IS NULL LIMIT 1`)
      .get(patient.patientId) as { id: string } | undefined;
    const counts = db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM "User" WHERE role = 'patient') AS patients,
                (SELECT COUNT(*) FROM "DailyAdherence") AS rows_`,
      )
      .get() as { patients: number; rows_: number };
    return {
      patients: counts.patients,
      days: patient.days,
      seed: 0,
      asOf: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
      builtAt: new Date().toISOString(),
      migration,
      bigSite: site,
      accounts: {
        superadmin: user("demo.superadmin"),
        abmadmin: user("demo.abmadmin"),
        siteadmin: user("demo.siteadmin"),
        clinician: user("demo.clinician"),
      },
      profilePatient: { patientId: patient.patientId, careSiteId: site.id, pairId: pairing?.id ?? null }, // prettier-ignore
      rows: counts.rows_,
    };
  } finally {
    db.close();
  }
}
