// An image sent in a conversation, for its participants only (404 to anyone else, as for an
// unknown id).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireActor } from "~/domain/actor.server";
import { notFoundUnless } from "~/lib/http.server";
import { STAFF_ROLES } from "~/domain/roles";
import { storedFileResponse } from "~/lib/uploads.server";
import { findAttachment } from "~/domain/chat/chat.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const upload = notFoundUnless(
    await findAttachment(user, params.dialogId ?? "", params.attachmentId ?? ""),
  );
  return storedFileResponse(request, upload);
}
