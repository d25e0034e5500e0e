// Malformed posts to every route that has an action, signed out and as each staff role (issue 18
// item 7): wrong content types, broken encodings, huge and duplicate fields, prototype keys,
// missing and unknown intents, wrong methods, cross-origin posts. None may answer 5xx or show a
// stack trace.
//
// It runs against its own server (the production build on a copy of the e2e database, its own port
// and data directory): a thousand posts from 127.0.0.1 would otherwise count against the
// per-address limits (sign-in, reset, registration, decrypt uploads) of the specs running beside
// it, and the wrong passwords it sends could lock the demo accounts they use.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR, serverEnv, TEST_SESSION_SECRET } from "./support/env";

const ROOT = path.resolve(__dirname, "..", "..");
const DATA_DIR = path.resolve(ROOT, "tests", ".tmp", `fuzz-${process.env.E2E_PORT ?? "default"}`);
const DEMO = {
  superadmin: "demo.superadmin",
  abmadmin: "demo.abmadmin",
  clinicadmin: "demo.siteadmin",
  clinician: "demo.clinician",
} as const;
type Identity = "anonymous" | keyof typeof DEMO;
const IDENTITIES: Identity[] = ["anonymous", ...(Object.keys(DEMO) as (keyof typeof DEMO)[])];

// ---------------------------------------------------------------------------------------------
// The routes: every route module that exports an action, read from app/routes (not a hand list).
// ---------------------------------------------------------------------------------------------

type ActionRoute = { file: string; path: string };

/** Remix v2 flat-route file name to a URL path ($param: filled by `param`). */
function urlPathOf(file: string, param: (name: string) => string) {
  const segments = file.replace(/\.tsx?$/, "").split(".");
  const parts: string[] = [];
  let index = false;
  for (const segment of segments) {
    if (segment === "_index") index = true;
    else if (segment.startsWith("$")) parts.push(encodeURIComponent(param(segment.slice(1))));
    else if (segment.startsWith("_"))
      continue; // pathless layout
    else parts.push(segment);
  }
  const pathname = `/${parts.join("/")}`;
  // A post to an index route needs ?index, or it goes to the parent route (which has no action).
  return index ? `${pathname}?index` : pathname;
}

function routesWithActions(param: (name: string) => string): ActionRoute[] {
  const dir = path.join(ROOT, "app", "routes");
  return fs
    .readdirSync(dir)
    .filter((file) => /\.tsx?$/.test(file))
    .filter((file) =>
      /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b/.test(
        fs.readFileSync(path.join(dir, file), "utf8"),
      ),
    )
    .sort()
    .map((file) => ({ file, path: urlPathOf(file, param) }));
}

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

type Case = {
  name: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** a status the answer must have (besides "not 5xx") */
  expect?: number;
  /** sends the body in pieces, without Content-Length */
  chunked?: boolean;
  /** declares more bytes than it sends, then ends the request (a cut-off upload) */
  truncated?: boolean;
};

const FORM = "application/x-www-form-urlencoded";
const form = (text: string) => Buffer.from(text, "latin1");
const ONE_MB = 1024 * 1024;

