import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/worker-setup.ts"],
    pool: "forks",
    testTimeout: 20_000,
    // The console transport prints every code it "sends"; that is for people, not test logs.
    onConsoleLog: (log) => !log.startsWith("[outbox]"),
    hookTimeout: 30_000,
  },
});
