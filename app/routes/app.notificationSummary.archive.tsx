// /app/notificationSummary/archive?c=<careSiteId>&day=YYYY-MM-DD: one archived daily summary as
// the CSV stored when it was sent, named Notification_Summary_<DD>_<Mon>_<YYYY>.csv; a day with
// nothing generated downloads the text "No notifications for this date" (spec 2 §8). Resource
// route: loader only. A care site the user is not accepted at answers 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/lib/auth.server";
import { badRequest, clientIp, notFoundUnless } from "~/lib/http.server";
import { SITE_ROLES } from "~/lib/roles";
import { audit } from "~/models/audit.server";
import { getManagedCareSite } from "~/models/careSiteManagement.server";
import { archivedSummaryCsv, summaryReportName } from "~/models/dailySummary.server";
import { notificationMessages } from "~/validation/notificationSettings";

const DAY_REGEX = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, SITE_ROLES);
  const url = new URL(request.url);
  const day = url.searchParams.get("day") ?? "";
  if (!DAY_REGEX.test(day)) badRequest("Unknown date");
  const site = notFoundUnless(await getManagedCareSite(user, url.searchParams.get("c") ?? ""));
  const csv = await archivedSummaryCsv(site.id, day);
  await audit({
    actorId: user.id,
    action: "notification_summary.downloaded",
    targetType: "careSite",
    targetId: site.id,
    careSiteId: site.id,
    ip: clientIp(request),
    detail: { day, archive: true, generated: csv !== null },
  });
  return new Response(csv ?? notificationMessages.noNotifications, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${summaryReportName(day)}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