function multipart(
  boundary: string,
  parts: { name: string; value: string | Buffer; file?: string }[],
) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.file
      ? `form-data; name="${part.name}"; filename="${part.file}"`
      : `form-data; name="${part.name}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
          (part.file ? "Content-Type: application/octet-stream\r\n" : "") +
          "\r\n",
      ),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const CASES: Case[] = [
  // Content types
  { name: "no content type, empty body", headers: {}, body: Buffer.alloc(0) },
  { name: "no content type, form text", headers: {}, body: form("intent=next&a=1") },
  { name: "text/plain", headers: { "Content-Type": "text/plain" }, body: form("intent=next") },
  {
    name: "json (valid)",
    headers: { "Content-Type": "application/json" },
    body: Buffer.from(
      JSON.stringify({ intent: "credentials", usernameOrEmail: "x", password: "y" }),
    ),
  },
  {
    name: "json (broken)",
    headers: { "Content-Type": "application/json" },
    body: Buffer.from('{"intent": "credentials", '),
  },
  {
    name: "json as a form",
    headers: { "Content-Type": FORM },
    body: Buffer.from('{"intent":"profile"}'),
  },

  {
    name: "content type garbage",
    headers: { "Content-Type": ";;;===\u00ff" },
    body: form("intent=next"),
  },
  // Encodings
  {
    name: "form, invalid UTF-8 bytes",
    headers: { "Content-Type": FORM },
    body: Buffer.concat([
      form("intent="),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
      form("&usernameOrEmail=\u00ff"),
    ]),
  },
  {
    name: "form, invalid UTF-8 percent-encoded",
    headers: { "Content-Type": FORM },
    body: form("intent=%FF%FE%C3%28&email=%ED%A0%80%40a.com&password=%C0%AF"),
  },
  {
    name: "form, broken percent-encoding",
    headers: { "Content-Type": FORM },
    body: form("intent=%E0%A4%A&%%%=%&email=%zz%&panel=%"),
  },
  {
    name: "form, latin-1 charset",
    headers: { "Content-Type": `${FORM}; charset=iso-8859-1` },
    body: form("intent=profile&firstName=J\u00f6rg"),
  },
  {
    name: "form, NUL and control characters",
    headers: { "Content-Type": FORM },
    body: form("intent=%00&usernameOrEmail=a%00b&message=%1B%5B31m&panel=%0D%0A"),
  },

  {
    name: "chunked form",
    headers: { "Content-Type": FORM },
    body: form("intent=x&a=b"),
    chunked: true,
  },
  // Huge and duplicate fields
  {
    name: "form, 1 MB field",
    headers: { "Content-Type": FORM },
    body: form(`intent=next&usernameOrEmail=${"a".repeat(ONE_MB)}`),
  },
  {
    name: "form, 2 MB body",
    headers: { "Content-Type": FORM },
    body: form(`message=${"b".repeat(2 * ONE_MB)}`),
  },
  {
    name: "form, 10k duplicate fields",
    headers: { "Content-Type": FORM },
    body: form(Array.from({ length: 10_000 }, (_, i) => `intent=i${i}&ids=${i}`).join("&")),
  },

  // Prototype keys
  {
    name: "form, __proto__ keys",
    headers: { "Content-Type": FORM },
    body: form("__proto__=x&__proto__[admin]=1&intent=__proto__&panel=__proto__&role=constructor"),
  },
  {
    name: "form, constructor[prototype] keys",
    headers: { "Content-Type": FORM },
    body: form(
      "constructor[prototype][isAdmin]=1&constructor.prototype.role=superadmin&toString=1&valueOf=2&hasOwnProperty=3&intent=toString",
    ),
  },
  // Intents
  { name: "form, no intent", headers: { "Content-Type": FORM }, body: form("foo=bar") },
  {
    name: "form, unknown intent",
    headers: { "Content-Type": FORM },
    body: form("intent=definitely-not-an-intent&panel=nope&dialog=x"),
  },
  { name: "form, empty body", headers: { "Content-Type": FORM }, body: Buffer.alloc(0) },
  // Multipart
  {
    name: "multipart, no boundary",
    headers: { "Content-Type": "multipart/form-data" },
    body: multipart("xyz", [{ name: "intent", value: "next" }]),
  },
  {
    name: "multipart, wrong boundary",
    headers: { "Content-Type": "multipart/form-data; boundary=aaaa" },
    body: multipart("bbbb", [{ name: "intent", value: "next" }]),
  },
  {
    name: "multipart, broken boundary syntax",
    headers: { "Content-Type": 'multipart/form-data; boundary="unterminated' },
    body: multipart("unterminated", [{ name: "intent", value: "next" }]),
  },
  {
    name: "multipart, truncated body",
    headers: { "Content-Type": "multipart/form-data; boundary=cut" },
    body: multipart("cut", [
      { name: "intent", value: "profile" },
      { name: "photo", value: crypto.randomBytes(2048), file: "a.png" },
    ]).subarray(0, 300),
  },
  {
    name: "multipart, cut off mid-request",
    headers: { "Content-Type": "multipart/form-data; boundary=cut" },
    body: multipart("cut", [
      { name: "intent", value: "x" },
      { name: "file", value: crypto.randomBytes(4096), file: "a.bin" },
    ]),
    truncated: true,
  },
  {
    name: "multipart, well formed, unknown intent and prototype names",
    headers: { "Content-Type": "multipart/form-data; boundary=ok" },
    body: multipart("ok", [
      { name: "intent", value: "nope" },
      { name: "__proto__", value: "x" },
      { name: "constructor[prototype][a]", value: "1" },
      { name: "photo", value: Buffer.alloc(0), file: "" },
    ]),
  },

  {
    name: "multipart, huge part",
    headers: { "Content-Type": "multipart/form-data; boundary=big" },
    body: multipart("big", [
      { name: "intent", value: "upload" },
      { name: "photo", value: Buffer.alloc(6 * ONE_MB, 1), file: "big.png" },
      { name: "picture", value: "x" },
    ]),
  },
  // Wrong methods
  {
    name: "PUT",
    method: "PUT",
    headers: { "Content-Type": FORM },
    body: form("intent=x"),
    expect: 405,
  },
  { name: "DELETE", method: "DELETE", headers: {}, body: Buffer.alloc(0), expect: 405 },
  {
    name: "PATCH",
    method: "PATCH",
    headers: { "Content-Type": FORM },
    body: form("intent=x"),
    expect: 405,
  },
  { name: "OPTIONS", method: "OPTIONS", headers: {}, body: Buffer.alloc(0) },
  // Cross-origin
  {
    name: "cross-origin form post",
    headers: { "Content-Type": FORM, Origin: "https://evil.example" },
    body: form("intent=next"),
    expect: 403,
  },
  {
    name: "cross-origin, Origin null",
    headers: { "Content-Type": FORM, Origin: "null" },
    body: form("intent=next"),
    expect: 403,
  },
  {
    name: "cross-origin, Origin not a URL",
    headers: { "Content-Type": FORM, Origin: "not a url" },
    body: form("intent=next"),
    expect: 403,
  },
  {
    name: "cross-origin with a forged X-Forwarded-Host",
    headers: {
      "Content-Type": FORM,
      Origin: "https://evil.example",
      "X-Forwarded-Host": "evil.example",
    },
    body: form("intent=next"),
    expect: 403,
  },
  {
    // Without TRUST_PROXY the door drops a client's X-Forwarded-Host, so this is a same-origin
    // post: Remix's own Origin check, which compares against that header, must not throw.
    name: "same Origin, a client's X-Forwarded-Host (dropped by the door)",
    headers: { "Content-Type": FORM, Origin: "SELF", "X-Forwarded-Host": "evil.example" },
    body: form("intent=next"),
  },
  {
    name: "cross-site fetch metadata",
    headers: { "Content-Type": FORM, "Sec-Fetch-Site": "cross-site" },
    body: form("intent=next"),
    expect: 403,
  },
];

// ---------------------------------------------------------------------------------------------
// The server, the identities, and a raw HTTP client (every byte and header as given)
// ---------------------------------------------------------------------------------------------

let server: ChildProcess | null = null;
let serverOutput = "";
let port = 0;

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sessionCookie = createCookie("__arc_session", { secrets: [TEST_SESSION_SECRET] });

async function sessionFor(database: Database.Database, userId: string) {
  const id = crypto.randomBytes(32).toString("base64url");
  const now = Date.now();
  database
    .prepare(
      `INSERT INTO "Session" (id, userId, data, createdAt, authenticatedAt, lastSeenAt, expiresAt)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      userId,
      JSON.stringify({ userId, authenticatedAt: now }),
      now,
      now,
      now,
      now + 3_600_000,
    );
  return (await sessionCookie.serialize(id)).split(";")[0];
}

