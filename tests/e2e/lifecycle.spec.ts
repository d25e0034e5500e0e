// The process around the app: SIGTERM finishes the request in flight, a restart keeps the data
// (sessions included, with the secret the server made itself on first start).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { serverEnv } from "./support/env";

const PORT = 3220;
const DATA_DIR = path.resolve(__dirname, "..", ".tmp", "lifecycle");

function start(): Promise<{ child: ChildProcess; output: () => string }> {
  const env = serverEnv(DATA_DIR, PORT);
  // A local demo (DEMO_MODE, as `npm start`): the server makes and keeps its own session secret.
  delete env.SESSION_SECRET;
  env.DEMO_MODE = "1";
  const child = spawn(process.execPath, ["build/server.js"], {
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    child.stdout!.on("data", () => {
      if (output.includes("is ready at")) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    });
  });
}

function exited(child: ChildProcess) {
  return new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
}

test.describe.configure({ mode: "serial" });

test("SIGTERM lets the request in flight finish, then the process exits cleanly", async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const { child, output } = await start();
  const exit = exited(child);

  // A sign-in post whose body arrives slowly: SIGTERM lands while it is in flight.
  const body = "intent=credentials&usernameOrEmail=nobody.here&password=Wrong-pass1%21";
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        method: "POST",
        path: "/?index",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, 10));
    setTimeout(() => child.kill("SIGTERM"), 300);
    setTimeout(() => req.end(body.slice(10)), 1_000);
  });

  const answer = await response;
  expect(answer.status).toBe(400);
  expect(answer.text).toContain(
    "Incorrect email or password. Please check your login and try again.",
  );
  expect(await exit).toBe(0);
  expect(output()).toContain("Stopped cleanly.");
});

test("a restart keeps users, sessions and the session secret", async () => {
  const first = await start();
  const secret = fs.readFileSync(path.join(DATA_DIR, "session-secret"), "utf8").trim();
  const database = new Database(path.join(DATA_DIR, "arc.db"));
  const now = Date.now();
  database
    .prepare(
      `INSERT INTO "User" (id, username, email, phone, passwordHash, role, status, firstName, lastName, measuringUnit, country, createdAt, updatedAt)
       VALUES ('restart-user', 'restart.user', 'restart@example.test', '15125550199', 'x', 'abmadmin', 'active', 'Rita', 'Restart', 'Imperial', 'United States', ?, ?)`,
    )
    .run(now, now);
  database
    .prepare(
      `INSERT INTO "Session" (id, userId, data, createdAt, authenticatedAt, lastSeenAt, expiresAt)
       VALUES ('restart-session', 'restart-user', '{"userId":"restart-user"}', ?, ?, ?, ?)`,
    )
    .run(now, now, now, now + 3_600_000);
  database.close();
  const cookie = (
    await createCookie("__arc_session", { secrets: [secret] }).serialize("restart-session")
  ).split(";")[0];

  const before = await fetch(`http://127.0.0.1:${PORT}/app`, {
    headers: { Cookie: cookie },
    redirect: "manual",
  });
  expect(before.status).toBe(200);

  first.child.kill("SIGTERM");
  expect(await exited(first.child)).toBe(0);
  const second = await start();
  try {
    const after = await fetch(`http://127.0.0.1:${PORT}/app`, {
      headers: { Cookie: cookie },
      redirect: "manual",
    });
    expect(after.status).toBe(200);
    expect(await after.text()).toContain("Rita");
  } finally {
    second.child.kill("SIGTERM");
    await exited(second.child);
  }
});

test("an open chat stream does not hold up a shutdown; after the restart the page reconnects and catches up", async ({
  browser,
}) => {
  const first = await start();
  const secret = fs.readFileSync(path.join(DATA_DIR, "session-secret"), "utf8").trim();
  const database = new Database(path.join(DATA_DIR, "arc.db"));
  const now = Date.now();
  const user = database.prepare(
    `INSERT INTO "User" (id, username, email, phone, passwordHash, role, status, firstName, lastName, measuringUnit, country, createdAt, updatedAt)
     VALUES (?, ?, ?, '15125550100', 'x', ?, 'active', ?, 'Stream', 'Imperial', 'United States', ?, ?)`,
  );
  user.run("stream-a", "stream.a", "stream.a@example.test", "abmadmin", "Ada", now, now);
  user.run("stream-b", "stream.b", "stream.b@example.test", "superadmin", "Bo", now, now);
  database
    .prepare(
      `INSERT INTO "Session" (id, userId, data, createdAt, authenticatedAt, lastSeenAt, expiresAt)
       VALUES ('stream-session', 'stream-a', '{"userId":"stream-a"}', ?, ?, ?, ?)`,
    )
    .run(now, now, now, now + 3_600_000);
  database
    .prepare(`INSERT INTO "ChatDialog" (id, type, createdAt) VALUES ('stream-dialog', 3, ?)`)
    .run(now);
  for (const userId of ["stream-a", "stream-b"]) {
    database
      .prepare(
        `INSERT INTO "ChatParticipant" (dialogId, userId, joinedAt) VALUES ('stream-dialog', ?, ?)`,
      )
      .run(userId, now);
  }
  const value = (
    await createCookie("__arc_session", { secrets: [secret] }).serialize("stream-session")
  )
    .split(";")[0]
    .slice("__arc_session=".length);

  const context = await browser.newContext({ javaScriptEnabled: true });
  await context.addCookies([{ name: "__arc_session", value, url: `http://127.0.0.1:${PORT}` }]);
  const page = await context.newPage();
  let stopped = false;
  try {
    await page.goto(`http://127.0.0.1:${PORT}/app/chat/stream-dialog`);
    const html = page.locator("html");
    await expect(html).toHaveAttribute("data-chat-stream", "open");

    const stopping = Date.now();
    first.child.kill("SIGTERM");
    stopped = true;
    expect(await exited(first.child)).toBe(0);
    expect(first.output()).toContain("Stopped cleanly.");
    expect(Date.now() - stopping).toBeLessThan(10_000);
    await expect(html).toHaveAttribute("data-chat-stream", "reconnecting");

    // Sent while the server was down (another instance, say): shown once the page is back.
    database
      .prepare(
        `INSERT INTO "ChatMessage" (id, dialogId, senderId, body, createdAt) VALUES ('stream-msg', 'stream-dialog', 'stream-b', 'Sent during the restart', ?)`,
      )
      .run(Date.now());
    const second = await start();
    try {
      await expect(html).toHaveAttribute("data-chat-stream", "open", { timeout: 15_000 });
      await expect(page.getByTestId("chat-message")).toContainText("Sent during the restart");
    } finally {
      second.child.kill("SIGTERM");
      await exited(second.child);
    }
  } finally {
    if (!stopped) first.child.kill("SIGTERM");
    database.close();
    await context.close();
  }
});
