// The door every request passes (server/http.ts createApp, app/lib/door.server.ts), over real
// sockets through the real express chain. Remix is replaced by a stand-in that builds its Request
// with the Remix express adapter (so its URL is normalised as Remix routes it), runs the real
// /signup action for POST /signup, and otherwise echoes what it saw: the address the app would
// read, the headers, the path, whether the page middleware ran.
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
// The adapter's own request and response conversion (its index exports only the handler).
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server";
import type express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { clientIp } from "~/lib/http.server";
import { action as signupAction } from "~/routes/signup";
import { fullPhone } from "~/domain/accounts/schema";
import { createApp, listen, serverTimeouts, type ChainOptions } from "../../server/http";
import { uid } from "../support/factories";

const ROOT = path.resolve(__dirname, "..", "..");

type Seen = { path: string; ip: string | null; headers: Record<string, string>; nonce: boolean };
const seen: Seen[] = [];

async function asResponse(run: () => Promise<unknown>) {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) return result;
  const withInit = result as { type?: string; data?: unknown; init?: ResponseInit };
  if (withInit?.type === "DataWithResponseInit") return Response.json(withInit.data, withInit.init);
  return Response.json(result);
}

const standIn: express.RequestHandler = async (req, res, next) => {
  try {
    const request = createRemixRequest(req, res);
    const url = new URL(request.url);
    seen.push({
      path: url.pathname,
      ip: clientIp(request),
      headers: Object.fromEntries(request.headers),
      nonce: typeof res.locals.cspNonce === "string",
    });
    let response: Response;
    if (url.pathname === "/signup" && request.method === "POST") {
      response = await asResponse(
        () => signupAction({ request, params: {}, context: {} }) as Promise<unknown>,
      );
    } else if (url.pathname === "/missing") {
      response = new Response("Not Found", { status: 404 });
    } else if (url.pathname === "/moved") {
      response = new Response(null, { status: 302, headers: { Location: "/" } });
    } else if (url.pathname === "/cached") {
      response = new Response("photo", {
        headers: {
          "Cache-Control": "private, max-age=60",
          "X-Content-Type-Options": "nosniff",
          "Cross-Origin-Resource-Policy": "same-site",
        },
      });
    } else if (url.pathname === "/broken") {
      throw new Error("a handler failed");
    } else {
      if (request.body) await request.arrayBuffer();
      response = Response.json({ path: url.pathname, ip: clientIp(request) });
    }
    await sendRemixResponse(res, response);
  } catch (error) {
    next(error);
  }
};

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** A request with the path exactly as given (fetch would normalise it first). */
function send(
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body ?? "";
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        localAddress: options.from,
        headers: {
          ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
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

async function start(options: Partial<ChainOptions> = {}) {
  const app = createApp({
    root: ROOT,
    mode: "production",
    handler: standIn,
    readiness: async () => ({ ready: true }),
    trustProxy: false,
    ...options,
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { port: (server.address() as AddressInfo).port, close };
}

let door: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  door = await start();
});
afterAll(() => door.close());
beforeEach(() => {
  seen.length = 0;
});

const CRAFTED = [
  "/api/v1/devices/../../../signup",
  "/api/v1/devices/SN1/transmissions/../../../../signup",
  "/api/v1/devices/%2e%2e/%2E%2E/%2e./signup",
  "/api/v1/devices/.%2e/.%2E/..%2fsignup",
  "/api/v1/devices/x%2F..%2F..%2F..%2Fsignup",
  "/api/v1/devices/..\\..\\..\\signup",
  "/api/v1/devices/x%5c..%5C..%5csignup",
  "/api/v1/devices/./SN1/transmissions",
  "/api/v1/devices/SN1/stats/.",
  "/app/../signup",
];

describe("paths that routing would rewrite", () => {
  it("are refused with a plain 400 before routing, and reach no handler", async () => {
    for (const path of CRAFTED) {
      for (const method of ["POST", "GET"]) {
        const answer = await send(door.port, method, path, {
          body: method === "POST" ? "intent=next" : undefined,
          headers: method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : {},
        });
        expect(answer.status, `${method} ${path}`).toBe(400);
        expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
        expect(answer.text).toBe(
          "Bad Request: the address has dot segments, encoded slashes or backslashes.",
        );
        expect(answer.headers["x-content-type-options"]).toBe("nosniff");
        expect(answer.headers["cache-control"]).toBe("no-store");
      }
    }
    expect(seen).toEqual([]);
  });

  it("leave dots inside a name and in the query alone", async () => {
    const answer = await send(door.port, "GET", "/files/report.v2.csv?back=../x/%2e%2e");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ path: "/files/report.v2.csv" });
  });
});

