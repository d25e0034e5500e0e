// GET /app/chat/<id>/stream: the chat events of a page with the conversation open; what arrives
// while it is open is read. 404 to anyone who is not a participant.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalActor } from "~/domain/actor.server";
import { chatEventStream, expiredStream } from "~/domain/chat/stream.server";
import { notFoundUnless } from "~/lib/http.server";
import { getSession } from "~/lib/session.server";
import { findDialog } from "~/domain/chat/chat.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getOptionalActor(request);
  if (!user) return expiredStream();
  const dialog = notFoundUnless(await findDialog(user, params.dialogId ?? ""));
  const session = await getSession(request);
  return chatEventStream(request.signal, {
    userId: user.id,
    sessionId: session.id,
    dialogId: dialog.id,
  });
}
