// GET /decrypt/csv?uuid=&from=&to=: the decrypted log as CSV (spec 3 §2.8 "Download CSV Report"),
// streamed as it is decrypted from the stored upload. Public: the uuid is the only key.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFoundUnless } from "~/lib/http.server";
import {
  findLogFile,
  logCsvFileName,
  logCsvStream,
  readLogRange,
} from "~/domain/deviceLogs/deviceLog.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const file = notFoundUnless(await findLogFile(search.get("uuid")));
  const { range, errors } = readLogRange(search.get("from"), search.get("to"));
  if (errors.from) throw new Response(errors.from, { status: 400 });
  return new Response(logCsvStream(file, range), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${logCsvFileName(file, range)}"`,
      "Cache-Control": "no-store",
    },
  });
}
