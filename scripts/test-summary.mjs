// Prints the one closing line of `npm test` from the runners' JSON reports:
// "Summary: N passed, N failed, N skipped" (vitest, Playwright and the binary's smoke test together).
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const read = (name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
  } catch {
    return null;
  }
};

let passed = 0;
let failed = 0;
let skipped = 0;
const vitests = [read("vitest.json"), read("binary.json")].filter(Boolean);
for (const vitest of vitests) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  // A test file that fails before running any test (an import error) counts as one failure.
  failed += vitest.testResults.filter(
    (f) => f.status === "failed" && f.assertionResults.length === 0,
  ).length;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
}
const playwright = read("playwright.json");
if (playwright) {
  // "expected" counts the pending routes' expected failures too: they passed as declared.
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
}
// Nothing ran: the type check, the lint or set-up failed.
if (!vitests.length && !playwright) failed += 1;
console.log(`Summary: ${passed} passed, ${failed} failed, ${skipped} skipped`);