describe("the device API", () => {
  it("is matched on its exact paths and skips only the page middleware", async () => {
    for (const path of ["/api/v1/devices/SN-1/transmissions", "/api/v1/devices/SN-1/stats"]) {
      const answer = await send(door.port, "POST", path, { body: "{}" });
      expect(answer.status).toBe(200);
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(answer.headers["cache-control"]).toBe("no-store");
    }
    expect(seen.map((s) => [s.path, s.ip, s.nonce])).toEqual([
      ["/api/v1/devices/SN-1/transmissions", "127.0.0.1", false],
      ["/api/v1/devices/SN-1/stats", "127.0.0.1", false],
    ]);
    // Anything else under the prefix is a page request like any other.
    await send(door.port, "POST", "/api/v1/devices/SN-1/transmissions/more", { body: "{}" });
    expect(seen[2]).toMatchObject({ path: "/api/v1/devices/SN-1/transmissions/more", nonce: true });
  });
});

describe("the client address", () => {
  const spoofs = {
    "X-Arc-Client-Ip": "203.0.113.7",
    "X-Forwarded-For": "198.51.100.9",
    "X-Forwarded-Host": "evil.example:4444",
    Forwarded: "for=198.51.100.10",
  };

  it("is the socket's: client copies of internal and forwarding headers are dropped", async () => {
    await send(door.port, "GET", "/somewhere", { headers: spoofs });
    await send(door.port, "POST", "/api/v1/devices/SN-2/transmissions", {
      headers: spoofs,
      body: "{}",
    });
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      expect(request.ip).toBe("127.0.0.1");
      expect(request.headers).not.toHaveProperty("x-forwarded-for");
      expect(request.headers).not.toHaveProperty("x-forwarded-host");
      expect(request.headers).not.toHaveProperty("forwarded");
    }
  });

  it("comes from X-Forwarded-For (the nearest proxy's entry) only with TRUST_PROXY", async () => {
    const behindProxy = await start({ trustProxy: true });
    try {
      await send(behindProxy.port, "GET", "/somewhere", {
        headers: { "X-Forwarded-For": "192.0.2.1, 198.51.100.9", "X-Arc-Client-Ip": "203.0.113.7" },
      });
      await send(behindProxy.port, "POST", "/api/v1/devices/SN-3/stats", {
        headers: { "X-Forwarded-For": "198.51.100.11" },
        body: "{}",
      });
    } finally {
      await behindProxy.close();
    }
    expect(seen.map((s) => s.ip)).toEqual(["198.51.100.9", "198.51.100.11"]);
  });
});

describe("registration codes (SMS pumping)", () => {
  const PASSWORD = "Register-1!";
  const form = (phone: string) => {
    const name = uid("door");
    return new URLSearchParams({
      intent: "next",
      username: name,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: "Dana",
      lastName: "Brooks",
      phoneCountry: "1",
      phone,
      email: `${name}@example.test`,
    }).toString();
  };
  /** A loopback address of its own (Linux routes all of 127/8 to lo): a cap nobody has used. */
  const freshAddress = () =>
    `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 255)}.${2 + Math.floor(Math.random() * 253)}`;

  /**
   * Posts `count` registrations from one fresh address, each for a new phone; returns the statuses
   * and the codes sent.
   */
  async function register(
    count: number,
    path: string,
    headers: (i: number) => Record<string, string>,
  ) {
    const from = freshAddress();
    const phones = Array.from(
      { length: count },
      () => `512${Math.floor(2e6 + Math.random() * 7e6)}`,
    );
    const statuses: number[] = [];
    for (const [i, phone] of phones.entries()) {
      const answer = await send(door.port, "POST", path, {
        body: form(phone),
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers(i) },
        from,
      });
      statuses.push(answer.status);
    }
    const codes = await prisma.outboxMessage.count({
      where: { channel: "sms", to: { in: phones.map((p) => fullPhone("1", p)) } },
    });
    return { statuses, codes };
  }

  it("are capped per client address through every path", { timeout: 90_000 }, async () => {
    // The cap is 10 an hour per address (rates.registrationPerIp).
    const spoofedAddress = await register(12, "/signup", (i) => ({
      "X-Arc-Client-Ip": `203.0.113.${i + 1}`,
    }));
    expect(spoofedAddress.codes).toBe(10);
    expect(spoofedAddress.statuses.slice(10)).toEqual([429, 429]);

    const spoofedForward = await register(12, "/signup", (i) => ({
      "X-Forwarded-For": `198.51.100.${i + 1}`,
    }));
    expect(spoofedForward.codes).toBe(10);
    expect(spoofedForward.statuses.slice(10)).toEqual([429, 429]);

    // Through the device API's prefix: refused before routing, no code sent at all.
    const crafted = await register(12, "/api/v1/devices/../../../signup", (i) => ({
      "X-Arc-Client-Ip": `203.0.113.${i + 1}`,
    }));
    expect(crafted.codes).toBe(0);
    expect(new Set(crafted.statuses)).toEqual(new Set([400]));
  });
});

