import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
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

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = (loadContext as { cspNonce?: string }).cspNonce ?? "";
  const callback = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
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
        [callback]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error("render error", { error });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
