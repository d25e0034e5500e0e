// The release binary, end to end (npm run build:binary, then
// `npx vitest run --dir tests/binary --config tests/binary/vitest.config.mts`): dist/arc-connect
// copied into an empty folder and run from there with an environment made from scratch, without
// any `node` on its PATH. Its commands, then the portal over real HTTP: sign-in with the code texted
// to a fake SMS provider, a patient profile with its PDF and CSV, a device log decrypted with a key
// of our own, a backup while serving, a restore elsewhere served by a second server, and a clean
// stop of both on SIGTERM. The steps share state and run in order; a step whose predecessor failed
// fails too, saying so.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { parse } from "csv-parse/sync";
import { afterAll, beforeEach, describe, expect, test, vi } from "vitest";
import {
  Client,
  freePort,
  killAll,
  runBinary,
  ServerProcess,
  startSmsProvider,
  testIdText,
  textOf,
  transcriptLength,
  transcriptSince,
  type Env,
} from "./harness";

const ROOT = path.resolve(__dirname, "..", "..");
const DIST_BINARY = path.join(ROOT, "dist", "arc-connect");
const { version: VERSION } = JSON.parse(
  fs.readFileSync(path.join(ROOT, "package.json"), "utf8"),
) as { version: string };
const MIGRATIONS = fs
  .readdirSync(path.join(ROOT, "prisma", "migrations"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

// prisma/seed.ts: the demo clinician (2 care sites) and the demo password.
const CLINICIAN = { login: "demo.clinician", password: "Demo-pass1!", phone: "+15125550104" };
const KEY_ID = "smoke";
const SMS_TOKEN = crypto.randomBytes(24).toString("hex");

const state: {
  dir?: string;
  binary?: string;
  env?: Env;
  keyHex?: string;
  sms?: Awaited<ReturnType<typeof startSmsProvider>>;
  server?: ServerProcess;
  client?: Client;
  profile?: { href: string; query: string; name: string };
  restored?: ServerProcess;
} = {};

function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) {
    throw new Error(`No ${what}: an earlier step failed (see its error above)`);
  }
  return value;
}

const run = (args: string[], extra: Partial<Env> = {}, timeoutMs?: number) =>
  runBinary(need(state.binary, "binary copy"), args, {
    cwd: state.dir!,
    env: { ...need(state.env, "environment"), ...extra } as Env,
    timeoutMs,
  });

function startServer(name: string, port: number, extra: Partial<Env> = {}) {
  return new ServerProcess(
    name,
    need(state.binary, "binary copy"),
    ["serve"],
    {
      cwd: state.dir!,
      env: { ...need(state.env, "environment"), PORT: String(port), ...extra } as Env,
    },
    `http://127.0.0.1:${port}`,
  );
}

/** The first few hundred characters of a response, to say what came back instead. */
async function excerpt(response: Response) {
  const text = await response.text();
  return `${response.status} ${response.headers.get("content-type") ?? ""}: ${textOf(text).slice(0, 400)}`;
}

/**
 * Signs the demo clinician in through the landing page's two forms, as a browser without
 * JavaScript would: username and password, then the 4-digit code the SMS provider received.
 */
async function signIn(origin: string, account: typeof CLINICIAN = CLINICIAN) {
  const sms = need(state.sms, "SMS provider");
  const client = new Client(origin);
  const landing = await client.get("/");
  expect(landing.status, await excerpt(landing.clone())).toBe(200);
  await landing.arrayBuffer();

  const sentBefore = sms.count(account.phone);
  const credentials = await client.post("/?index", {
    intent: "credentials",
    usernameOrEmail: account.login,
    password: account.password,
  });
  expect(credentials.status, await excerpt(credentials.clone())).toBe(302);
  expect(credentials.headers.get("location")).toBe("/");
  const codeStep = await client.follow("/", credentials);
  const codePage = await codeStep.response.text();
  expect(codeStep.response.status).toBe(200);
  expect(textOf(codePage)).toContain("We sent a 4-digit verification code to");

  const message = await sms.next(account.phone, sentBefore);
  const code = /\b(\d{4})\b/.exec(message.body)?.[1];
  expect(code, `a 4-digit code in "${message.body}"`).toMatch(/^\d{4}$/);

  const verified = await client.post("/?index", { intent: "code", code: code! });
  expect(verified.status, await excerpt(verified.clone())).toBe(302);
  expect(verified.headers.get("location")).not.toBe("/");
  const home = await client.follow("/?index", verified);
  expect(home.response.status, await excerpt(home.response.clone())).toBe(200);
  expect(home.path).toMatch(/^\/app/);
  await home.response.arrayBuffer();
  return { client, message };
}

