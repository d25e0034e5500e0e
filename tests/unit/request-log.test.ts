// The access log middleware (app/lib/requestLog.server.ts) in front of real HTTP servers: plain
// node:http, and express with compression as server.ts mounts it. One JSON line per request, the
// path without its query string, no lines for the health checks, none at all when turned off.
import http from "node:http";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "~/lib/env.server";
import {
  createRequestLog,
  pathOf,
  requestLog,
  type RequestLogOptions,
} from "~/lib/requestLog.server";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function listen(server: http.Server) {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A node:http server whose every request goes through the middleware, then `handler`. */
async function plainServer(handler: Handler, options: Omit<RequestLogOptions, "write"> = {}) {
  const lines: string[] = [];
  const closes: Promise<unknown>[] = [];
  const middleware = createRequestLog({ ...options, write: (line) => lines.push(line) });
  const url = await listen(
    http.createServer((req, res) =>
      middleware(req, res, () => {
        // Listeners run in order: when this one runs, the middleware's (added before) have run.
        closes.push(new Promise((resolve) => res.once("close", resolve)));
        handler(req, res);
      }),
    ),
  );
  return {
    url,
    lines,
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    /** Every response so far has closed: whatever the middleware logs for them is written. */
    closed: () => Promise.all(closes),
  };
}

/** A raw GET: the bytes as they came over the wire (no decompression). */
function get(url: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const waitForLines = (lines: string[], n: number) =>
  vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(n), { timeout: 2_000 });

describe("the request log", () => {
  it("writes one JSON line per request, without the query string", async () => {
    const { url, lines, records } = await plainServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("héllo ");
      res.end(Buffer.from("world"));
    });
    const answer = await get(`${url}/app/patients?q=Jane+Doe&sort=name#frag`);
    await waitForLines(lines, 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("Jane");
    expect(lines[0]).not.toContain("sort");
    const [record] = records();
    expect(record).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: "info",
      message: "request",
      method: "GET",
      path: "/app/patients",
      status: 200,
      durationMs: expect.any(Number),
      bytes: answer.body.length,
      ip: "127.0.0.1",
    });
    expect(answer.body.length).toBe(Buffer.byteLength("héllo world"));
    expect(record.durationMs as number).toBeGreaterThanOrEqual(0);
  });

  it("measures how long the answer took", async () => {
    const { url, lines, records } = await plainServer((_req, res) => {
      setTimeout(() => res.end("late"), 120);
    });
    await get(`${url}/slow`);
    await waitForLines(lines, 1);
    expect(records()[0].durationMs as number).toBeGreaterThanOrEqual(100);
  });

  it("leaves out the health checks, with or without a query string", async () => {
    const { url, records, closed } = await plainServer((_req, res) => res.end("ok"));
    await get(`${url}/healthz`);
    await get(`${url}/readyz?verbose=1`);
    await get(`${url}/`);
    await closed();
    expect(records().map((r) => r.path)).toEqual(["/"]);
  });

  it("writes nothing when turned off (LOG_REQUESTS=0)", async () => {
    const { url, lines, closed } = await plainServer((_req, res) => res.end("ok"), {
      enabled: false,
    });
    const answer = await get(`${url}/anything`);
    expect(answer.body.toString()).toBe("ok");
    await closed();
    expect(lines).toEqual([]);
  });

  it("as mounted by the server, follows LOG_REQUESTS and writes to stdout", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((line) => {
      lines.push(String(line));
      return true;
    });
    const url = await listen(
      http.createServer((req, res) => requestLog(req, res, () => res.end("ok"))),
    );
    const before = env.logRequests;
    try {
      env.logRequests = false;
      await get(`${url}/off`);
      env.logRequests = true;
      await get(`${url}/on`);
      await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0), { timeout: 2_000 });
    } finally {
      env.logRequests = before;
      spy.mockRestore();
    }
    expect(lines.map((l) => (JSON.parse(l) as { path: string }).path)).toEqual(["/on"]);
  });

  it("takes the client address the server set in x-arc-client-ip", async () => {
    const { url, lines, records } = await plainServer((req, res) => {
      req.headers["x-arc-client-ip"] = "203.0.113.7";
      res.end();
    });
    await get(`${url}/x`);
    await waitForLines(lines, 1);
    expect(records()[0].ip).toBe("203.0.113.7");
  });

  it("logs server errors at level error, bodiless answers with 0 bytes", async () => {
    const { url, lines, records } = await plainServer((req, res) => {
      if (req.url === "/boom") return res.writeHead(500).end("Internal Server Error");
      res.writeHead(req.url === "/none" ? 204 : 200).end("body");
    });
    await get(`${url}/boom`);
    await get(`${url}/none`);
    await get(`${url}/head`, {}, "HEAD");
    await waitForLines(lines, 3);
    expect(records().map((r) => [r.method, r.path, r.status, r.level, r.bytes])).toEqual([
      ["GET", "/boom", 500, "error", "Internal Server Error".length],
      ["GET", "/none", 204, "info", 0],
      ["HEAD", "/head", 200, "info", 0],
    ]);
  });

  it("logs a request whose client went away before the answer, once", async () => {
    let answered: () => void = () => {};
    const done = new Promise<void>((resolve) => (answered = resolve));
    const { url, lines, records, closed } = await plainServer((req, res) => {
      if (req.url === "/after") return res.end("ok");
      res.writeHead(200);
      res.write("partial");
      // The answer ends after the client has gone.
      res.once("close", () => {
        res.end("rest");
        answered();
      });
    });
    await new Promise<void>((resolve) => {
      const req = http.get(`${url}/stream?token=secret`, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", () => {});
    });
    await done;
    // A later request, answered and logged: anything the first one's end set off came before it.
    await get(`${url}/after`);
    await closed();
    expect(records().map((r) => r.path)).toEqual(["/stream", "/after"]);
    expect(records()[0]).toMatchObject({ path: "/stream", aborted: true });
    expect(lines[0]).not.toContain("secret");
  });

  it("works as express middleware, counting compressed bytes when mounted before compression", async () => {
    const lines: string[] = [];
    const app = express();
    app.use(createRequestLog({ write: (line) => lines.push(line) }));
    app.use(compression({ threshold: 0 }));
    const page = "<p>" + "the same words again and again ".repeat(200) + "</p>";
    app.get("/page", (_req, res) => void res.type("html").send(page));
    const url = await listen(http.createServer(app));

    const answer = await get(`${url}/page?name=Jane`, { "Accept-Encoding": "gzip" });
    await waitForLines(lines, 1);
    const record = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(record).toMatchObject({ method: "GET", path: "/page", status: 200, ip: "127.0.0.1" });
    expect(answer.body.length).toBeLessThan(page.length);
    expect(record.bytes).toBe(answer.body.length);
  });
});

describe("pathOf", () => {
  it("keeps the path only", () => {
    expect(pathOf("/a/b?c=d")).toBe("/a/b");
    expect(pathOf("/a#x?y")).toBe("/a");
    expect(pathOf(undefined)).toBe("/");
    expect(pathOf("/" + "x".repeat(1000))).toHaveLength(300);
  });
});
