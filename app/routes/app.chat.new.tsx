// POST /app/chat/new (from the New Message and New group dialogs of /app/chat): intent=direct with
// one userId opens (or reuses) the one-to-one conversation; intent=group with userId[] and an
// optional name starts a group. Only the poster's contacts can be added, whatever the form says.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireActor } from "~/domain/actor.server";
import { readForm } from "~/lib/formBody.server";
import { badRequest } from "~/lib/http.server";
import { STAFF_ROLES } from "~/domain/roles";
import { redirectWithFlash } from "~/lib/session.server";
import { createGroupDialog, startDirectDialog } from "~/domain/chat/chat.server";

export async function loader() {
  return redirect("/app/chat?dialog=new");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const form = await readForm(request);
  const intent = form.get("intent");
  const userIds = form.getAll("userId").filter((v): v is string => typeof v === "string");
  const outcome =
    intent === "direct" && userIds.length === 1
      ? await startDirectDialog(user, userIds[0])
      : intent === "group"
        ? await createGroupDialog(user, {
            memberIds: userIds,
            name: String(form.get("name") ?? ""),
          })
        : badRequest();
  if (!outcome.ok) {
    return redirectWithFlash(request, `/app/chat?dialog=${intent}`, "danger", outcome.message);
  }
  return redirect(`/app/chat/${outcome.dialogId}`);
}
