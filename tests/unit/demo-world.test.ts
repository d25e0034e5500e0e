// The demo world comes out the same as before the seed's rewrite (issue 19): same accounts, care
// sites, patients, devices, conversations, ids and data. tests/fixtures/demo-world.json is the
// fingerprint of the old seed (tests/support/demoWorld.ts says what is left out and why).
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { FINGERPRINT_FILE, fingerprintDemoWorld, type Fingerprint } from "../support/demoWorld";

const expected = JSON.parse(fs.readFileSync(FINGERPRINT_FILE, "utf8")) as Fingerprint;
let actual: Fingerprint;

beforeAll(async () => {
  actual = await fingerprintDemoWorld();
}, 120_000);

describe("demo world fingerprint", () => {
  it("has the same tables", () => {
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.keys(expected))("%s has the same rows", (table) => {
    // Columns first: a difference then names the column, not just the table.
    expect({ rows: actual[table]?.rows, columns: actual[table]?.columns }).toEqual({
      rows: expected[table].rows,
      columns: expected[table].columns,
    });
    expect(actual[table].sha256).toBe(expected[table].sha256);
  });
});
