import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/ui/nonce";
import { logger } from "~/lib/logger.server";

// server.ts reaches the app's background work through the build's entry module, so the process
// holds one copy of the app code (one Prisma client, one env).
export {
  startBackground,
  stopBackground,
  closeLiveStreams,
  checkReadiness,
} from "~/jobs/lifecycle.server";
// ... and the device API's own handler, which it mounts before Remix (server/http.ts).
export { handleDeviceApi } from "~/domain/devices/deviceApi.server";

const ABORT_DELAY = 5_000;

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // Responses a guard threw on purpose (404, 403, 405 ...) are answers, not errors.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logger.error("unhandled error", { error, url: request.url });
}

/**
 * The page, rendered whole and answered as one body. Nothing on a page suspends for data (no
 * deferred loaders), so waiting for all of it costs no time to first byte that matters, and one
 * body is one write into compression: brotli fed React's 2 KB chunks one by one spent about four
 * times the CPU of one call on the whole page (docs/performance.md, "Where the time goes").
 * Without JavaScript the page is complete as sent, as it is for bots.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = (loadContext as { cspNonce?: string }).cspNonce ?? "";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(
          new Response(Buffer.concat(chunks), {
            headers: responseHeaders,
            status: responseStatusCode,
          }),
        );
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={ABORT_DELAY}
          nonce={nonce}
        />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error("render error", { error });
        },
      },
    );
    // Cleared when the page is done: a pending timer would keep the render's tree alive.
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}
