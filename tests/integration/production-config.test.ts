// What a deployment (NODE_ENV=production without DEMO_MODE) must configure, and what the local demo
// (DEMO_MODE=1) and development do without: each case is a fresh process with exactly the given
// environment, since the env module parses once per process.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_KEY_HEX } from "~/domain/deviceLogs/keys";

const ROOT = path.resolve(__dirname, "..", "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const SECRET = "s".repeat(40);
const SITE_KEY = `site-2026:${"0123456789abcdef".repeat(4)}`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-config-"));
  dirs.push(dir);
  return dir;
}

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs tsx with `args` in a process whose environment is only PATH plus `vars`. */
function run(args: string[], vars: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...vars } as unknown as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const PROBE = `
import { env, missingProductionSecrets } from "~/lib/env.server";
let secret = null;
let secretError = null;
try { secret = env.sessionSecret; } catch (error) { secretError = String(error.message); }
console.log(JSON.stringify({
  missing: missingProductionSecrets(),
  keys: [...env.deviceLogKeys.keys()].sort(),
  demoKeyWarning: env.demoLogKeyInProduction,
  secret,
  secretError,
}));
`;

type Probe = {
  missing: string[];
  keys: string[];
  demoKeyWarning: boolean;
  secret: string | null;
  secretError: string | null;
};

async function probe(vars: Record<string, string>) {
  const dir = vars.DATA_DIR ?? dataDir();
  const result = await run(["-e", PROBE], { DATA_DIR: dir, ...vars });
  if (result.code !== 0) throw new Error(`probe failed (${result.code}):\n${result.stderr}`);
  return { ...(JSON.parse(result.stdout.trim()) as Probe), dir };
}

const generatedSecret = (dir: string) =>
  fs.existsSync(path.join(dir, "session-secret"))
    ? fs.readFileSync(path.join(dir, "session-secret"), "utf8").trim()
    : null;

