// Whether the page runs React in the browser. Pages that opt out (`handle.hydrate === false`) get
// small classic scripts (/js/*.js) for their live parts instead; hydrated pages must never load
// those, because a script that edits server-rendered markup before React hydrates it makes the
// markup differ from what React renders (hydration errors #418/#425).
import { useMatches } from "@remix-run/react";
import { useEffect, useState } from "react";

/** True unless a route of the page declares `handle = { hydrate: false }` (RouteHandle). */
export function usePageHydrates() {
  const matches = useMatches();
  return !matches.some((m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}

/** False on the server and in the hydrating render, true once React runs the page. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