type Answer = { status: number; body: string; closedEarly?: boolean };

const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });

function send(target: string, c: Case, cookie: string | null): Promise<Answer> {
  const body = c.body ?? Buffer.alloc(0);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers ?? {})) {
    headers[name] = value === "SELF" ? `http://localhost:${port}` : value;
  }
  if (cookie) headers.Cookie = cookie;
  if (!c.chunked) headers["Content-Length"] = String(c.truncated ? body.length * 2 : body.length);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "localhost",
        port,
        path: target,
        method: c.method ?? "POST",
        headers,
        agent: c.truncated ? false : agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", (error) =>
          resolve({ status: 0, body: `answer cut off: ${error.message}` }),
        );
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A cut-off request may see its connection closed by the server: no answer is no 5xx.
      // So may a large body the server refuses unread (401, 413: closeWhenBodyUnread answers and
      // closes), when the close reaches the client while it is still writing.
      const refusedUnread =
        body.length > 64 * 1024 && (error.code === "EPIPE" || error.code === "ECONNRESET");
      // Otherwise a connection closed without an answer is reported as status 0.
      resolve({
        status: 0,
        body: c.truncated || refusedUnread ? "" : `no answer: ${error.message}`,
        closedEarly: c.truncated || refusedUnread,
      });
    });
    // An answer that never comes fails the case, not the whole run by its time-out.
    req.setTimeout(15_000, () => req.destroy(new Error("no answer within 15 s")));
    if (c.chunked) {
      req.write(body.subarray(0, 3));
      req.end(body.subarray(3));
    } else if (c.truncated) {
      // Half the declared bytes, then the client goes away.
      req.write(body, () => req.destroy());
    } else {
      req.end(body);
    }
  });
}

