// The device API as the server answers it: by the app's own handler (domain/devices/
// deviceApi.server.ts) mounted in server/http.ts before Remix, after the door. Over real sockets:
// the door's headers, the request guard and the request log still apply; a rotated token is refused
// at once; and a 202 is never lost, even when the server is killed (kill -9) in the middle of a burst.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server";
import { rotateDeviceToken } from "~/domain/devices/device.server";
import { handleDeviceApi } from "~/domain/devices/deviceApi.server";
import { createApp } from "../../server/http";
import { newDevice, transmissionBody } from "../support/deviceApiBodies";
import { uid } from "../support/factories";

const ROOT = path.resolve(__dirname, "..", "..");

/** What reached the stand-in for Remix (every request the device API's handler let through). */
const reachedRemix: string[] = [];
const standIn: express.RequestHandler = (req, res) => {
  reachedRemix.push(`${req.method} ${req.originalUrl}`);
  res.status(404).type("text/plain").send("Not Found");
};

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

function send(
  port: number,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body ?? "";
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        agent: false,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const transmission = transmissionBody;
const device = () => newDevice("SN");

describe("the server's own device API handler", () => {
  let port = 0;
  let server: http.Server;
  const logged: string[] = [];
  beforeAll(async () => {
    const app = createApp({
      root: ROOT,
      mode: "production",
      handler: standIn,
      deviceApi: handleDeviceApi,
      readiness: async () => ({ ready: true }),
      trustProxy: false,
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  afterEach(() => {
    vi.restoreAllMocks();
    reachedRemix.length = 0;
    logged.length = 0;
  });
  /** The request log's lines (it writes JSON lines on stdout). */
  function captureLog() {
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string | Uint8Array) => {
      const line = String(chunk);
      if (line.includes('"message":"request"')) logged.push(line);
      else write(chunk);
      return true;
    }) as typeof process.stdout.write);
  }

  it("answers the exact paths itself, after the door: security headers, no-store, the request log", async () => {
    const d = await device();
    captureLog();
    const stored = await send(port, `/api/v1/devices/${d.serial}/transmissions`, {
      token: d.token,
      body: transmission([uid("E")]),
    });
    expect(stored.status).toBe(202);
    expect(JSON.parse(stored.text)).toMatchObject({ therapiesAccepted: 1, therapiesDuplicate: 0 });
    expect(stored.headers["content-type"]).toBe("application/json; charset=utf-8");
    const stats = await send(port, `/api/v1/devices/${d.serial}/stats`, {
      token: d.token,
      body: JSON.stringify([{ created_at: "2026-11-20T23:10:00Z", core: "Dual" }]),
    });
    expect(stats.status).toBe(202);
    expect(JSON.parse(stats.text)).toEqual({ accepted: 1 });
    const refused = await send(port, `/api/v1/devices/${d.serial}/transmissions`, {
      token: "wrong",
      body: "{}",
    });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
    for (const answer of [stored, stats, refused]) {
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(answer.headers["cache-control"]).toBe("no-store");
    }
    // Remix was never asked.
    expect(reachedRemix).toEqual([]);
    // One log line each, with the path and the status.
    const lines = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => [l.method, l.path, l.status, l.ip])).toEqual([
      ["POST", `/api/v1/devices/${d.serial}/transmissions`, 202, "127.0.0.1"],
      ["POST", `/api/v1/devices/${d.serial}/stats`, 202, "127.0.0.1"],
      ["POST", `/api/v1/devices/${d.serial}/transmissions`, 401, "127.0.0.1"],
    ]);
  });

  it("comes after the request guard: a cross-site post is refused before it", async () => {
    const d = await device();
    const before = await prisma.transmission.count({ where: { deviceId: d.id } });
    const answer = await send(port, `/api/v1/devices/${d.serial}/transmissions`, {
      token: d.token,
      body: transmission([uid("E")]),
      headers: { Origin: "https://elsewhere.example" },
    });
    expect(answer.status).toBe(403);
    expect(await prisma.transmission.count({ where: { deviceId: d.id } })).toBe(before);
  });

  it("leaves every other form of the paths to Remix (the same routes answer them)", async () => {
    const d = await device();
    for (const path of [
      `/api/v1/devices/${d.serial}/transmissions/`,
      `/API/v1/devices/${d.serial}/stats`,
    ]) {
      await send(port, path, { token: d.token, body: "[]" });
    }
    expect(reachedRemix).toEqual([
      `POST /api/v1/devices/${d.serial}/transmissions/`,
      `POST /API/v1/devices/${d.serial}/stats`,
    ]);
  });

  it("refuses a rotated token at once, and takes the new one", async () => {
    const d = await device();
    const path = `/api/v1/devices/${d.serial}/transmissions`;
    expect(
      (await send(port, path, { token: d.token, body: transmission([uid("E")]) })).status,
    ).toBe(202);
    const rotated = await rotateDeviceToken(d.serial);
    expect(rotated).not.toBeNull();
    expect(
      (await send(port, path, { token: d.token, body: transmission([uid("E")]) })).status,
    ).toBe(401);
    expect(
      (await send(port, path, { token: rotated!, body: transmission([uid("E")]) })).status,
    ).toBe(202);
  });
});

