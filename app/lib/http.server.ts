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
  // server.ts overwrites this header with the socket (or trusted proxy) address on every request.
  return request.headers.get("X-Arc-Client-Ip");
}
