// The device log command line (issue 7 scope 2) as support staff run it: a real process on files
// written by scripts/make-device-log.ts, CSV or JSON on stdout, the format document's message on
// stderr with exit status 2 and nothing on stdout for a rejected file.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { writeDeviceLog, type DeviceLogOptions } from "../../scripts/make-device-log";

const ROOT = path.resolve(__dirname, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-devicelog-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/devicelog.ts", ...args],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, NODE_ENV: "test", DEVICE_LOG_KEYS: "" } },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.trim() };
}

const log = (name: string, options: Partial<DeviceLogOptions> = {}) => {
  fs.mkdirSync(path.join(dir, name));
  return writeDeviceLog({
    dir: path.join(dir, name),
    type: "cough",
    deviceId: "2301A0042",
    from: "2026-11-01",
    to: "2026-11-07",
    seed: 7,
    ...options,
  });
};

describe("npm run devicelog", () => {
  it("decrypt writes every row as CSV; --from/--to keep the rows of those days", async () => {
    const written = await log("ok");
    const all = run("decrypt", written.path);
    expect(all.status).toBe(0);
    const rows = parse(all.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual([
      "Event ID",
      "Event Type",
      "Log Type",
      "Time Stamp",
      "Value",
    ]);
    expect(rows).toHaveLength(written.rows);
    expect(rows.filter((r) => r["Event Type"] === "THERAPY")).toHaveLength(written.therapies);

    const some = parse(
      run("decrypt", written.path, "--from", "2026-11-03", "--to", "2026-11-04").stdout,
      {
        columns: true,
      },
    ) as Record<string, string>[];
    expect(some.length).toBeGreaterThan(0);
    expect(
      some.every((r) => r["Time Stamp"] >= "2026-11-03" && r["Time Stamp"] < "2026-11-05"),
    ).toBe(true);
  });

  it("summary writes the format's fields as JSON, null where missing", async () => {
    const written = await log("summary");
    const out = run("summary", written.path);
    expect(out.status).toBe(0);
    const summary = JSON.parse(out.stdout) as Record<string, unknown>;
    expect(Object.keys(summary).sort()).toEqual(
      [
        "totalTherapies",
        "firstTherapyAt",
        "lastTherapyAt",
        "average_NC",
        "average_EV",
        "sdExpVol",
        "average_PF",
        "sdExpFlow",
        "average_Therapy",
        "sdTherapiesPerDay",
        "noDaysWithoutTherapy",
        "HMR",
        "usageHMR",
      ].sort(),
    );
    expect(summary.totalTherapies).toBe(written.therapies);
    expect(summary.firstTherapyAt).toBe("01-11-2026");
    const none = JSON.parse(
      run("summary", written.path, "--from", "2030-01-01", "--to", "2030-01-02").stdout,
    );
    expect(none).toMatchObject({ totalTherapies: 0, firstTherapyAt: null, HMR: null });
  });

  it.each<[string, Partial<DeviceLogOptions>, string]>([
    [
      "corrupted",
      { corruptRecord: 4 },
      "Error occurred! The encrypted file is corrupted. Please re-download it from the device and try again",
    ],
    [
      "truncated",
      { truncate: true },
      "Error occurred! The encrypted file is corrupted. Please re-download it from the device and try again",
    ],
    ["decrypted", { decrypted: true }, "Looks like you have uploaded already decrypted file"],
  ])(
    "a %s file: the message on stderr, exit 2, nothing on stdout",
    async (name, options, message) => {
      const written = await log(name, options);
      for (const command of ["decrypt", "summary"]) {
        const out = run(command, written.path);
        expect(out).toEqual({ status: 2, stdout: "", stderr: message });
      }
    },
  );

  it("a file name that breaks the rules is refused before reading", async () => {
    const written = await log("renamed");
    const renamed = path.join(dir, "C2301A0042_31042025_120000_system.csv");
    fs.copyFileSync(written.path, renamed);
    expect(run("decrypt", renamed)).toEqual({
      status: 2,
      stdout: "",
      stderr: "Invalid File uploaded please upload BiWaze System encrypted log file",
    });
  });
});
