// Refuses, before any route runs, the two kinds of request no action of the portal takes
// (issue 18 item 7):
//  - methods other than GET, HEAD and POST: 405 (no route has a PUT, PATCH or DELETE; Remix would
//    run the page's action for them);
//  - cross-site posts: 403. Remix checks the Origin header of every action request itself
//    (@remix-run/server-runtime, throwIfPotentialCSRFAttack: Origin's host against X-Forwarded-Host
//    or Host), but it throws a plain Error when they differ (or when Origin is not a URL), which
//    becomes a 500 and an error in the log. This check is the same one, and stricter, answered as
//    a 403 with a message, so the framework's check never throws.
// Device requests (/api/v1/devices/*) send no Origin: they pass unless they claim a foreign one.
import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD"]);
const ALLOWED = "GET, HEAD, POST";

export const REQUEST_GUARD_MESSAGES = {
  method: "This address answers only GET and POST requests.",
  crossSite:
    "This form was sent from another site, so it was refused. Open ARC Connect yourself and try again.",
} as const;

function first(value: string | string[] | undefined) {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Why a state-changing request is refused as cross-site, or null when it is not. `trustProxy`:
 * X-Forwarded-Host names the host the browser saw (behind a trusted proxy only).
 */
export function crossSiteRefusal(headers: IncomingHttpHeaders, trustProxy: boolean) {
  if (first(headers["sec-fetch-site"])?.toLowerCase() === "cross-site") return "Sec-Fetch-Site";
  const origin = first(headers.origin);
  if (origin === undefined) return null; // not a browser, or a browser that tells nothing
  let originHost: string;
  try {
    originHost = new URL(origin).host; // "null" (opaque origins) and non-URLs throw
  } catch {
    return "Origin";
  }
  if (!originHost) return "Origin";
  const forwardedHost = first(headers["x-forwarded-host"])?.split(",")[0]?.trim() || null;
  const host = first(headers.host) || null;
  // Remix compares, exactly, with X-Forwarded-Host whenever one is sent, else with Host. Without a
  // trusted proxy Host must match as well (a client may send any X-Forwarded-Host).
  const expected = trustProxy && forwardedHost ? [forwardedHost] : [host, forwardedHost];
  const present = expected.filter((value): value is string => value !== null);
  if (present.length === 0 || present.some((value) => value !== originHost)) return "Origin";
  return null;
}

function refuse(res: Parameters<RequestHandler>[1], status: number, message: string) {
  res.status(status);
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(message);
}

/** express middleware: mount before every route handler. */
export const requestGuard: RequestHandler = (req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  if (req.method !== "POST") {
    res.setHeader("Allow", ALLOWED);
    return refuse(res, 405, REQUEST_GUARD_MESSAGES.method);
  }
  const trustProxy = Boolean(req.app?.get("trust proxy"));
  if (crossSiteRefusal(req.headers, trustProxy)) {
    return refuse(res, 403, REQUEST_GUARD_MESSAGES.crossSite);
  }
  next();
};
