// The HTTP server (express + Remix) with the app's background work and graceful shutdown.
// `arc-connect serve` (server/cli.ts) runs it, from a checkout (build/server.js) or from the
// release binary, whose files come unpacked from the binary (scripts/binary/runtime.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { closeWhenBodyUnread } from "../app/lib/connection.server";
import {
  cutStalledBody,
  isRefusedPath,
  noStoreByDefault,
  REFUSED_PATH_MESSAGE,
  routeHeadersReplace,
  securityHeaders,
  setClientAddress,
} from "../app/lib/door.server";
import { env } from "../app/lib/env.server";
import { createLimiter, QueueFull } from "../app/lib/limiter";
import { logger } from "../app/lib/logger.server";
import { pathOf, requestLog } from "../app/lib/requestLog.server";
import { APP_VERSION as version } from "../app/lib/version.server";
import { requestGuard } from "./requestGuard";

installGlobals({ nativeFetch: true });

type AppEntry = {
  startBackground(options?: { jobs?: boolean }): Promise<void>;
  stopBackground(options?: { disconnect?: boolean }): Promise<void>;
  closeLiveStreams(): void;
  checkReadiness(expectedMigrations: string[]): Promise<{ ready: boolean }>;
  handleDeviceApi: express.RequestHandler;
};

/** What the server serves: the Remix server build and the folder holding public/. */
export type AppFiles = {
  root: string;
  loadBuild(): ServerBuild;
  /** development only: a file the Remix dev compiler rewrites after each rebuild */
  watchFile?: string;
};

const entryOf = (build: ServerBuild) => build.entry.module as unknown as AppEntry;

/** What the request chain needs: where public/ is, and who answers what the chain lets through. */
export type ChainOptions = {
  root: string;
  mode: "development" | "production";
  /** the Remix request handler (tests give a stand-in); res.locals.cspNonce holds a page's nonce */
  handler: express.RequestHandler;
  /**
   * answers POSTs to the device API's exact paths, after the door (the app's handleDeviceApi,
   * app/domain/devices/deviceApi.server.ts); default: `handler`
   */
  deviceApi?: express.RequestHandler;
  /** /readyz */
  readiness: () => Promise<{ ready: boolean }>;
  /** believe X-Forwarded-For (one proxy hop); default: TRUST_PROXY=1 or true */
  trustProxy?: boolean;
  /** a request body that stops arriving for this long ends its connection; default 30 s */
  bodyIdleTimeoutMs?: number;
};

/** The device API's routes (DEVICE-API.md): matched exactly, on the path as sent. */
const DEVICE_API_PATH = /^\/api\/v1\/devices\/[^/]+\/(?:transmissions|stats)$/;

/** A body that sends nothing for this long is cut off (as the log upload's own stall check). */
export const BODY_IDLE_TIMEOUT_MS = 30_000;

/**
 * The express app. Every request passes the door first (client address, request log, security
 * headers, refusal of rewritable paths, no-store by default, body deadline), then the device API
 * or the page middleware, then `handler`.
 */
