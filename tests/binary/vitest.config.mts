// The release binary's smoke test (tests/binary/smoke.test.ts), apart from the unit and
// integration suites: no global setup (the binary brings its own database), one file, its tests in
// order, long timeouts (the binary unpacks itself and seeds a database).
//   npm run build:binary
//   npx vitest run --dir tests/binary --config tests/binary/vitest.config.mts
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: path.resolve(import.meta.dirname, "..", ".."),
    // Test globs are relative to `dir` (what --dir sets): this folder, so tests/binary/**/*.test.ts
    // with or without --dir tests/binary.
    dir: import.meta.dirname,
    include: ["**/*.test.ts"],
    pool: "forks",
    fileParallelism: false,
    sequence: { concurrent: false, shuffle: false },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
