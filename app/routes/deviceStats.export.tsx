// GET /deviceStats/export?format=csv|xlsx&start=&end=&q=: the records of the range and search with
// the six averages, streamed (spec 3 §2.9). Behind the same password as the page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { DEVICE_STATS_PATH, hasDeviceStatsAccess } from "~/domain/deviceStats/gate.server";
import { redirect } from "@remix-run/node";
import {
  deviceStatsCsv,
  deviceStatsXlsx,
  exportFileName,
  readStatsQuery,
} from "~/domain/deviceStats/deviceStats.server";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await hasDeviceStatsAccess(request.headers.get("Cookie"))))
    throw redirect(DEVICE_STATS_PATH);
  const search = new URL(request.url).searchParams;
  const { filter } = readStatsQuery(search);
  const excel = search.get("format") === "xlsx";
  const name = exportFileName(excel ? "xlsx" : "csv");
  return new Response(excel ? deviceStatsXlsx(filter) : deviceStatsCsv(filter), {
    headers: {
      "Content-Type": excel ? XLSX_TYPE : "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
