// /app/dashboard/csv?c=<careSiteId>&list=<category>&range|from|to: the dashboard list as CSV.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/lib/auth.server";
import { notFoundUnless } from "~/lib/http.server";
import { SITE_ROLES } from "~/lib/roles";
import { audit } from "~/models/audit.server";
import { CATEGORIES, dashboardCsv, type Category } from "~/models/dashboard.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, SITE_ROLES);
  const url = new URL(request.url);
  const careSite = notFoundUnless(user.careSites.find((c) => c.id === url.searchParams.get("c")));
  const list = url.searchParams.get("list");
  notFoundUnless((CATEGORIES as readonly string[]).includes(list ?? ""));
  const { csv, fileName } = await dashboardCsv(careSite.id, list as Category, url.searchParams);
  await audit({
    actorId: user.id,
    action: "dashboard.exported",
    careSiteId: careSite.id,
    detail: { list },
  });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
