import path from "node:path";
import { DEMO_KEY_HEX } from "../../../app/domain/deviceLogs/keys";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
// Another port gets its own data directory, so two runs on one machine stay apart.
export const E2E_DATA_DIR = path.resolve(
  __dirname,
  "..",
  "..",
  ".tmp",
  process.env.E2E_PORT ? `e2e-${process.env.E2E_PORT}` : "e2e",
);
export const TEST_SESSION_SECRET = "test-secret-0123456789abcdef0123456789abcdef";
export const TEST_DEVICE_STATS_PASSWORD = "e2e-device-stats-password";

/** The environment of a test server: production build, its own data directory. */
export function serverEnv(dataDir: string, port: number): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_REQUESTS: "0",
    // Every test browser comes from 127.0.0.1: per-client limits are for real clients.
    RATE_LIMIT_SCALE: "100",
    // Production needs a key of its own and takes the demo key only when configured beside it
    // (with a warning): the tests' logs are made with the demo key.
    DEVICE_LOG_KEYS: `e2e:${"e2".repeat(32)},demo:${DEMO_KEY_HEX}`,
    DEVICE_STATS_PASSWORD: TEST_DEVICE_STATS_PASSWORD,
    PATH: process.env.PATH ?? "",
  };
}
