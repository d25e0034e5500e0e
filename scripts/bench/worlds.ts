// The worlds `npm run bench` measures, kept between runs: one DATA_DIR per patients × days × seed
// under the worlds directory (default .bench/worlds/, ignored by git), made by the world builder
// (scripts/world/build.ts buildWorld) and made again when the newest migration is not the one the
// world was built with (its world.json says which) or when it was built on another day (its data
// runs up to the day before it was built).
import fs from "node:fs";
import path from "node:path";
import { buildWorld, type WorldInfo } from "../world/build";
import { ROOT } from "./support";

export type World = {
  dataDir: string;
  databaseFile: string;
  info: WorldInfo;
  /** Seconds it took to build now; null when reused. */
  builtInS: number | null;
};

/** The migrations' directory names, oldest first. */
function migrations() {
  const dir = path.join(ROOT, "prisma", "migrations");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

function readInfo(dataDir: string): WorldInfo | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, "world.json"), "utf8")) as WorldInfo;
  } catch {
    return null;
  }
}

/** The UTC day of a date, YYYY-MM-DD. */
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The world of that size: reused when built today (its data runs up to yesterday, as the clock
 * moves) with a migration of this checkout; built again otherwise.
 */
export async function ensureWorld(
  worldsDir: string,
  size: { patients: number; days: number; seed: number },
  log: (line: string) => void,
): Promise<World> {
  const known = migrations();
  const migration = known.at(-1)!;
  const name = `${size.patients}x${size.days}-seed${size.seed}`;
  const dataDir = path.join(worldsDir, name);
  const databaseFile = path.join(dataDir, "arc.db");
  const existing = readInfo(dataDir);
  if (
    existing &&
    known.includes(existing.migration) &&
    utcDay(new Date(existing.builtAt)) === utcDay(new Date()) &&
    fs.existsSync(databaseFile)
  ) {
    return { dataDir, databaseFile, info: existing, builtInS: null };
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  log(`Building the world ${name} (migration ${migration}) in ${dataDir} …`);
  const t0 = performance.now();
  const info = await buildWorld({ dataDir, ...size, fresh: true, log: (line) => log(`  ${line}`) });
  return { dataDir, databaseFile, info, builtInS: (performance.now() - t0) / 1000 };
}
