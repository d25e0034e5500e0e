// The access log: one JSON line per request, written when its response has gone out (or the client
// went away). It holds the path without its query string: queries carry patient names and search
// terms, and no health data belongs in a log. Health checks are not logged (they come every few
// seconds and say nothing). LOG_REQUESTS=0 turns it off.
import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "./env.server";
import { createJsonLogger } from "./logger.server";

/** Probes of load balancers and orchestrators: answered, never logged. */
export const UNLOGGED_PATHS = new Set(["/healthz", "/readyz"]);
const MAX_PATH = 300;

type LoggedRequest = IncomingMessage & {
  /** express's (honours TRUST_PROXY) */
  ip?: string;
  /** express's: the URL before any mounting rewrote req.url */
  originalUrl?: string;
};

export type RequestLogOptions = {
  /** default env.logRequests (LOG_REQUESTS) */
  enabled?: boolean;
  /** where each line goes (without its newline); default stdout */
  write?: (line: string) => void;
};

/** The path of a request URL: without query string or fragment, and cut to a sane length. */
export function pathOf(url: string | undefined) {
  const raw = url ?? "/";
  const end = raw.search(/[?#]/);
  return (end === -1 ? raw : raw.slice(0, end)).slice(0, MAX_PATH);
}

function clientIp(req: LoggedRequest) {
  // express's req.ip first; then the header the door sets (a client's copy dropped); then the peer.
  const header = req.headers["x-arc-client-ip"];
  return req.ip || (typeof header === "string" && header) || req.socket?.remoteAddress || null;
}

function chunkBytes(chunk: unknown, encoding?: unknown) {
  if (chunk == null || typeof chunk === "function") return 0;
  if (typeof chunk === "string") {
    return Buffer.byteLength(
      chunk,
      typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8",
    );
  }
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

/**
 * An express-compatible middleware (plain node:http works too) that logs the request when its
 * response finishes. Mount it first, before compression: it then counts the bytes as sent.
 */
export function createRequestLog(options: RequestLogOptions = {}) {
  // Read when requests come, not when this module is imported (env parses on first use).
  const enabled = () => options.enabled ?? env.logRequests;
  const write = options.write;
  // The logger's JSON lines, every one on stdout (server errors included: it is the access log).
  const out = createJsonLogger(
    write ? { write: (line: string) => write(line.replace(/\n$/, "")) } : process.stdout,
  );

  return function requestLog(
    req: LoggedRequest,
    res: ServerResponse,
    next: (error?: unknown) => void,
  ) {
    const path = pathOf(req.originalUrl ?? req.url);
    if (!enabled() || UNLOGGED_PATHS.has(path)) return next();
    const started = process.hrtime.bigint();
    let bytes = 0;

    // Count the body as it is written (after compression, when that is mounted later).
    const originalWrite = res.write;
    const originalEnd = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      bytes += chunkBytes(chunk, rest[0]);
      return (originalWrite as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse["write"];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      bytes += chunkBytes(chunk, rest[0]);
      return (originalEnd as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse["end"];

    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      // HEAD answers and 204/304 carry no body, whatever the handler wrote.
      const bodyless = req.method === "HEAD" || status === 204 || status === 304;
      const fields: Record<string, unknown> = {
        method: req.method,
        path,
        status,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        bytes: bodyless ? 0 : bytes,
        ip: clientIp(req),
      };
      // The client went away before the response was complete (or a stream was closed).
      if (aborted) fields.aborted = true;
      out[status >= 500 ? "error" : "info"](fields, "request");
    };
    res.once("finish", log);
    res.once("close", log);
    next();
  };
}

/** The access log as the server mounts it: on unless LOG_REQUESTS=0. */
export const requestLog = createRequestLog();
