// The HTTP server (express + Remix) with the app's background work and graceful shutdown.
// `arc-connect serve` (server/cli.ts) runs it, from a checkout (build/server.js) or from the
// release binary, whose files come unpacked from the binary (scripts/binary/runtime.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { closeWhenBodyUnread } from "../app/lib/connection.server";
import { logger } from "../app/lib/logger.server";
import { requestLog } from "../app/lib/requestLog.server";
import { APP_VERSION as version } from "../app/lib/version.server";
import { requestGuard } from "./requestGuard";

installGlobals({ nativeFetch: true });

type AppEntry = {
  startBackground(options?: { jobs?: boolean }): Promise<void>;
  stopBackground(options?: { disconnect?: boolean }): Promise<void>;
  closeLiveStreams(): void;
  checkReadiness(expectedMigrations: string[]): Promise<{ ready: boolean }>;
};

/** What the server serves: the Remix server build and the folder holding public/. */
export type AppFiles = {
  root: string;
  loadBuild(): ServerBuild;
  /** development only: a file the Remix dev compiler rewrites after each rebuild */
  watchFile?: string;
};

const entryOf = (build: ServerBuild) => build.entry.module as unknown as AppEntry;

/** Serves the app; `migrations`: this version's migration names, which /readyz expects applied. */
export async function serve(files: AppFiles, migrations: string[]) {
  const mode = process.env.NODE_ENV === "development" ? "development" : "production";
  const { root } = files;
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";

  let build = files.loadBuild();
  await entryOf(build).startBackground();

  const app = express();
  app.disable("x-powered-by");
  if (process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true")
    app.set("trust proxy", 1);

  const remixHandler = createRequestHandler({
    build: async () => build, // re-read so development reloads take effect
    mode,
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
  });

  // One JSON line per request (LOG_REQUESTS=0: none), first so it sees the bytes actually sent.
  app.use(requestLog);
  app.use((req, res, next) => {
    closeWhenBodyUnread(req, res);
    next();
  });
  app.use(requestGuard); // 405 for methods no route takes, 403 for cross-site posts

  // The device API (DEVICE-API.md) is JSON for machines: it goes straight to its Remix routes,
  // past the page middleware below (CSP nonces, page security headers, compression), which cost
  // a device request a good part of its time (docs/performance.md, "Device ingest").
  app.post("/api/v1/devices/*", remixHandler);

  app.use((req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    // The app reads the client address from here; a value sent by the client is overwritten.
    req.headers["x-arc-client-ip"] = req.ip ?? "";
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
      strictTransportSecurity: mode === "production" && process.env.COOKIE_SECURE !== "0",
      crossOriginEmbedderPolicy: false,
      // Not helmet's "no-referrer": with it Chromium sends "Origin: null" on form posts, which
      // Remix rightly refuses as a possible cross-site request.
      referrerPolicy: { policy: "same-origin" },
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
  app.get("/readyz", async (_req, res) => {
    const readiness = await entryOf(build).checkReadiness(migrations);
    res
      .status(readiness.ready ? 200 : 503)
      .json({ status: readiness.ready ? "ready" : "not ready", version, ...readiness });
  });

  app.all("*", remixHandler);

  const server = app.listen(port, host, () => {
    logger.info(`ARC Connect ${version} is ready at http://localhost:${port} (${mode})`);
    if (mode === "development") broadcastDevReady(build);
  });

  if (mode === "development" && files.watchFile) {
    // remix dev --manual: reload the build when it changes, keep the process (and its data) alive.
    fs.watchFile(files.watchFile, { interval: 300 }, async () => {
      entryOf(build).closeLiveStreams();
      await entryOf(build).stopBackground({ disconnect: false });
      build = files.loadBuild();
      await entryOf(build).startBackground();
      broadcastDevReady(build);
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
    server.close(async () => {
      await entryOf(build).stopBackground();
      logger.info("Stopped cleanly.");
      process.exit(0);
    });
    // Keep-alive sockets with no request in flight would hold close() open.
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
