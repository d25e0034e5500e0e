// The daily notification summary for the browser tests: archive one care site's yesterday with
// the app's own run (archive-summary.cli.ts, in a process of its own on the test server's file).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { E2E_DATA_DIR, E2E_PORT, serverEnv } from "./env";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

/**
 * Archives yesterday's summary of a care site with its current settings, as the 07:00 run does
 * (or the summary of `day`: the screen's yesterday, in the site's zone, differs from the run's
 * between midnight in Chicago and midnight in a zone west of it).
 */
export function archiveYesterday(
  careSiteId: string,
  day?: string,
): { day: string; created: boolean } {
  const result = spawnSync(
    process.execPath,
    [TSX, path.join(__dirname, "archive-summary.cli.ts"), careSiteId, ...(day ? [day] : [])],
    {
      cwd: ROOT,
      encoding: "utf8",
      env: serverEnv(E2E_DATA_DIR, E2E_PORT) as NodeJS.ProcessEnv,
      timeout: 45_000,
    },
  );
  if (result.status !== 0) {
    throw new Error(`archive-summary failed (${result.status}): ${result.stderr}`);
  }
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { day: string; created: boolean };
}
