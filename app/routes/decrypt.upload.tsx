// POST /decrypt/upload: the decrypt dialog's upload (spec 3 §2.8, §7.4), from the landing page
// and the Patients page. The file streams through the decrypter into DATA_DIR; the answer is a
// redirect back to the dialog: its result view (?log=<uuid>) or the refusal's message (?error=).
// The tool is public, so uploads are limited per client address (30 an hour).
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getOptionalUser } from "~/domain/accounts/auth.server";
import { clientIp } from "~/lib/http.server";
import { consumeForIp, rates } from "~/lib/throttle.server";
import { receiveLogUpload } from "~/domain/deviceLogs/upload.server";
import { decryptDialogHref, readDialogOrigin } from "~/domain/deviceLogs/decryptDialog";

// A body refused unread gets `Connection: close` (lib/connection.server.ts, in server.ts).
export const loader = () => redirect(decryptDialogHref("/"));

export async function action({ request }: ActionFunctionArgs) {
  const origin = readDialogOrigin(new URL(request.url).searchParams.get("back"));
  if (!(await consumeForIp(clientIp(request), "decrypt", rates.decryptUploadPerIp))) {
    return redirect(decryptDialogHref(origin, { error: "busy" }));
  }
  const user = await getOptionalUser(request);
  const upload = { headers: request.headers, body: request.body };
  const result = await receiveLogUpload(upload, { uploadedById: user?.id });
  if (result.ok) return redirect(decryptDialogHref(origin, { log: result.id }));
  return redirect(decryptDialogHref(origin, { error: result.failure }));
}