// A stack trace or an error's own text in a body: "    at fn (file:1:2)", "TypeError: ...".
const STACK_TEXT = [
  /^\s*at .+:\d+:\d+\)?\s*$/m,
  /\bat [\w$.<>]+ \(.*:\d+:\d+\)/,
  /\b(TypeError|ReferenceError|SyntaxError|RangeError|Error): [^<\n]*\n\s+at /,
  /node_modules\//,
  /\/build\/(index|server)\.js/,
];

// ---------------------------------------------------------------------------------------------

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(60_000);
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(DATA_DIR, { recursive: true });
  // A consistent copy of the e2e database (seeded with the demo world by the config's webServer),
  // taken through SQLite's backup API while that server runs.
  const source = new Database(path.join(E2E_DATA_DIR, "arc.db"), { readonly: true });
  await source.backup(path.join(DATA_DIR, "arc.db"));
  source.close();

  port = await freePort();
  server = spawn(process.execPath, ["build/server.js"], {
    cwd: ROOT,
    env: serverEnv(DATA_DIR, port) as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (serverOutput += d));
  server.stderr!.on("data", (d) => (serverOutput += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${serverOutput}`)),
      30_000,
    );
    server!.once("exit", (code) => reject(new Error(`server exited (${code}):\n${serverOutput}`)));
    server!.stdout!.on("data", () => {
      if (serverOutput.includes("is ready at")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
});

test.afterAll(async () => {
  agent.destroy();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
});

test("malformed posts to every action: never a 5xx, never a stack trace", async () => {
  test.setTimeout(180_000);
  const database = new Database(path.join(DATA_DIR, "arc.db"));
  database.pragma("busy_timeout = 5000");
  const userId = (username: string) =>
    (database.prepare(`SELECT id FROM "User" WHERE username = ?`).get(username) as { id: string })
      .id;
  const careSiteId = (
    database
      .prepare(`SELECT id FROM "CareSite" WHERE id LIKE 'seed-site-%' ORDER BY name LIMIT 1`)
      .get() as {
      id: string;
    }
  ).id;
  const patientId = (
    database
      .prepare(
        `SELECT userId FROM "Membership" WHERE careSiteId = ? AND role = 'patient' AND status = 'accepted' ORDER BY userId LIMIT 1`,
      )
      .get(careSiteId) as { userId: string }
  ).userId;

  const identities: { identity: Identity; cookie: string | null; dialogId: string }[] = [];
  for (const identity of IDENTITIES) {
    if (identity === "anonymous") {
      identities.push({ identity, cookie: null, dialogId: "no-such-dialog" });
      continue;
    }
    const id = userId(DEMO[identity]);
    const dialog = database
      .prepare(`SELECT dialogId FROM "ChatParticipant" WHERE userId = ? LIMIT 1`)
      .get(id) as { dialogId: string } | undefined;
    identities.push({
      identity,
      cookie: await sessionFor(database, id),
      dialogId: dialog?.dialogId ?? "no-such-dialog",
    });
  }
  database.close();

  // Query strings that take a post past its route's "which record" guard to the body reading.
  const patientParam = encodeURIComponent(
    Buffer.from(
      JSON.stringify({ profile_id: patientId, clinic_id: careSiteId, pair_id: null }),
    ).toString("base64"),
  );
  const QUERY: Record<string, string> = {
    "app.PatientProfile.tsx": `p=${patientParam}`,
    "app.clinicprofiledetails.tsx": `c_id=${careSiteId}`,
    "signup.tsx": "param1=not-a-token",
    "acceptinvite.tsx": "param1=not-a-token",
  };

  const failures: string[] = [];
  const counts = new Map<number, number>();
  let requests = 0;
  const routesSeen = new Set<string>();

  // Who sends what. Every (route, case) pair is sent at least once, every identity posts to every
  // route, and every case is sent signed out and as each role somewhere; the full cross product
  // (27 routes x 38 cases x 5 identities, over 5,000 posts) would take minutes on a busy machine for little more:
  // the body is read the same way whoever sends it.
  //  - signed-in area (/app...): each case as one staff role, by turns; signed out (a redirect to
  //    the sign-in page before anything is read) one case in eight, by turns;
  //  - public routes: each case signed out, and every other case as one staff role, by turns.
  const staff = identities.filter((identity) => identity.cookie !== null);
  const anonymous = identities.find((identity) => identity.cookie === null)!;
  type Job = { target: string; route: string; identity: Identity; c: Case; cookie: string | null };
  const jobs: Job[] = [];
  const logouts: Job[] = [];
  const add = (identity: (typeof identities)[number], route: ActionRoute, c: Case) => {
    const query = QUERY[route.file];
    const target = query
      ? `${route.path}${route.path.includes("?") ? "&" : "?"}${query}`
      : route.path;
    const job = {
      target,
      route: route.file,
      identity: identity.identity,
      c,
      cookie: identity.cookie,
    };
    // /logout ends the session the rest of the corpus signs in with: those posts go last.
    (route.file === "logout.tsx" ? logouts : jobs).push(job);
    routesSeen.add(route.file);
  };
  const routesOf = (identity: (typeof identities)[number]) =>
    routesWithActions((name) => (name === "dialogId" ? identity.dialogId : `fuzz-${name}`));
  routesOf(anonymous).forEach((route, r) => {
    const signedInArea = route.path.startsWith("/app");
    CASES.forEach((c, i) => {
      const role = staff[(r + i) % staff.length];
      if (signedInArea) {
        add(role, routesOf(role)[r], c);
        if (i % 8 === r % 8) add(anonymous, route, c);
      } else {
        add(anonymous, route, c);
        if (i % 2 === r % 2) add(role, routesOf(role)[r], c);
      }
    });
  });

  const run = async (job: Job) => {
    const answer = await send(job.target, job.c, job.cookie);
    requests += 1;
    counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
    const where = `${job.route} as ${job.identity}, "${job.c.name}"`;
    if (answer.status === 0 && !answer.closedEarly) failures.push(`${where}: ${answer.body}`);
    if (answer.status >= 500) failures.push(`${where}: ${answer.status}`);
    else if (
      job.c.expect &&
      answer.status !== job.c.expect &&
      !(answer.closedEarly && answer.status === 0)
    )
      failures.push(`${where}: ${answer.status}, expected ${job.c.expect}`);
    if (STACK_TEXT.some((pattern) => pattern.test(answer.body)))
      failures.push(`${where}: ${answer.status} with stack text: ${answer.body.slice(0, 300)}`);
  };
  // Six at a time (the server is one process; more only queues).
  const pool = async (list: Job[]) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < list.length) await run(list[next++]);
      }),
    );
  };
  const started = Date.now();
  await pool(jobs);
  await pool(logouts);

  console.log(
    `fuzz: ${requests} requests to ${routesSeen.size} routes in ${Date.now() - started} ms; ` +
      `statuses ${JSON.stringify(Object.fromEntries(counts))}`,
  );
  expect(routesSeen.size, "routes with an action found in app/routes").toBeGreaterThanOrEqual(20);
  expect(requests).toBeGreaterThanOrEqual(1_000);
  expect(failures, failures.join("\n")).toEqual([]);
});
