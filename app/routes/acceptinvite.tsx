// /acceptinvite?param1=…: an invitation link (spec 1 §2.1): a new user registers from it; an
// existing account is told to sign in and accept it under Invitations.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PublicPage } from "~/ui/PublicPage";
import { RegistrationPage } from "~/domain/accounts/ui/RegistrationPage";
import { requireAnonymous } from "~/domain/accounts/auth.server";
import { registrationAction, registrationLoader } from "~/domain/accounts/registrationFlow.server";

export const meta: MetaFunction = () => [{ title: "Accept invitation | ARC Connect" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAnonymous(args.request);
  return registrationLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  await requireAnonymous(args.request);
  return registrationAction(args);
}

export default function AcceptInvite() {
  return (
    <PublicPage title="Register" wide>
      <RegistrationPage />
    </PublicPage>
  );
}
