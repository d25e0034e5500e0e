// The device API answered by the server itself (server/http.ts mounts it for POST on the exact
// paths, after the door: client address, request log, security headers, path refusal, body
// deadline, request guard), not by Remix: a device request then skips Remix's routing and the
// Fetch Request/Response conversion, which cost about half of its CPU (docs/device-api.md
// "Storage and throughput"). It answers through the same endpoints as the Remix routes
// (endpoints.server.ts, request.server.ts), which keep answering every other form of the path.
import type { IncomingMessage, ServerResponse } from "node:http";
import { statsEndpoint, transmissionsEndpoint } from "~/domain/devices/endpoints.server";
import { handleDeviceRequest } from "~/domain/devices/request.server";
import { jsonMessage, type JsonAnswer } from "~/lib/jsonBody.server";

/** The device API's paths (DEVICE-API.md), matched exactly on the path as sent. */
export const DEVICE_API_PATH = /^\/api\/v1\/devices\/([^/]+)\/(transmissions|stats)$/;

/** A path segment decoded as Remix decodes its params; a malformed escape stays as sent. */
function decodeSegment(segment: string) {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

type DeviceApiRequest = IncomingMessage & {
  /** express's: the URL as sent, before any mounting rewrote req.url */
  originalUrl?: string;
};

type DeviceApiResponse = ServerResponse & {
  /** express's: sets headers, giving a JSON Content-Type its charset as the Remix adapter's did */
  set?: (headers: Record<string, string>) => unknown;
};

/** Writes a JsonAnswer on a node:http (or express) response. */
export function writeAnswer(res: DeviceApiResponse, answer: JsonAnswer) {
  res.statusCode = answer.status;
  if (typeof res.set === "function") res.set(answer.headers);
  else for (const name in answer.headers) res.setHeader(name, answer.headers[name]);
  res.end(answer.body ?? undefined);
}

/**
 * A connect-style handler (express, plain node:http): answers a POST to a device API path; any
 * other request goes to `next()`. An error no answer covers goes to `next(error)` (express's
 * error handler answers 500), as Remix's would.
 */
export function handleDeviceApi(
  req: DeviceApiRequest,
  res: DeviceApiResponse,
  next: (error?: unknown) => void,
) {
  const url = req.originalUrl ?? req.url ?? "/";
  const end = url.indexOf("?");
  const match = DEVICE_API_PATH.exec(end === -1 ? url : url.slice(0, end));
  if (!match || req.method !== "POST") return next();
  const serial = decodeSegment(match[1]);
  const request = jsonMessage(req);
  const answer =
    match[2] === "stats"
      ? handleDeviceRequest(statsEndpoint, serial, request)
      : handleDeviceRequest(transmissionsEndpoint, serial, request);
  answer.then((a) => writeAnswer(res, a), next);
}
