// /forgotpassword: choose to reset by email or by text message (spec 1 §2.5).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { PublicPage } from "~/ui/PublicPage";
import { requireAnonymous } from "~/domain/accounts/auth.server";
import type { RouteHandle } from "~/ui/rootData";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Forgot your password? | ARC Connect" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export default function ForgotPassword() {
  return (
    <PublicPage title="Forgot your password?">
      <p>How would you like to receive your 4-digit verification code?</p>
      <div className="d-grid gap-2">
        <Link to="/restorepasswordwithemail" className="btn btn-primary">
          Reset by email
        </Link>
        <Link to="/restorepasswordwithphone" className="btn btn-outline-primary">
          Reset by text message
        </Link>
      </div>
      <p className="mt-4 mb-0">
        <Link to="/">Back to sign in</Link>
      </p>
    </PublicPage>
  );
}