describe("production secrets", () => {
  it("a deployment without them parses, names both, and refuses to sign with no secret", async () => {
    const p = await probe({ NODE_ENV: "production" });
    expect(p.missing).toEqual(["SESSION_SECRET", "DEVICE_LOG_KEYS"]);
    expect(p.secret).toBeNull();
    expect(p.secretError).toMatch(/SESSION_SECRET is not set/);
    expect(p.keys).toEqual([]); // no demo key in a deployment
    expect(generatedSecret(p.dir)).toBeNull(); // nothing generated behind the operator's back
  });

  it("a deployment with both has nothing missing and uses exactly what it was given", async () => {
    const p = await probe({
      NODE_ENV: "production",
      SESSION_SECRET: SECRET,
      DEVICE_LOG_KEYS: SITE_KEY,
    });
    expect(p).toMatchObject({ missing: [], secret: SECRET, keys: ["site-2026"] });
    expect(p.demoKeyWarning).toBe(false);
  });

  it("an empty SESSION_SECRET (as .env.example leaves it) counts as missing", async () => {
    const p = await probe({
      NODE_ENV: "production",
      SESSION_SECRET: "",
      DEVICE_LOG_KEYS: SITE_KEY,
    });
    expect(p.missing).toEqual(["SESSION_SECRET"]);
  });

  it("the demo key alone is no key in a deployment; beside a real key it is a warning", async () => {
    const demo = `demo:${DEMO_KEY_HEX}`;
    const alone = await probe({
      NODE_ENV: "production",
      SESSION_SECRET: SECRET,
      DEVICE_LOG_KEYS: demo,
    });
    expect(alone.missing).toEqual(["DEVICE_LOG_KEYS"]);
    const beside = await probe({
      NODE_ENV: "production",
      SESSION_SECRET: SECRET,
      DEVICE_LOG_KEYS: `${SITE_KEY},${demo}`,
    });
    expect(beside).toMatchObject({
      missing: [],
      keys: ["demo", "site-2026"],
      demoKeyWarning: true,
    });
  });

  it("DEMO_MODE=1 needs neither: the secret is generated and kept, the demo key is there", async () => {
    const dir = dataDir();
    const first = await probe({ NODE_ENV: "production", DEMO_MODE: "1", DATA_DIR: dir });
    expect(first.missing).toEqual([]);
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(generatedSecret(dir)).toBe(first.secret);
    expect(first.keys).toEqual(["demo"]);
    expect(first.demoKeyWarning).toBe(false);
    // A restart keeps it (people stay signed in).
    const again = await probe({ NODE_ENV: "production", DEMO_MODE: "1", DATA_DIR: dir });
    expect(again.secret).toBe(first.secret);
  });

  it("development needs neither either", async () => {
    const p = await probe({ NODE_ENV: "development" });
    expect(p.missing).toEqual([]);
    expect(p.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(p.keys).toEqual(["demo"]);
  });

  it("a malformed value is still an error, naming the variable (not the key)", async () => {
    const result = await run(["-e", PROBE], {
      NODE_ENV: "production",
      DATA_DIR: dataDir(),
      DEVICE_LOG_KEYS: "site:not-hex",
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("DEVICE_LOG_KEYS entry 1 (site)");
  });

  it("an announcement link that is neither http(s) nor a portal path stops the start, naming it", async () => {
    const result = await run(["-e", PROBE], {
      NODE_ENV: "production",
      DATA_DIR: dataDir(),
      SESSION_SECRET: SECRET,
      DEVICE_LOG_KEYS: SITE_KEY,
      ANNOUNCE_NEWS_URL: "javascript:alert(1)",
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("ANNOUNCE_NEWS_URL: must be an http(s) URL or a path");
  });

  it("are judged by the environment as it is when first used, not when the module is imported", async () => {
    // server.ts may import the env module before it settles NODE_ENV (defaulting to production).
    const result = await run(
      [
        "-e",
        `import { env, missingProductionSecrets } from "~/lib/env.server";
         process.env.NODE_ENV ??= "production";
         console.log(JSON.stringify({ production: env.isProduction, missing: missingProductionSecrets() }));`,
      ],
      { DATA_DIR: dataDir() },
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      production: true,
      missing: ["SESSION_SECRET", "DEVICE_LOG_KEYS"],
    });
  });

  it("commands that sign nothing work in a deployment without them (device:add)", async () => {
    const result = await run(
      ["scripts/device.ts", "add", "--serial", "2301A0042", "--type", "cough"],
      {
        NODE_ENV: "production",
        DATA_DIR: dataDir(),
      },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Device 2301A0042 (cough) provisioned.");
  });
});

const SEND = `
import { consoleTransport, describeTransports } from "~/lib/outbox.server";
console.log("describe: " + describeTransports());
(async () => {
  await consoleTransport.send({
    channel: "email",
    to: "nurse@example.test",
    subject: "ARC Connect notification summary",
    body: "Patient Jane Doe missed her therapy",
  });
  await consoleTransport.send({ channel: "sms", to: "+15125550123", body: "Your code is 123456" });
})();
`;

describe("messages without SMTP or an SMS provider", () => {
  it("a deployment logs channel and recipient as JSON, never the subject or text", async () => {
    const result = await run(["-e", SEND], {
      NODE_ENV: "production",
      DATA_DIR: dataDir(),
      SESSION_SECRET: SECRET,
      DEVICE_LOG_KEYS: SITE_KEY,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("Jane");
    expect(result.stdout).not.toContain("123456");
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toContain("are not delivered");
    const records = lines.slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toEqual([
      {
        time: expect.any(String),
        level: "info",
        message: "outbox message not delivered (no transport configured)",
        channel: "email",
        to: "nurse@example.test",
      },
      {
        time: expect.any(String),
        level: "info",
        message: "outbox message not delivered (no transport configured)",
        channel: "sms",
        to: "+15125550123",
      },
    ]);
  });

  it("the demo (and development) print them in full, sign-in codes included", async () => {
    const cases: Record<string, string>[] = [
      { NODE_ENV: "production", DEMO_MODE: "1" },
      { NODE_ENV: "development" },
    ];
    for (const vars of cases) {
      const result = await run(["-e", SEND], { ...vars, DATA_DIR: dataDir() });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("are printed here");
      expect(result.stdout).toContain(
        '[outbox] email to nurse@example.test "ARC Connect notification summary": Patient Jane Doe missed her therapy',
      );
      expect(result.stdout).toContain("[outbox] sms to +15125550123: Your code is 123456");
    }
  });
});
