// /app/clinicadmin: the Invitations screen of the clinicadmin (spec 1 §2.3, spec 2 §2).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { InvitationsPage } from "~/domain/invitations/ui/InvitationsPage";
import { requireActor } from "~/domain/actor.server";
import { invitationsAction, invitationsLoader } from "~/domain/invitations/flow.server";
import type { RouteHandle } from "~/root";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Invitations" };
export const meta: MetaFunction = () => [{ title: "Invitations | ARC Connect" }];

export const loader = async (args: LoaderFunctionArgs) =>
  invitationsLoader("clinicadmin", await requireActor(args.request, ["clinicadmin"]), args);
export const action = async (args: ActionFunctionArgs) =>
  invitationsAction("clinicadmin", await requireActor(args.request, ["clinicadmin"]), args);

export default function Invitations() {
  return <InvitationsPage />;
}
