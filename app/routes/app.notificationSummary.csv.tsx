// /app/notificationSummary/csv?c=<careSiteId>: the summary table of the page (yesterday in the
// care site's zone) as a CSV download named NotificationSummary_<day>.csv, without the columns the
// spec drops (spec 2 "Notification summary"). Resource route: loader only. A care site the user is
// not accepted at answers 404, like the page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/lib/auth.server";
import { clientIp, notFoundUnless } from "~/lib/http.server";
import { SITE_ROLES } from "~/lib/roles";
import { yesterdayInZone } from "~/lib/time";
import { audit } from "~/models/audit.server";
import { getManagedCareSite } from "~/models/careSiteManagement.server";
import { summaryCsv, summaryRows } from "~/models/dailySummary.server";
import { readNotificationSettings } from "~/models/notificationSettings.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, SITE_ROLES);
  const careSiteId = new URL(request.url).searchParams.get("c") || user.careSites[0]?.id || "";
  const site = notFoundUnless(await getManagedCareSite(user, careSiteId));
  const day = yesterdayInZone(new Date(), site.timeZone);
  const rows = await summaryRows(site.id, day, await readNotificationSettings(site.id));
  await audit({
    actorId: user.id,
    action: "notification_summary.downloaded",
    targetType: "careSite",
    targetId: site.id,
    careSiteId: site.id,
    ip: clientIp(request),
    detail: { day, archive: false, rowCount: rows.length },
  });
  return new Response(summaryCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="NotificationSummary_${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
