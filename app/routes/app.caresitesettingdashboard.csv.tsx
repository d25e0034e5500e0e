// /app/caresitesettingdashboard/csv?c=<careSiteId>&view=<role>&q=&sort=&order=: the list of the
// care site screen, every page, as a CSV download (spec 2 §9). Resource route: loader only.
// A care site the user is not accepted at answers 404, like the page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireActor } from "~/domain/actor.server";
import { clientIp, notFoundUnless } from "~/lib/http.server";
import { readListParams } from "~/lib/listParams";
import { SITE_ROLES } from "~/domain/roles";
import {
  DEFAULT_ENROLLED_ROLE,
  DEFAULT_ENROLLED_SORT,
  isEnrolledRole,
  sortsFor,
} from "~/domain/careSites/members.server";
import { exportEnrolledCsv, recordCsvExport } from "~/domain/careSites/membersCsv.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const url = new URL(request.url);
  const careSiteId = url.searchParams.get("c") || user.currentCareSiteId || "";
  const requested = url.searchParams.get("view");
  const view = isEnrolledRole(requested) ? requested : DEFAULT_ENROLLED_ROLE;
  const params = readListParams(url, { sorts: sortsFor(view), defaultSort: DEFAULT_ENROLLED_SORT });
  const file = notFoundUnless(await exportEnrolledCsv(user, careSiteId, view, params));
  await recordCsvExport(
    user,
    careSiteId,
    view,
    { q: params.q, rowCount: file.rowCount },
    { ip: clientIp(request) },
  );
  return new Response(file.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