export function createApp(options: ChainOptions) {
  const { root, mode, handler } = options;
  const trustProxy =
    options.trustProxy ?? (process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true");
  const hsts = mode === "production" && process.env.COOKIE_SECURE !== "0";
  const headers = securityHeaders({ hsts });
  const headerNames = headers.map(([name]) => name);
  const bodyIdleTimeoutMs = options.bodyIdleTimeoutMs ?? BODY_IDLE_TIMEOUT_MS;

  const app = express();
  app.disable("x-powered-by");
  // req.ip: the socket's address, or with a trusted proxy the address it puts in X-Forwarded-For.
  app.set("trust proxy", trustProxy ? 1 : false);

  // The door: before any handler, for every request, the device API included.
  app.use((req, res, next) => {
    // The app reads the client address from x-arc-client-ip (limits, audit); nothing a client
    // sent under an internal name survives.
    setClientAddress(req, trustProxy);
    next();
  });
  // One JSON line per request (LOG_REQUESTS=0: none), before compression so it sees the bytes sent.
  app.use(requestLog);
  app.use((req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    routeHeadersReplace(res, headerNames);
    noStoreByDefault(res);
    // A path that routing would read differently from the way it is matched here is refused.
    if (isRefusedPath(req.url)) {
      res.status(400).type("text/plain").send(REFUSED_PATH_MESSAGE);
      return;
    }
    closeWhenBodyUnread(req, res);
    cutStalledBody(req, res, bodyIdleTimeoutMs);
    next();
  });
  app.use(requestGuard); // 405 for methods no route takes, 403 for cross-site posts

  // The device API (DEVICE-API.md) is JSON for machines: after the door it goes straight to its
  // own handler, past the page middleware below (CSP nonces, compression) and Remix's routing and
  // Fetch conversion, which cost a device request most of its time (docs/performance.md, "Device
  // ingest"). The handler answers through the same code as the Remix routes, which keep every
  // other form of these paths (another letter case, a trailing slash, GET).
  app.post(DEVICE_API_PATH, options.deviceApi ?? handler);

  app.use((_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": [
            "'self'",
            (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
          ],
          "style-src": ["'self'"],
          "style-src-attr": ["'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          "font-src": ["'self'"],
          "connect-src": mode === "development" ? ["'self'", "ws:"] : ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
          "base-uri": ["'self'"],
          "object-src": ["'none'"],
        },
      },
      strictTransportSecurity: hsts,
      crossOriginEmbedderPolicy: false,
      // Not helmet's "no-referrer": with it Chromium sends "Origin: null" on form posts, which
      // Remix rightly refuses as a possible cross-site request.
      referrerPolicy: { policy: "same-origin" },
      // As the door's set (and the CSP's frame-ancestors 'none').
      xFrameOptions: { action: "deny" },
    }),
  );
  // Server-sent events must reach the browser as they are written, not when a buffer fills.
  app.use(
    compression({
      filter: (req, res) =>
        !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") &&
        compression.filter(req, res),
    }),
  );
  // Fingerprinted client assets never change under the same name.
  app.use(
    "/build",
    express.static(path.join(root, "public", "build"), { immutable: true, maxAge: "1y" }),
  );
  app.use(express.static(path.join(root, "public"), { maxAge: "1h" }));

  // Liveness: the process answers. Readiness: the database answers, this version's migrations are
  // applied and the job scheduler runs (as the lease holder or on standby).
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok", version });
  });
  app.get("/readyz", (_req, res, next) => {
    // Express 4 does not wait for a promise: a failed check goes to the error handler below.
    options
      .readiness()
      .then((readiness) =>
        res
          .status(readiness.ready ? 200 : 503)
          .json({ status: readiness.ready ? "ready" : "not ready", version, ...readiness }),
      )
      .catch(next);
  });

  app.all("*", handler);

  // What a handler let through (or express refused, such as a malformed %-escape in a parameter):
  // a plain answer with the door's headers still on, never express's page with a stack trace.
  app.use(
    (error: unknown, req: express.Request, res: express.Response, next: express.NextFunction) => {
      const status = Number((error as { status?: unknown } | null)?.status);
      const clientError = status >= 400 && status < 500;
      // A client that went away is no failure of ours.
      if (!clientError && !req.socket.destroyed)
        logger.error("request failed", { error, path: pathOf(req.originalUrl) });
      if (res.headersSent) return next(error); // express ends the connection
      res
        .status(clientError ? status : 500)
        .type("text/plain")
        .send(clientError ? "Bad Request" : "Internal Server Error");
    },
  );
  return app;
}

export type ServerTimeouts = {
  /** the whole request head must have arrived by then (slow-loris on headers) */
  headersTimeoutMs: number;
  /** the whole request, body included (big log uploads on slow lines must still finish) */
  requestTimeoutMs: number;
  /** an idle kept-alive connection is closed after this */
  keepAliveTimeoutMs: number;
  /** how often Node checks the two deadlines above (its default, 30 s, lets a trickler stay longer) */
  connectionsCheckingIntervalMs: number;
};

/** A slow clinic line: about 1 Mbit/s of upload. */
const SLOW_LINE_BYTES_PER_SECOND = 128 * 1024;

/**
 * The server's deadlines (docs/decisions.md, "Server timeouts"). requestTimeout lets the largest
 * device log (DEVICE_LOG_MAX_MB, 256 MB by default) arrive at 1 Mbit/s, and never less than
 * 10 minutes; a body that stalls is cut sooner (BODY_IDLE_TIMEOUT_MS).
 */
