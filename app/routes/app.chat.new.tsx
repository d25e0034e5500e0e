// POST /app/chat/new (from the New Message and New group dialogs of /app/chat): intent=direct with
// one userId opens (or reuses) the one-to-one conversation; intent=group with userId[] and an
// optional name starts a group. Only the poster's contacts can be added, whatever the form says.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireActor } from "~/domain/actor.server";
import { parseForm } from "~/lib/form.server";
import { STAFF_ROLES } from "~/domain/roles";
import { redirectWithFlash } from "~/lib/session.server";
import { createGroupDialog, startDirectDialog } from "~/domain/chat/chat.server";
import { newDialogSchema } from "~/domain/chat/schema";

export async function loader() {
  return redirect("/app/chat?dialog=new");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const form = await parseForm(request, newDialogSchema);
  if (!form.ok) return form.reply;
  const input = form.data;
  const outcome =
    input.intent === "direct"
      ? await startDirectDialog(user, input.userId)
      : await createGroupDialog(user, { memberIds: input.userId, name: input.name });
  if (!outcome.ok) {
    const back = `/app/chat?dialog=${input.intent}`;
    return redirectWithFlash(request, back, "danger", outcome.message);
  }
  return redirect(`/app/chat/${outcome.dialogId}`);
}
