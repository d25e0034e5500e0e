// Page renders in flight are bounded (server/http.ts boundedRenders; docs/decisions.md "Memory
// budget"): with more page requests than the bound, the others wait their turn; posts and the chat's
// event stream are not held. Over real sockets, with a stand-in for Remix that holds each request
// until the test lets it go.
import { once, EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { boundedRenders } from "../../server/http";

const BOUND = 3;

function harness() {
  const events = new EventEmitter();
  const held: (() => void)[] = [];
  let received = 0;
  let running = 0;
  let mostAtOnce = 0;
  const standIn = async (req: express.Request, res: express.Response) => {
    if (req.method === "GET" && req.path.startsWith("/page")) {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const release = new Promise<void>((resolve) => held.push(resolve));
      events.emit("entered");
      await release;
      running -= 1;
    }
    res.type("text/plain").send(`done ${req.method} ${req.path}`);
  };
  const app = express();
  app.use((_req, _res, next) => {
    received += 1;
    events.emit("received");
    next();
  });
  app.all("*", boundedRenders(standIn, BOUND));
  const server = http.createServer(app);
  return {
    server,
    events,
    held,
    get received() {
      return received;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
  };
}

async function until(events: EventEmitter, name: string, done: () => boolean) {
  while (!done()) await once(events, name);
}

let close: (() => void) | null = null;
afterEach(() => close?.());

describe("page renders in flight", () => {
  it("at most the bound at once; the others wait their turn and are all answered", async () => {
    const h = harness();
    h.server.listen(0, "127.0.0.1");
    await once(h.server, "listening");
    close = () => h.server.close();
    const base = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}`;
    const agent = new http.Agent({ keepAlive: false, maxSockets: 50 });
    const get = (path: string, method = "GET") =>
      new Promise<string>((resolve, reject) => {
        const req = http.request(`${base}${path}`, { method, agent }, (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve(`${res.statusCode} ${body}`));
        });
        req.on("error", reject);
        req.end();
      });

    const pages = Array.from({ length: 8 }, (_, i) => get(`/page/${i}`));
    await until(h.events, "received", () => h.received === 8);
    await until(h.events, "entered", () => h.held.length === BOUND);
    expect(h.mostAtOnce).toBe(BOUND);

    // Not renders: a post and the chat's event stream pass while every render slot is taken.
    expect(await get("/page/form", "POST")).toBe("200 done POST /page/form");
    expect(await get("/app/chat/stream")).toBe("200 done GET /app/chat/stream");

    // Each render that ends lets one waiting request in.
    let answered = 0;
    while (answered < 8) {
      await until(h.events, "entered", () => h.held.length > 0);
      h.held.shift()!();
      answered += 1;
    }
    const bodies = await Promise.all(pages);
    expect(bodies.sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `200 done GET /page/${i}`).sort(),
    );
    expect(h.mostAtOnce).toBe(BOUND);
    agent.destroy();
  });
});
