// What the root route (app/root.tsx) gives every page, and the handle any route may declare.
// Routes and area components read them here, so that none imports the root route module itself
// (a route never imports another route).
import { useRouteLoaderData } from "@remix-run/react";
import type { FlashMessage } from "./Flash";

export type RouteHandle = {
  /** false: the page gains nothing from JavaScript, so none is sent (STYLE.md). */
  hydrate?: boolean;
  /** The top bar heading; a function receives the user's role. */
  heading?: string | ((role: string) => string);
  /** Inside /app without the side bar and top bar (spec 1 §2.2, /app/signup). */
  bare?: boolean;
};

/** The root loader's data: the flash message of the previous action, for every page. */
export type RootData = { flash: FlashMessage | null };

export function useRootFlash() {
  return useRouteLoaderData<RootData>("root")?.flash ?? null;
}
