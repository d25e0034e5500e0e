// POST /decrypt/upload: the decrypt dialog's upload (spec 3 §2.8, §7.4), from the landing page
// and the Patients page. The file streams through the decrypter into DATA_DIR; the answer is a
// redirect back to the dialog: its result view (?log=<uuid>) or the refusal's message (?error=).
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getOptionalUser } from "~/lib/auth.server";
import { receiveLogUpload } from "~/models/deviceLog.server";
import { decryptDialogHref, readDialogOrigin } from "~/lib/decryptDialog";

export const loader = () => redirect(decryptDialogHref("/"));

export async function action({ request }: ActionFunctionArgs) {
  const origin = readDialogOrigin(new URL(request.url).searchParams.get("back"));
  const user = await getOptionalUser(request);
  const result = await receiveLogUpload(request, { uploadedById: user?.id });
  if (result.ok) return redirect(decryptDialogHref(origin, { log: result.id }));
  // A body refused unread (over the limit, stalled, or no upload slot free) cannot be read on
  // this connection: close it.
  const unread = result.failure === "tooLarge" || result.failure === "failed";
  return redirect(decryptDialogHref(origin, { error: result.failure }), {
    headers: unread ? { Connection: "close" } : undefined,
  });
}
