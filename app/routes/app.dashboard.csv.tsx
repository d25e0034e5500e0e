// /app/dashboard/csv?c=<careSiteId>&list=<category>&range|from|to: the dashboard list as CSV.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireActor } from "~/domain/actor.server";
import { notFoundUnless } from "~/lib/http.server";
import { SITE_ROLES } from "~/domain/roles";
import { audit } from "~/domain/audit.server";
import { CATEGORIES, dashboardCsv, type Category } from "~/domain/adherence/dashboard.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const url = new URL(request.url);
  const careSiteId = url.searchParams.get("c") ?? "";
  const list = url.searchParams.get("list");
  notFoundUnless((CATEGORIES as readonly string[]).includes(list ?? ""));
  const { csv, fileName } = notFoundUnless(
    await dashboardCsv(user, careSiteId, list as Category, url.searchParams),
  );
  await audit({
    actorId: user.id,
    action: "dashboard.exported",
    careSiteId,
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