export function serverTimeouts(): ServerTimeouts {
  const upload = Math.ceil((env.deviceLogMaxBytes / SLOW_LINE_BYTES_PER_SECOND) * 1000);
  return {
    headersTimeoutMs: 20_000,
    requestTimeoutMs: Math.max(10 * 60_000, upload),
    keepAliveTimeoutMs: 5_000,
    connectionsCheckingIntervalMs: 1_000,
  };
}

/** An HTTP server for `app` with the deadlines set, listening on `port` (0: any free one). */
export function listen(
  app: express.Express,
  where: { port: number; host: string; timeouts?: ServerTimeouts },
  onListening?: () => void,
) {
  const timeouts = where.timeouts ?? serverTimeouts();
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      connectionsCheckingInterval: timeouts.connectionsCheckingIntervalMs,
    },
    app,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  server.listen(where.port, where.host, onListening);
  return server;
}

// Page renders in flight at once. A render holds its loader data and React tree in the heap (2–3 MB
// for a profile) and is CPU work on the one main thread, so more at once only interleave: 50 users
// at once without a bound took the server's RSS past 300 MB (docs/decisions.md "Memory budget").
// Requests past the bound wait in order; the chat's event stream lives for minutes and is no render.
export const RENDERS_AT_ONCE = 8;
const RENDERS_WAITING = 2000;
const LIVE_STREAM_PATH = "/app/chat/stream";

type AsyncHandler = (...args: Parameters<express.RequestHandler>) => Promise<void>;

/** `remixHandler` with at most RENDERS_AT_ONCE page renders (GET, HEAD) running at once. */
export function boundedRenders(remixHandler: AsyncHandler, size = RENDERS_AT_ONCE) {
  const renders = createLimiter(size, RENDERS_WAITING);
  const bounded: express.RequestHandler = (req, res, next) => {
    const render = (req.method === "GET" || req.method === "HEAD") && req.path !== LIVE_STREAM_PATH;
    // Remix's handler catches its own errors and passes them to next().
    if (!render) return void remixHandler(req, res, next);
    renders
      .run(() => (req.socket.destroyed ? Promise.resolve() : remixHandler(req, res, next)))
      .catch((error: unknown) => {
        if (!(error instanceof QueueFull)) return next(error);
        res.status(503).set("Retry-After", "1").type("text/plain").send("Busy: try again.");
      });
  };
  return bounded;
}

/** Serves the app; `migrations`: this version's migration names, which /readyz expects applied. */
export async function serve(files: AppFiles, migrations: string[]) {
  const mode = process.env.NODE_ENV === "development" ? "development" : "production";
  const { root } = files;
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";

  let build = files.loadBuild();
  await entryOf(build).startBackground();

  const remixHandler = createRequestHandler({
    build: async () => build, // re-read so development reloads take effect
    mode,
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
  });
  const app = createApp({
    root,
    mode,
    handler: boundedRenders(remixHandler),
    deviceApi: (req, res, next) => entryOf(build).handleDeviceApi(req, res, next),
    readiness: () => entryOf(build).checkReadiness(migrations),
  });

  const server = listen(app, { port, host }, () => {
    logger.info(`ARC Connect ${version} is ready at http://localhost:${port} (${mode})`);
    if (mode === "development") void broadcastDevReady(build);
  });

  if (mode === "development" && files.watchFile) {
    // remix dev --manual: reload the build when it changes, keep the process (and its data) alive.
    const reload = async () => {
      entryOf(build).closeLiveStreams();
      await entryOf(build).stopBackground({ disconnect: false });
      build = files.loadBuild();
      await entryOf(build).startBackground();
      await broadcastDevReady(build);
    };
    fs.watchFile(files.watchFile, { interval: 300 }, () => {
      reload().catch((error: unknown) => logger.error("reloading the build failed", { error }));
    });
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing requests in flight, then stopping.`);
    const force = setTimeout(() => {
      logger.error("Requests still open after 20 s; exiting anyway.");
      process.exit(1);
    }, 20_000);
    force.unref();
    entryOf(build).closeLiveStreams();
    server.close(() => {
      void entryOf(build)
        .stopBackground()
        .then(() => {
          logger.info("Stopped cleanly.");
          process.exit(0);
        });
    });
    // Keep-alive sockets with no request in flight would hold close() open.
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
