// Each vitest worker process gets its own copy of the migrated template database, set up before
// any app module reads the environment.
import fs from "node:fs";
import path from "node:path";
import { runDir, templateDb, TEST_SESSION_SECRET } from "./paths";

const marker = globalThis as unknown as { __arcWorkerDb?: string };
if (!marker.__arcWorkerDb) {
  const dir = path.join(runDir(), `worker-${process.env.VITEST_POOL_ID ?? "0"}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(templateDb(), path.join(dir, "arc.db"));
  marker.__arcWorkerDb = dir;
}
process.env.DATA_DIR = marker.__arcWorkerDb;
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET = TEST_SESSION_SECRET;
