// Charts drawn into the HTML once. A page load's loader data is rendered into the markup and sent
// again, as data, for hydration (Remix's turbo-stream in the page): a server-drawn SVG string
// travelled twice (82 KB of a 159 KB profile). On a page load the chart strings are made
// non-enumerable: the server render still reads them, turbo-stream (which encodes Object.keys only)
// leaves them out, and the client's Chart keeps the markup it hydrates (ui Chart components accept
// an absent string for that). Remix's data requests (client navigation, revalidation after a post)
// still carry every string, so a chart that changes on the client gets its new markup.

/**
 * A browser's page load (its answer is HTML), not a data request of Remix's client: browsers mark
 * navigations `Sec-Fetch-Dest: document`; without that header, an Accept of text/html. Anything
 * else counts as a data request, which is always correct (it only sends the charts twice).
 */
export function isDocumentRequest(request: Request) {
  const dest = request.headers.get("sec-fetch-dest");
  if (dest) return dest === "document";
  return (request.headers.get("accept") ?? "").includes("text/html");
}

/** Leaves `keys` of `target` out of the hydration data while the server render still reads them. */
export function keepOutOfHydration<T extends object>(target: T, keys: readonly (keyof T)[]) {
  for (const key of keys) {
    Object.defineProperty(target, key, {
      value: target[key],
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }
  return target;
}
