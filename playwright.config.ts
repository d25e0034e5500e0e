import { defineConfig } from "@playwright/test";
import { E2E_DATA_DIR, E2E_PORT, serverEnv } from "./tests/e2e/support/env";

// Debian's Chromium, never a downloaded browser build (STACK-NOTES.md "Browser tests"): its headless
// shell (package chromium-headless-shell, the build Playwright itself drives headless), which costs
// less than half the full browser's CPU per test.
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  // The long flows (a device log from upload to PDF, a profile from dashboard to reports) take
  // 17-25 s alone and near 30 s beside a second worker on a 2-core machine: 60 s, not 30.
  timeout: 60_000,
  // One retry on CI: a flaky test is still reported as "flaky" in the list, but does not sink a run.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    launchOptions,
    // A failed test keeps its trace (each action, its log, network, console and page errors with
    // their stacks) and Playwright's error-context.md (the page's ARIA snapshot at the failure), but
    // not the screencast: its screenshots made the browser tests half again as slow on 2 cores
    // (form-values.spec.ts in "js": 89-130 s with them, 55-59 s without, runs interleaved); nor a
    // DOM snapshot before and after every action, taken in every test to keep those of the few that
    // fail: a fifth of the CPU of dashboard + shell in "js" (26.0 s with them, 21.0 s without).
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
  },
  projects: [
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
    },
    {
      name: "js",
      use: { javaScriptEnabled: true },
      // HTTP-level checks need no second run with JavaScript; /deviceStats sends none (and its
      // Delete all would race a second run).
      testIgnore: [
        "**/authorization.spec.ts",
        "**/lifecycle.spec.ts",
        "**/device-stats.spec.ts",
        "**/door.spec.ts",
        // Malformed posts at the HTTP level, on a server of its own (fuzz.spec.ts).
        "**/fuzz.spec.ts",
      ],
    },
  ],
  webServer: {
    // The production build on a fresh database with the demo world, loaded by the build's own
    // `seed-demo` (the same prisma/seed.ts, compiled): 2-4 s sooner than through tsx.
    command: `rm -rf ${E2E_DATA_DIR} && node build/server.js seed-demo && node build/server.js`,
    url: `http://localhost:${E2E_PORT}/healthz`,
    env: serverEnv(E2E_DATA_DIR, E2E_PORT),
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
