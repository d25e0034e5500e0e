// Helpers that throw responses, so loaders and actions read as a list of guards.
export function notFound(message = "Not Found"): never {
  throw new Response(message, { status: 404, statusText: "Not Found" });
}

export function notFoundUnless<T>(value: T | null | undefined, message?: string): T {
  if (value === null || value === undefined || value === false) notFound(message);
  return value as T;
}

export function forbidden(message = "Forbidden"): never {
  throw new Response(message, { status: 403, statusText: "Forbidden" });
}

export function badRequest(message = "Bad Request"): never {
  throw new Response(message, { status: 400, statusText: "Bad Request" });
}

export function clientIp(request: Request) {
  // The server's door (app/lib/door.server.ts setClientAddress) drops a client's copy of this
  // header and sets it to the socket's (or, with TRUST_PROXY, the proxy's) address on every
  // request, the device API included.
  return request.headers.get("X-Arc-Client-Ip");
}
