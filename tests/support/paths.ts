import path from "node:path";

/** Every vitest run works in a folder of its own under here, so two runs never share files. */
export const TMP_DIR = path.resolve(__dirname, "..", ".tmp", "vitest");
export const MIGRATIONS_DIR = path.resolve(__dirname, "..", "..", "prisma", "migrations");
/** The session secret every test process and test server shares (never used outside tests). */
export const TEST_SESSION_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

/** This run's folder: set by the global setup, inherited by the worker processes. */
export function runDir() {
  const dir = process.env.ARC_TEST_RUN_DIR;
  if (!dir) throw new Error("ARC_TEST_RUN_DIR is not set: run the tests through vitest");
  return dir;
}

export const templateDb = () => path.join(runDir(), "template.db");
