// The "Your session has expired" screen (spec 1 §2.3, DESIGN.md §4): idle 30 min or 12 h after sign-in.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { RouteHandle } from "~/ui/rootData";
import { requireAnonymous } from "~/domain/accounts/auth.server";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Session expired | ARC Connect" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export default function Expired() {
  return (
    <main className="public-page d-flex align-items-center justify-content-center text-white text-center">
      <div>
        <h1 className="h2 mb-3">Your session has expired</h1>
        <p>
          <Link to="/" className="link-light fw-semibold">
            Click here
          </Link>{" "}
          to sign in again.
        </p>
      </div>
    </main>
  );
}
