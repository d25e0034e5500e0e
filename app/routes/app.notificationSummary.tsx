// /app/notificationSummary: the daily notification summary of a care site (spec 2 "Notification
// summary", §4, §9). The care site kept in the session is reused while the user is still accepted
// there, else the first is chosen and kept (the Actor's current care site, domain/actor.server.ts;
// the Care Site dropdown posts intent=chooseCareSite).
// GET parameters of the table: q, sort, order, page (ui/DataTable.tsx).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  NotificationSummaryView,
  SUMMARY_SORTS,
  type SummarySort,
} from "~/domain/notifications/ui/NotificationSummary";
import { rememberCareSite, requireActor } from "~/domain/actor.server";
import { chooseCareSiteSchema } from "~/domain/careSites/schema";
import { parseForm } from "~/lib/form.server";
import { readForm } from "~/lib/formBody.server";
import { badRequest, notFoundUnless } from "~/lib/http.server";
import { PAGE_SIZE, pageCount, readListParams, skipFor, type ListParams } from "~/lib/listParams";
import { SITE_ROLES } from "~/domain/roles";
import { commitSession, getSession } from "~/lib/session.server";
import { formatDay } from "~/lib/time";
import { notificationSummaryFor } from "~/domain/notifications/dailySummary.server";
import type { SummaryRow } from "~/domain/notifications/summaryRows.server";
import type { RouteHandle } from "~/ui/rootData";
import { notificationSettingsHref } from "~/domain/notifications/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Notification Summary" };
export const meta: MetaFunction = () => [{ title: "Notification Summary | ARC Connect" }];

const PATH = "/app/notificationSummary";

/** Sorted in memory (one care site's day is small); missing values sort last either way. */
function sortRows(rows: SummaryRow[], sort: SummarySort, order: "asc" | "desc") {
  const sign = order === "asc" ? 1 : -1;
  const key = (r: SummaryRow): string | number | null => {
    switch (sort) {
      case "lastName":
        return r.lastName.toLowerCase();
      case "firstName":
        return r.firstName.toLowerCase();
      case "adherence":
        return r.adherencePercent;
      case "spo2":
        return r.spo2;
      case "deviation":
        return r.deviation ? 1 : 0;
    }
  };
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const c = x < y ? -1 : x > y ? 1 : 0;
    return c !== 0 ? sign * c : a.lastName.localeCompare(b.lastName);
  });
}

function tablePage(rows: SummaryRow[], params: ListParams<SummarySort>) {
  const q = params.q.toLowerCase();
  const matching = q
    ? rows.filter((r) => `${r.firstName} ${r.lastName}`.toLowerCase().includes(q))
    : rows;
  const page = Math.min(params.page, pageCount(matching.length));
  const sorted = sortRows(matching, params.sort, params.order);
  const start = skipFor(page);
  return {
    params: { ...params, page },
    matching: matching.length,
    rows: sorted.slice(start, start + PAGE_SIZE).map((r) => ({
      ...r,
      deviation: r.deviation ? ("yes" as const) : ("no" as const),
    })),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const chosen = user.currentCareSiteId;
  if (!chosen) return data({ careSites: user.careSites, page: null });
  const headers = new Headers();
  const session = await getSession(request);
  if (rememberCareSite(session, user, chosen) === "stored") {
    headers.set("Set-Cookie", await commitSession(session));
  }
  const { site, day, settings, sent, rows, archive } = notFoundUnless(
    await notificationSummaryFor(user, chosen),
  );
  const params = readListParams(request.url, {
    sorts: SUMMARY_SORTS,
    defaultSort: "lastName",
  });
  const table = tablePage(rows, params);
  const archiveHref = (d: string) => `${PATH}/csv?${new URLSearchParams({ c: site.id, day: d })}`;
  return data(
    {
      careSites: user.careSites,
      page: {
        careSiteId: site.id,
        careSiteName: site.name,
        settings: {
          adherence: settings.adherence,
          spo2: settings.spo2,
          therapyAdjustment: settings.therapyAdjustment,
        },
        // Both care site roles see the edit icon (spec 2 §6); a clinician's page is read-only.
        editHref: notificationSettingsHref(site.id),
        dayLabel: formatDay(day),
        // Yesterday's rows are those the summary sent (its archive), not today's settings' list.
        sent,
        table: { ...table, total: rows.length },
        csvHref: `${PATH}/csv?${new URLSearchParams({ c: site.id })}`,
        archive: archive.map((a) => ({
          day: a.day,
          date: formatDay(a.day),
          reportName: a.reportName,
          generated: a.generated,
          href: archiveHref(a.day),
        })),
      },
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const form = await readForm(request);
  if (form.get("intent") !== "chooseCareSite") badRequest("Unknown intent");
  const choice = await parseForm(form, chooseCareSiteSchema);
  const session = await getSession(request);
  const careSiteId = choice.ok ? choice.data.careSiteId : null;
  notFoundUnless(rememberCareSite(session, user, careSiteId) !== "refused");
  return redirect(PATH, { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function NotificationSummaryPage() {
  const { careSites, page } = useLoaderData<typeof loader>();
  return <NotificationSummaryView careSites={careSites} page={page} />;
}
