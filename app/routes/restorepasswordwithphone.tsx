// /restorepasswordwithphone: forgotten password by phone (spec 1 §2.5, §4.2).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PasswordResetPage } from "~/domain/accounts/ui/PasswordResetPage";
import { resetAction, resetLoader } from "~/domain/accounts/resetFlow.server";
import type { RouteHandle } from "~/ui/rootData";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Forgot your password? | ARC Connect" }];

export const loader = (args: LoaderFunctionArgs) => resetLoader("sms", args);
export const action = (args: ActionFunctionArgs) => resetAction("sms", args);

export default function RestorePasswordWithPhone() {
  return <PasswordResetPage channel="sms" />;
}
