// /app/invitation: the Invitations screen of the abmadmin (spec 1 §2.3, spec 2 §2).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { InvitationsPage } from "~/domain/invitations/ui/InvitationsPage";
import { requireActor } from "~/domain/actor.server";
import { loadInvitationsScreen, runInvitationsIntent } from "~/domain/invitations/screen.server";
import { invitationsFormSchema } from "~/domain/invitations/schema";
import { parseForm } from "~/lib/form.server";
import { clientIp } from "~/lib/http.server";
import { answerPost } from "~/lib/session.server";
import type { RouteHandle } from "~/ui/rootData";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Invitations" };
export const meta: MetaFunction = () => [{ title: "Invitations | ARC Connect" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireActor(request, ["abmadmin"]);
  return loadInvitationsScreen("abmadmin", actor, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireActor(request, ["abmadmin"]);
  const form = await parseForm(request, invitationsFormSchema);
  if (!form.ok) return form.reply;
  const outcome = await runInvitationsIntent("abmadmin", actor, form.data, clientIp(request));
  return answerPost(request, outcome);
}

export default function Invitations() {
  return <InvitationsPage />;
}
