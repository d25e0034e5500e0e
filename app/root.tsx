import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { ErrorPage } from "~/ui/ErrorPage";
import { useNonce } from "~/ui/nonce";
import type { RootData } from "~/ui/rootData";
import { usePageHydrates } from "~/ui/hydration";
import { commitSession, getSession } from "~/lib/session.server";
import appCss from "~/styles/app.css";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appCss },
  { rel: "icon", href: "/favicon.ico" },
];

export const meta: MetaFunction = () => [{ title: "ARC Connect" }];

/** The flash message of the previous action, for every page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const flash = session.get("flash") ?? null;
  return data(
    { flash } satisfies RootData,
    flash ? { headers: { "Set-Cookie": await commitSession(session) } } : undefined,
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const hydrate = usePageHydrates();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the document once React has hydrated it (browser tests wait for it before they judge a
  // page's console: a hydration error is reported before this effect runs).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
