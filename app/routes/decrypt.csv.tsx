// GET /decrypt/csv?uuid=&from=&to=: the decrypted log as CSV (spec 3 §2.8 "Download CSV Report"),
// streamed as it is decrypted from the stored upload. Public: the uuid is the only key. From the
// decrypt dialog's form (`back` names its page), a refusal goes back to the dialog with the dates
// as typed and the message; a bare link gets 400 or 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { notFoundUnless } from "~/lib/http.server";
import { csvRefusedHref } from "~/domain/deviceLogs/decryptDialog";
import {
  findLogFile,
  logCsvFileName,
  logCsvStream,
  readLogRange,
} from "~/domain/deviceLogs/deviceLog.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const uuid = search.get("uuid");
  const from = search.get("from");
  const to = search.get("to");
  const back = search.get("back");
  const found = await findLogFile(uuid);
  const { range, errors } = readLogRange(from, to);
  if (back !== null && (!found || errors.from)) {
    return redirect(csvRefusedHref(back, { log: uuid, from, to }));
  }
  const file = notFoundUnless(found);
  if (errors.from) throw new Response(errors.from, { status: 400 });
  return new Response(logCsvStream(file, range), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${logCsvFileName(file, range)}"`,
      "Cache-Control": "no-store",
    },
  });
}