describe("a server killed in the middle of a burst (kill -9)", () => {
  it("keeps every transmission it acknowledged with 202", { timeout: 120_000 }, async () => {
    const devices = await Promise.all(Array.from({ length: 8 }, () => device()));
    // node --import tsx, not the tsx CLI: a SIGKILL to the CLI would leave its child running.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "tests/support/deviceApiProcess.ts"],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: "test", LOG_REQUESTS: "0" } },
    );
    const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
    try {
      let output = "";
      child.stderr.on("data", (c) => (output += c));
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.on("data", (c) => {
          output += c;
          const match = /listening (\d+)/.exec(output);
          if (match) resolve(Number(match[1]));
        });
        child.on("close", (code) => reject(new Error(`ended (${code}): ${output}`)));
      });

      // 8 devices send as fast as they are answered; once 200 transmissions are acknowledged the
      // server is killed, with requests in flight.
      const acknowledged: { transmissionId: string; eventIds: string[] }[] = [];
      let killed = false;
      await Promise.all(
        devices.map(async (d, k) => {
          for (let i = 0; !killed; i++) {
            const eventIds = [`E${k}-${i}-a`, `E${k}-${i}-b`];
            try {
              const answer = await send(port, `/api/v1/devices/${d.serial}/transmissions`, {
                token: d.token,
                body: transmission(eventIds),
              });
              expect(answer.status).toBe(202);
              const { transmissionId } = JSON.parse(answer.text) as { transmissionId: string };
              acknowledged.push({ transmissionId, eventIds });
              if (acknowledged.length >= 200 && !killed) {
                killed = true;
                child.kill("SIGKILL");
              }
            } catch (error) {
              if (!killed) throw error;
              // In flight when the server died: not acknowledged, so it may or may not be kept.
            }
          }
        }),
      );
      await closed;
      expect(child.signalCode).toBe("SIGKILL");
      expect(acknowledged.length).toBeGreaterThanOrEqual(200);

      // Every acknowledged transmission and each of its therapies is in the database.
      const ids = acknowledged.map((a) => a.transmissionId);
      const kept = await prisma.transmission.findMany({
        where: { id: { in: ids } },
        select: { id: true, therapies: { select: { eventId: true } } },
      });
      const byId = new Map(kept.map((t) => [t.id, t.therapies.map((x) => x.eventId).sort()]));
      for (const a of acknowledged) expect(byId.get(a.transmissionId)).toEqual(a.eventIds.sort());
    } finally {
      child.kill("SIGKILL");
      await closed;
    }
  });
});
