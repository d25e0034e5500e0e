// /app/clinicadmin: the Invitations screen of the clinicadmin (spec 1 §2.3, spec 2 §2).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { InvitationsPage } from "~/components/InvitationsPage";
import { invitationsAction, invitationsLoader } from "~/lib/invitationsFlow.server";
import type { RouteHandle } from "~/root";

export { AppErrorBoundary as ErrorBoundary } from "~/components/ErrorPage";

export const handle: RouteHandle = { heading: "Invitations" };
export const meta: MetaFunction = () => [{ title: "Invitations | ARC Connect" }];

export const loader = (args: LoaderFunctionArgs) => invitationsLoader("clinicadmin", args);
export const action = (args: ActionFunctionArgs) => invitationsAction("clinicadmin", args);

export default function Invitations() {
  return <InvitationsPage />;
}
