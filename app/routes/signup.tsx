// /signup: registration, self-service or from an invitation link (?param1=…) (spec 1 §2.10).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PublicPage } from "~/ui/PublicPage";
import { RegistrationPage } from "~/domain/accounts/ui/RegistrationPage";
import { requireAnonymous } from "~/domain/accounts/auth.server";
import { registrationAction, registrationLoader } from "~/domain/accounts/registrationFlow.server";

export const meta: MetaFunction = () => [{ title: "Register | ARC Connect" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAnonymous(args.request);
  return registrationLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  await requireAnonymous(args.request);
  return registrationAction(args);
}

export default function Signup() {
  return (
    <PublicPage title="Register" wide>
      <RegistrationPage />
    </PublicPage>
  );
}