async function openProfile(client: Client, href: string) {
  const response = await client.get(href);
  const html = await response.text();
  expect(response.status, `${href}: ${textOf(html).slice(0, 400)}`).toBe(200);
  return html;
}

let transcriptMark = 0;
beforeEach(({ onTestFailed }) => {
  transcriptMark = transcriptLength();
  onTestFailed(({ task }) => {
    const tail = (text: string) => text.split("\n").slice(-150).join("\n");
    const servers = [state.server, state.restored]
      .filter((s): s is ServerProcess => Boolean(s))
      .map((s) => tail(s.describe()));
    console.error(
      [
        `\n======== arc-connect output, step "${task.name}" ========`,
        transcriptSince(transcriptMark) || "(no command run in this step)",
        ...servers,
        "======== end of arc-connect output ========",
      ].join("\n"),
    );
  });
});

afterAll(async () => {
  killAll();
  await Promise.all([state.server?.exited, state.restored?.exited]);
  await state.sms?.close();
  if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
});

describe("the release binary dist/arc-connect", () => {
  test("1. runs from a copy in an empty folder, with an environment of its own and no node on PATH", async () => {
    if (!fs.existsSync(DIST_BINARY)) {
      throw new Error(`${DIST_BINARY} is missing: run npm run build:binary first`);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arc-binary-smoke-"));
    state.dir = dir;
    expect(fs.readdirSync(dir)).toEqual([]);
    const binary = path.join(dir, "arc-connect");
    fs.copyFileSync(DIST_BINARY, binary);
    fs.chmodSync(binary, 0o755);

    const emptyBin = path.join(dir, "empty-path");
    const home = path.join(dir, "home");
    fs.mkdirSync(emptyBin);
    fs.mkdirSync(home);

    state.keyHex = crypto.randomBytes(32).toString("hex");
    state.sms = await startSmsProvider(SMS_TOKEN);
    const env: Env = {
      PATH: emptyBin,
      HOME: home,
      DATA_DIR: "./data",
      ARC_RUNTIME_DIR: "./runtime",
      SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
      DEVICE_LOG_KEYS: `${KEY_ID}:${state.keyHex}`,
      SMS_PROVIDER_URL: state.sms.url,
      SMS_PROVIDER_TOKEN: SMS_TOKEN,
      COOKIE_SECURE: "0",
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
    };
    // Nothing to run the binary with but the binary itself.
    for (const entry of env.PATH.split(path.delimiter).filter(Boolean)) {
      expect(fs.existsSync(path.join(path.resolve(dir, entry), "node")), `node in ${entry}`).toBe(
        false,
      );
    }
    expect(fs.readdirSync(emptyBin)).toEqual([]);
    expect(Object.keys(env)).not.toContain("NODE_ENV");
    state.env = env;
    state.binary = binary;
  });

  test("2. --version prints package.json's version; --help lists the commands", async () => {
    const version = await run(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);

    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const command of [
      "serve",
      "migrate",
      "backup <file>",
      "restore <file>",
      "seed-demo",
      "device-add",
      "device-list",
      "job <name>",
      "--version",
      "--help",
    ]) {
      expect(help.stdout, `--help names ${command}`).toContain(command);
    }
  });

  test("3. serve refuses to start without SESSION_SECRET and DEVICE_LOG_KEYS, naming both", async () => {
    const { SESSION_SECRET: _secret, DEVICE_LOG_KEYS: _keys, ...rest } = need(state.env, "env");
    const ran = await runBinary(need(state.binary, "binary copy"), ["serve"], {
      cwd: state.dir!,
      // A folder of its own: a server that wrongly started would have migrated ./data.
      env: { ...rest, DATA_DIR: "./data-unconfigured", PORT: String(await freePort()) },
      timeoutMs: 15_000,
    });
    expect(
      ran.timedOut,
      "serve kept running without SESSION_SECRET and DEVICE_LOG_KEYS (killed after 15 s)",
    ).toBe(false);
    expect(ran.code).toBe(1);
    expect(ran.output).toContain("SESSION_SECRET");
    expect(ran.output).toContain("DEVICE_LOG_KEYS");
  });

  test("4. migrate applies every migration, then has nothing pending; seed-demo loads the demo world", async () => {
    const first = await run(["migrate"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Applied to /);
    for (const migration of MIGRATIONS) {
      expect(
        first.stdout,
        `migrate names ${migration} (is dist/arc-connect older than prisma/migrations? npm run build:binary)`,
      ).toContain(migration);
    }
    expect(fs.existsSync(path.join(state.dir!, "data", "arc.db"))).toBe(true);

    const second = await run(["migrate"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/no pending migrations/i);

    const seed = await run(["seed-demo"], {}, 110_000);
    expect(seed.code).toBe(0);
  });

  test("5. serve starts and becomes ready", async () => {
    state.server = startServer("server (./data)", Number(need(state.env, "env").PORT));
    const readiness = await state.server.waitReady();
    expect(readiness).toMatchObject({ status: "ready", version: VERSION });
    const health = await fetch(`${state.server.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", version: VERSION });
  });

  test("5b. serve's stdout is JSON lines, with a line per request holding its path without the query string", async () => {
    const server = need(state.server, "server");
    const client = new Client(server.origin);
    const answers = [
      await client.get("/?smoke=query-text-not-for-the-log"),
      await client.get("/forgotpassword?who=query-text-not-for-the-log"),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    // A line is written when its response has gone out: wait for both.
    await vi.waitFor(
      () => {
        for (const p of ['"path":"/"', '"path":"/forgotpassword"']) {
          expect(server.stdout).toContain(p);
        }
      },
      { timeout: 5_000, interval: 50 },
    );

    const lines = server.stdout.split("\n").filter((line) => line.trim());
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson, "stdout lines of serve that are not JSON").toEqual([]);
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => typeof entry.path === "string");
    expect(requests.map((r) => r.path)).toEqual(expect.arrayContaining(["/", "/forgotpassword"]));
    for (const entry of requests) expect(String(entry.path)).not.toContain("?");
    expect(server.stdout).not.toContain("query-text-not-for-the-log");
  });

  test("6. the demo clinician signs in with the code texted to +1 512 555 0104", async () => {
    const server = need(state.server, "server");
    const { client, message } = await signIn(server.origin);
    state.client = client;
    const sms = need(state.sms, "SMS provider");
    expect(sms.refused, "requests the SMS provider refused").toEqual([]);
    // A deployment never logs the text of a message: the code stays between phone and portal.
    expect(server.output).not.toContain(message.body);
  });

  test("6b. superadmin-add makes a new installation's first account, which signs in", async () => {
    const server = need(state.server, "server");
    const ran = await run([
      "superadmin-add",
      "--username",
      "first.admin",
      "--email",
      "first.admin@hospital.example",
      "--phone",
      "+1 512 555 0177",
      "--first-name",
      "First",
      "--last-name",
      "Admin",
    ]);
    expect(ran.code, ran.output).toBe(0);
    const password = ran.stdout.trim().split("\n").at(-1)!;
    expect(password).toMatch(/^\S{20,}$/);
    const again = await run([
      "superadmin-add",
      "--username",
      "first.admin",
      "--email",
      "x@hospital.example",
      "--phone",
      "+15125550178",
      "--first-name",
      "X",
      "--last-name",
      "Y",
    ]);
    expect(again.code).toBe(1);
    expect(again.output).toContain("username: already taken");
    const { client } = await signIn(server.origin, {
      login: "first.admin",
      password,
      phone: "+15125550177",
    });
    const home = await client.get("/app");
    expect(home.status).toBe(200);
    expect(textOf(await home.text())).toContain("First Admin");
  });

  test("7. the clinician opens a patient profile from the patients list", async () => {
    const client = need(state.client, "signed-in client");
    const list = await client.get("/app?list=total");
    const html = await list.text();
    expect(list.status, textOf(html).slice(0, 400)).toBe(200);

    // Each row is one link to the profile (stretched over the row), named "{first} {last}".
    const links = [...html.matchAll(/<a\b[^>]*href="(\/app\/PatientProfile\?p=[^"]+)"[^>]*>/g)].map(
      (m) => ({
        href: m[1].replace(/&amp;/g, "&"),
        name: textOf(m[0].match(/aria-label="([^"]+)"/)?.[1] ?? ""),
      }),
    );
    expect(
      links.length,
      `profile links in the Total list: ${textOf(html).slice(0, 600)}`,
    ).toBeGreaterThan(0);
    const { href, name = "" } = links[0];
    expect(name, "the row link's name").toMatch(/\S+ \S+/);

    const profile = await openProfile(client, href);
    expect(testIdText(profile, "patient-name")).toBe(name);
    expect(textOf(profile)).toContain(name);
    state.profile = { href, query: href.slice(href.indexOf("?") + 1), name };
  });

  test("8. the profile's PDF and CSV download", async () => {
    const client = need(state.client, "signed-in client");
    const { query, name } = need(state.profile, "patient profile");

    const pdf = await client.get(`/app/PatientProfile/pdf?${query}`);
    expect(pdf.status, pdf.status === 200 ? "" : await excerpt(pdf.clone())).toBe(200);
    expect(pdf.headers.get("content-type")).toMatch(/^application\/pdf/);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("%PDF");
    expect(bytes.length).toBeGreaterThan(1000);

    const csv = await client.get(`/app/PatientProfile/csv?${query}&range=month`);
    expect(csv.status, csv.status === 200 ? "" : await excerpt(csv.clone())).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const rows = parse(await csv.text(), {
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
    }) as string[][];
    // Four lines stating the report, then the table (domain/reports/transmissionsCsv.ts).
    expect(rows[0]).toEqual(["Transmissions of", name]);
    const header = rows.findIndex((row) => row[0] === "Received");
    expect(header, `a header row in ${JSON.stringify(rows.slice(0, 6))}`).toBeGreaterThan(0);
    expect(rows[header]).toEqual(expect.arrayContaining(["Sent", "Device serial", "Therapies"]));
    const data = rows.slice(header + 1);
    expect(data.length, "transmissions in the last month").toBeGreaterThan(0);
    for (const row of data) expect(row).toHaveLength(rows[header].length);
  });

  test("9. a device log encrypted with our own key decrypts and opens as a therapy dashboard", async () => {
    const client = need(state.client, "signed-in client");
    const keyHex = need(state.keyHex, "log key");
    const serial = `SMK${crypto.randomInt(100_000, 999_999)}`;
    const outDir = fs.mkdtempSync(path.join(state.dir!, "logs-"));
    // The test's own node makes the file; only the binary has to do without one.
    const made = await promisify(execFile)(
      "npx",
      [
        "tsx",
        "scripts/make-device-log.ts",
        ...["--type", "cough", "--device", serial, "--key-id", KEY_ID, "--key-hex", keyHex],
        ...["--therapies-per-day", "2", "--seed", "7", "--out-dir", outDir],
      ],
      { cwd: ROOT },
    );
    const file = made.stdout.trim().split("\n").pop()!;
    expect(fs.existsSync(file), `make-device-log wrote ${file}`).toBe(true);
    const fileName = path.basename(file);
    const therapies = 14 * 2; // the two weeks up to yesterday, two a day

    const form = new FormData();
    form.append("uploaded-csv", new Blob([fs.readFileSync(file)]), fileName);
    const upload = await client.postMultipart("/decrypt/upload?back=%2Fdecrypt", form);
    expect(upload.status, await excerpt(upload.clone())).toBe(302);
    const location = upload.headers.get("location") ?? "";
    const target = new URL(location, client.origin);
    expect(target.pathname).toBe("/decrypt");
    expect(target.searchParams.get("error"), `upload refused: ${location}`).toBeNull();
    expect(target.searchParams.get("log")).toMatch(/^[0-9a-f-]{36}$/);

    const dialog = await client.get(target.pathname + target.search);
    const dialogHtml = await dialog.text();
    expect(dialog.status, textOf(dialogHtml).slice(0, 400)).toBe(200);
    const result = testIdText(dialogHtml, "decrypt-result") ?? "";
    expect(result, "the dialog's result view").toContain(fileName);
    expect(result).toContain(serial);

    const dashboardHref = /href="(\/decrypt\?[^"]*uuid=[^"]*)"/.exec(dialogHtml)?.[1];
    expect(dashboardHref, "the Generate Pdf / Dashboard link").toBeTruthy();
    const dashboard = await client.get(dashboardHref!.replace(/&amp;/g, "&"));
    const dashboardHtml = await dashboard.text();
    const text = textOf(dashboardHtml);
    expect(dashboard.status, text.slice(0, 400)).toBe(200);
    expect(text).toContain(`${serial} Therapy Dashboard`);
    // The therapy table counts every therapy of the decrypted log.
    expect(text).toMatch(new RegExp(`Page 1 of \\d+ \\(${therapies}\\)`));
  });

  test("10. backup while serving, with requests in flight, writes an intact copy", async () => {
    const server = need(state.server, "server");
    const client = need(state.client, "signed-in client");
    const { href } = need(state.profile, "patient profile");

    let backingUp = true;
    const statuses: number[] = [];
    let firstAnswered!: () => void;
    const firstBatch = new Promise<void>((resolve) => (firstAnswered = resolve));
    const load = (async () => {
      do {
        const batch = await Promise.all(
          ["/app?list=total", href, "/app", href].map(async (p) => {
            const response = await client.get(p);
            await response.arrayBuffer();
            return response.status;
          }),
        );
        statuses.push(...batch);
        firstAnswered();
      } while (backingUp);
    })();
    await Promise.race([firstBatch, load]); // under way: the next batches go out during the backup
    const backup = await run(["backup", "./backups/arc.db"]).finally(() => (backingUp = false));
    await load;

    expect(backup.code).toBe(0);
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(
      statuses.filter((s) => s !== 200),
      "requests during the backup that failed",
    ).toEqual([]);
    expect(server.running).toBe(true);

    const file = path.join(state.dir!, "backups", "arc.db");
    expect(fs.existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma("quick_check", { simple: true })).toBe("ok");
      const users = db.prepare(`SELECT COUNT(*) AS n FROM "User"`).get() as { n: number };
      expect(users.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  test("11. restore into the served data folder is refused", async () => {
    need(state.server, "server");
    const refused = await run(["restore", "./backups/arc.db"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/a server is using/i);
    expect(fs.existsSync(path.join(state.dir!, "data", "arc.db"))).toBe(true);
  });

  test("11b. restore elsewhere, served by a second server: sign in and the same profile", async () => {
    const { href, name } = need(state.profile, "patient profile");
    const restore = await run(["restore", "./backups/arc.db"], { DATA_DIR: "./restored" });
    expect(restore.code).toBe(0);
    expect(fs.existsSync(path.join(state.dir!, "restored", "arc.db"))).toBe(true);

    state.restored = startServer("second server (./restored)", await freePort(), {
      DATA_DIR: "./restored",
    });
    expect(await state.restored.waitReady()).toMatchObject({ status: "ready" });
    const { client } = await signIn(state.restored.origin);
    const profile = await openProfile(client, href);
    expect(testIdText(profile, "patient-name")).toBe(name);
  });

  test("12. SIGTERM stops both servers cleanly within 20 s", async () => {
    const servers = [need(state.server, "server"), need(state.restored, "second server")];
    const outcomes = await Promise.all(servers.map((s) => s.stop("SIGTERM", 20_000)));
    for (const [i, outcome] of outcomes.entries()) {
      expect(outcome, `${servers[i].name} still running 20 s after SIGTERM`).not.toBeNull();
      expect(outcome, `${servers[i].name}'s exit`).toMatchObject({ code: 0, signal: null });
    }
  });
});
