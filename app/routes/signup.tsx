// /signup: registration, self-service or from an invitation link (?param1=…) (spec 1 §2.10).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PublicPage } from "~/ui/PublicPage";
import { RegistrationPage } from "~/domain/accounts/ui/RegistrationPage";
import {
  anonymousRegistrationAction,
  anonymousRegistrationLoader,
} from "~/domain/accounts/registrationFlow.server";

export const meta: MetaFunction = () => [{ title: "Register | ARC Connect" }];

export const loader = (args: LoaderFunctionArgs) => anonymousRegistrationLoader(args);

export const action = (args: ActionFunctionArgs) => anonymousRegistrationAction(args);

export default function Signup() {
  return (
    <PublicPage title="Register" wide>
      <RegistrationPage />
    </PublicPage>
  );
}
