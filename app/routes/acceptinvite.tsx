// /acceptinvite?param1=…: an invitation link (spec 1 §2.1): a new user registers from it; an
// existing account is told to sign in and accept it under Invitations.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PublicPage } from "~/ui/PublicPage";
import { RegistrationPage } from "~/domain/accounts/ui/RegistrationPage";
import {
  anonymousRegistrationAction,
  anonymousRegistrationLoader,
} from "~/domain/accounts/registrationFlow.server";

export const meta: MetaFunction = () => [{ title: "Accept invitation | ARC Connect" }];

export const loader = (args: LoaderFunctionArgs) => anonymousRegistrationLoader(args);

export const action = (args: ActionFunctionArgs) => anonymousRegistrationAction(args);

export default function AcceptInvite() {
  return (
    <PublicPage title="Register" wide>
      <RegistrationPage />
    </PublicPage>
  );
}
