// /app/signup: the registration page for a signed-in visitor (spec 1 §2.2: no role restriction;
// the side bar and top bar are hidden), e.g. someone opening an invitation for another account.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { RegistrationPage } from "~/domain/accounts/ui/RegistrationPage";
import { requireUser } from "~/domain/accounts/auth.server";
import { registrationAction, registrationLoader } from "~/domain/accounts/registrationFlow.server";
import type { RouteHandle } from "~/ui/rootData";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { bare: true, heading: "Register" };
export const meta: MetaFunction = () => [{ title: "Register | ARC Connect" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args.request);
  return registrationLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  await requireUser(args.request);
  return registrationAction(args);
}

export default function AppSignup() {
  return (
    <div className="card mx-auto" style={{ maxWidth: "48rem" }}>
      <div className="card-body p-4">
        <h1 className="h4 mb-3">Register</h1>
        <RegistrationPage />
      </div>
    </div>
  );
}
