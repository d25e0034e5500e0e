// The door every request passes before any handler (server/http.ts mounts these first, the device
// API included): the client's address, refusal of paths that routing would rewrite, the security
// headers every response carries, no caching unless a route says otherwise, and a deadline for a
// body that stops arriving. Plain node:http types, so the test servers can use them too.
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Headers the server sets for the app to read (app/lib/http.server.ts clientIp): a copy sent by a
 * client is dropped before anything reads it.
 */
export const INTERNAL_HEADERS = ["x-arc-client-ip"] as const;

/** What a proxy in front of us writes: believed only with TRUST_PROXY, otherwise dropped. */
export const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "forwarded",
] as const;

type AddressedRequest = IncomingMessage & {
  /** express's: the socket's address, or X-Forwarded-For's when "trust proxy" is set */
  ip?: string;
};

/**
 * Drops client-sent copies of internal (and, without a trusted proxy, forwarding) headers, then
 * writes the client's address where the app reads it. `req.ip` must already be worked out (express
 * reads X-Forwarded-For for it only with "trust proxy"), so the forwarding headers go after.
 */
export function setClientAddress(req: AddressedRequest, trustProxy: boolean) {
  const address = req.ip || req.socket.remoteAddress || "unknown";
  for (const name of INTERNAL_HEADERS) delete req.headers[name];
  if (!trustProxy) for (const name of FORWARDING_HEADERS) delete req.headers[name];
  req.headers["x-arc-client-ip"] = address;
}

export const REFUSED_PATH_MESSAGE =
  "Bad Request: the address has dot segments, encoded slashes or backslashes.";

/**
 * True when the request target is one routing would rewrite (WHATWG URL parsing, as Remix does,
 * resolves `.`, `..`, `%2e%2e` and turns `\` into `/`), or one with an encoded slash: such a path
 * can match one route here and reach another there. Only the path counts, not the query.
 */
export function isRefusedPath(url: string | undefined) {
  const target = url ?? "/";
  if (!target.startsWith("/")) return true; // absolute-form or "*": never ours to route
  const end = target.indexOf("?");
  const path = end === -1 ? target : target.slice(0, end);
  if (path.includes("\\") || /%(2f|5c)/i.test(path)) return true;
  return path.split("/").some((segment) => {
    const plain = segment.replace(/%2e/gi, ".");
    return plain === "." || plain === "..";
  });
}

/**
 * Security headers for every response, whatever its path: a fixed set, cheap enough for the device
 * API. The page chain's helmet then replaces the CSP with the page's (nonce, same-origin sources);
 * this CSP is for everything that is not a page (JSON, plain text).
 */
export function securityHeaders(options: { hsts: boolean }): [string, string][] {
  return [
    ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ["Origin-Agent-Cluster", "?1"],
    ["Referrer-Policy", "same-origin"],
    ...(options.hsts
      ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]]
      : []),
    ["X-Content-Type-Options", "nosniff"],
    ["X-DNS-Prefetch-Control", "off"],
    ["X-Download-Options", "noopen"],
    ["X-Frame-Options", "DENY"],
    ["X-Permitted-Cross-Domain-Policies", "none"],
    ["X-XSS-Protection", "0"],
  ];
}

type AppendingResponse = ServerResponse & {
  /** express's: adds a value to a header already set (the Remix adapter sends headers with it) */
  append?: (field: string, value: string | string[]) => unknown;
};

/**
 * A route's own value for a header the door set replaces the door's, instead of being appended to
 * it (the Remix adapter appends each response header: "nosniff, nosniff").
 */
export function routeHeadersReplace(res: AppendingResponse, names: Iterable<string>) {
  const append = res.append;
  if (typeof append !== "function") return;
  const door = new Set([...names].map((name) => name.toLowerCase()));
  res.append = function (this: AppendingResponse, field: string, value: string | string[]) {
    const name = field.toLowerCase();
    if (!door.has(name)) return append.call(this, field, value);
    door.delete(name); // a second value of the route's own is appended as usual
    this.setHeader(field, value);
    return this;
  };
}

/**
 * `Cache-Control: no-store` on the response unless something set its own by the time the head goes
 * out (static files, chat images, the event stream): set at writeHead, because the Remix adapter
 * appends a route's headers to what is already there instead of replacing it.
 */
export function noStoreByDefault(res: ServerResponse) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!this.hasHeader("Cache-Control") && !headersArgHas(args, "cache-control")) {
      this.setHeader("Cache-Control", "no-store");
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

/** writeHead(status, [message], headers): whether the headers argument names `name`. */
function headersArgHas(args: unknown[], name: string) {
  const headers = args.find((arg, i) => i > 0 && arg && typeof arg === "object");
  if (!headers) return false;
  if (Array.isArray(headers)) {
    // [[k, v], ...] or a flat [k, v, k, v] list
    return headers.some((entry, i) =>
      Array.isArray(entry)
        ? String(entry[0]).toLowerCase() === name
        : i % 2 === 0 && String(entry).toLowerCase() === name,
    );
  }
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/**
 * A request body that stops arriving for `idleMs` ends its connection (slow-loris on the body; the
 * server's requestTimeout bounds the whole request, and is long so big uploads on slow lines
 * finish). Only while the body is still coming: a finished body leaves the socket as it was.
 */
export function cutStalledBody(req: IncomingMessage, res: ServerResponse, idleMs: number) {
  if (req.complete || idleMs <= 0) return;
  const hasBody =
    req.headers["transfer-encoding"] !== undefined ||
    Number(req.headers["content-length"] ?? 0) > 0;
  if (!hasBody) return;
  const socket = req.socket;
  const onIdle = () => {
    if (!req.complete) socket.destroy();
  };
  socket.setTimeout(idleMs);
  socket.once("timeout", onIdle);
  const done = () => {
    socket.removeListener("timeout", onIdle);
    // Back to none while the answer is still being made. After it, the socket's timer is Node's
    // keep-alive timer (or, if Node set none, ours ends the idle connection just the same).
    if (!socket.destroyed && !res.writableFinished) socket.setTimeout(0);
  };
  req.once("end", done);
  req.once("close", done);
}
