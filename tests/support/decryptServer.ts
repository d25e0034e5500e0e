// A real HTTP server on 127.0.0.1 in front of the decrypt dialog's upload action and CSV loader,
// so tests send real multipart bodies over real sockets (cut off, oversized, chunked) and read
// the CSV as it streams.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { closeWhenBodyUnread } from "~/lib/connection.server";
import { loader as csvLoader } from "~/routes/decrypt.csv";
import { action as uploadAction } from "~/routes/decrypt.upload";

const headersOf = (req: http.IncomingMessage) =>
  Object.entries(req.headers).flatMap(([k, v]) =>
    v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v] as [string, string]],
  );

async function answer(req: http.IncomingMessage, url: URL): Promise<Response> {
  if (url.pathname === "/decrypt/upload" && req.method === "POST") {
    const request = new Request(url, {
      method: "POST",
      headers: headersOf(req),
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: "half",
    } as RequestInit);
    return (await uploadAction({ request, params: {}, context: {} })) as Response;
  }
  if (url.pathname === "/decrypt/csv" && req.method === "GET") {
    const request = new Request(url, { headers: headersOf(req) });
    return (await csvLoader({ request, params: {}, context: {} })) as Response;
  }
  return new Response(null, { status: 404 });
}

export async function startDecryptServer() {
  /** Errors that were neither a Response nor a client going away: a test should see none. */
  const failures: unknown[] = [];
  /** The requests being handled (until their handler returns). */
  const handling = new Set<Promise<unknown>>();
  const server = http.createServer((req, res) => {
    const handled = handle(req, res).finally(() => handling.delete(handled));
    handling.add(handled);
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    closeWhenBodyUnread(req, res);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let response: Response;
    try {
      response = await answer(req, url);
    } catch (thrown) {
      if (!(thrown instanceof Response)) {
        failures.push(thrown);
        if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
        return;
      }
      response = thrown;
    }
    if (res.destroyed) return;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    try {
      await pipeline(Readable.fromWeb(response.body as never), res);
    } catch (error) {
      // A CSV that fails half way cannot change its status any more: the connection is cut.
      failures.push(error);
      res.destroy();
    }
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    failures,
    /** Resolves once no request is being handled: whatever their handlers do is done. */
    idle: async () => {
      while (handling.size) await Promise.all(handling);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
