// GET /decrypt/pdf?uuid=&startDate=&endDate=: the Therapy Compliance Report (spec 3 §9) of the
// graphs in the dashboard's report list, with the summary of the dashboard's range.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFound, notFoundUnless } from "~/lib/http.server";
import { findLogFile } from "~/domain/deviceLogs/deviceLog.server";
import { buildLogReport, readDashboardRange } from "~/domain/deviceLogs/therapyDashboard.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const file = notFoundUnless(await findLogFile(search.get("uuid")));
  if (file.deviceType !== "cough") notFound();
  const { range } = readDashboardRange(search.get("startDate"), search.get("endDate"), file);
  const report = await buildLogReport(file, range);
  if (!report) throw new Response("Add a graph to the report first.", { status: 409 });
  return new Response(new Uint8Array(report.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${report.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
