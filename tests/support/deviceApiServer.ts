// A real HTTP server on 127.0.0.1 in front of the device API's route actions, so tests reach the
// API the way devices and the simulator do (real sockets, real bodies).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  action as statsAction,
  loader as statsLoader,
} from "~/routes/api.v1.devices.$serial.stats";
import {
  action as transmissionsAction,
  loader as transmissionsLoader,
} from "~/routes/api.v1.devices.$serial.transmissions";

export async function startDeviceApiServer() {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = /^\/api\/v1\/devices\/([^/]+)\/(transmissions|stats)$/.exec(url.pathname);
    if (!match) return res.writeHead(404).end();
    if (req.method !== "POST") {
      const answer = await (match[2] === "stats" ? statsLoader() : transmissionsLoader());
      return res.writeHead(answer.status, Object.fromEntries(answer.headers)).end();
    }
    const request = new Request(url, {
      method: "POST",
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v] as [string, string]],
      ),
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: "half",
    } as RequestInit);
    const handler = match[2] === "stats" ? statsAction : transmissionsAction;
    let response: Response;
    try {
      response = (await handler({
        request,
        params: { serial: decodeURIComponent(match[1]) },
        context: {},
      })) as Response;
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
