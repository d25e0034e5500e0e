// For the HTTP server (server.ts, and the test servers that stand in for it).
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A response written before its request's body was read (an upload refused for its size, its
 * sender's rate, or a stall) ends the connection, and says so: the rest of the body is not read,
 * and a browser that reused the connection for its next request would see it reset.
 */
export function closeWhenBodyUnread(req: IncomingMessage, res: ServerResponse) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as typeof writeHead;
}
