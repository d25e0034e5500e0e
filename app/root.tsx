import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorPage } from "~/ui/ErrorPage";
import { useNonce } from "~/ui/nonce";
import type { RootData, RouteHandle } from "~/ui/rootData";
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
  const matches = useMatches();
  const hydrate = !matches.some((m) => (m.handle as RouteHandle | undefined)?.hydrate === false);
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
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
