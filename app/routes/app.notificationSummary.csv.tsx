// /app/notificationSummary/csv?c=<careSiteId>[&day=YYYY-MM-DD]: CSV downloads of the summary page
// (spec 2 "Notification summary", §8). Without `day`: the page's table (yesterday in the care
// site's zone, as its summary was sent: the archive) as NotificationSummary_<day>.csv, without the
// columns the spec drops; just the header while that day has no archive. With `day`:
// the archived summary of that day as stored when it was sent, named
// Notification_Summary_<DD>_<Mon>_<YYYY>.csv, or the text "No notifications for this date" when
// nothing was generated. A care site the user is not accepted at answers 404, like the page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireActor } from "~/domain/actor.server";
import { badRequest, clientIp, notFoundUnless } from "~/lib/http.server";
import { SITE_ROLES } from "~/domain/roles";
import { audit } from "~/domain/audit.server";
import { summaryDownloadFor } from "~/domain/notifications/dailySummary.server";
import { summaryReportName } from "~/domain/notifications/summaryRows.server";
import { notificationMessages } from "~/domain/notifications/schema";

const DAY_REGEX = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const search = new URL(request.url).searchParams;
  const archivedDay = search.get("day");
  if (archivedDay !== null && !DAY_REGEX.test(archivedDay)) badRequest("Unknown date");
  const careSiteId = search.get("c") || user.currentCareSiteId || "";
  const download = notFoundUnless(await summaryDownloadFor(user, careSiteId, archivedDay));
  const { site, day } = download;

  let csv: string;
  let fileName: string;
  let detail: Record<string, unknown>;
  if (download.archived) {
    csv = download.csv ?? notificationMessages.noNotifications;
    fileName = `${summaryReportName(day)}.csv`;
    detail = { day, archive: true, generated: download.csv !== null };
  } else {
    csv = download.csv;
    fileName = `NotificationSummary_${day}.csv`;
    detail = { day, archive: false, rowCount: download.rowCount };
  }
  await audit({
    actorId: user.id,
    action: "notification_summary.downloaded",
    targetType: "careSite",
    targetId: site.id,
    careSiteId: site.id,
    ip: clientIp(request),
    detail,
  });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