describe("every response", () => {
  const CASES: [method: string, path: string, status: number][] = [
    ["GET", "/somewhere", 200],
    ["GET", "/app/Reports?_data=routes%2Fapp.Reports", 200],
    ["GET", "/missing", 404],
    ["GET", "/moved", 302],
    ["GET", "/broken", 500],
    ["POST", "/api/v1/devices/SN-4/transmissions", 200],
    ["GET", "/healthz", 200],
    ["GET", "/readyz", 200],
    ["GET", "/api/v1/devices/../x", 400],
  ];

  it("carries the security headers and no-store, whatever its path", async () => {
    for (const [method, path, status] of CASES) {
      const answer = await send(door.port, method, path, method === "POST" ? { body: "{}" } : {});
      const where = `${method} ${path}`;
      expect(answer.status, where).toBe(status);
      expect(answer.headers["cache-control"], where).toBe("no-store");
      expect(answer.headers["x-content-type-options"], where).toBe("nosniff");
      expect(answer.headers["x-frame-options"], where).toBe("DENY");
      expect(answer.headers["referrer-policy"], where).toBe("same-origin");
      expect(answer.headers["strict-transport-security"], where).toMatch(/^max-age=\d+/);
      expect(answer.headers["content-security-policy"], where).toContain("frame-ancestors 'none'");
    }
  });

  it("keeps a Cache-Control or security header its route or the static files set", async () => {
    const cached = await send(door.port, "GET", "/cached");
    expect(cached.headers["cache-control"]).toBe("private, max-age=60");
    // The route's value replaces the door's, rather than both being sent.
    expect(cached.headers["x-content-type-options"]).toBe("nosniff");
    expect(cached.headers["cross-origin-resource-policy"]).toBe("same-site");
    const icon = await send(door.port, "GET", "/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers["cache-control"]).toBe("public, max-age=3600");
    expect(icon.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("the server's deadlines", () => {
  const short = {
    headersTimeoutMs: 400,
    requestTimeoutMs: 3_000,
    keepAliveTimeoutMs: 1_000,
    connectionsCheckingIntervalMs: 50,
  };

  async function startTimed() {
    const app = createApp({
      root: ROOT,
      mode: "production",
      handler: standIn,
      readiness: async () => ({ ready: true }),
      trustProxy: false,
      bodyIdleTimeoutMs: 400,
    });
    const server = listen(app, { port: 0, host: "127.0.0.1", timeouts: short });
    await new Promise((resolve) => server.once("listening", resolve));
    return {
      port: (server.address() as AddressInfo).port,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  /** Opens a raw connection, writes `first`, then `drip` every 100 ms until the server hangs up. */
  async function trickle(port: number, first: string, drip: string | null) {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("connect", resolve));
    const started = Date.now();
    socket.write(first);
    const timer = drip === null ? null : setInterval(() => socket.write(drip), 100);
    await new Promise((resolve) => socket.once("close", resolve));
    if (timer) clearInterval(timer);
    return { received, ms: Date.now() - started };
  }

  it("are set on the real server: 20 s for headers, a slow line's time for the largest upload", () => {
    const timeouts = serverTimeouts();
    expect(timeouts.headersTimeoutMs).toBe(20_000);
    expect(timeouts.keepAliveTimeoutMs).toBe(5_000);
    // 256 MB at 128 KiB/s
    expect(timeouts.requestTimeoutMs).toBe(2_048_000);
    const app = createApp({
      root: ROOT,
      mode: "production",
      handler: standIn,
      readiness: async () => ({ ready: true }),
    });
    const server = listen(app, { port: 0, host: "127.0.0.1" });
    try {
      expect(server.headersTimeout).toBe(20_000);
      expect(server.requestTimeout).toBe(2_048_000);
      expect(server.keepAliveTimeout).toBe(5_000);
    } finally {
      server.close();
    }
  });

  it("cut off a client that trickles its headers", async () => {
    const timed = await startTimed();
    try {
      const cut = await trickle(timed.port, "GET /somewhere HTTP/1.1\r\nHost: x\r\n", "X-A: b\r\n");
      expect(cut.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(cut.ms).toBeLessThan(2_000);
    } finally {
      await timed.close();
    }
  });

  it("cut off a body that stops arriving, and let a slow steady one finish", async () => {
    const timed = await startTimed();
    try {
      const head = "POST /somewhere HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n";
      const stalled = await trickle(timed.port, `${head}0123456789`, null);
      expect(stalled.received).toBe("");
      expect(stalled.ms).toBeLessThan(2_000);

      // 100 bytes, 5 every 100 ms: 2 s in all, longer than the idle deadline, never idle.
      const socket = net.connect(timed.port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(head.replace("Host: x", "Host: x\r\nConnection: close"));
      let sent = 0;
      const timer = setInterval(() => {
        socket.write("x".repeat(5));
        sent += 5;
        if (sent >= 100) clearInterval(timer);
      }, 100);
      let received = "";
      socket.on("data", (chunk) => (received += chunk));
      await new Promise((resolve) => socket.once("close", resolve));
      clearInterval(timer);
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await timed.close();
    }
  });
});
