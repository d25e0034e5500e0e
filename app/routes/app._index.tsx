// /app: the role home (spec 1 §2.2). The provider's admins get the administrator dashboard
// (spec 2 §2 "Super admin dashboard", with the Add Care Site dialog); care site staff the care
// site dashboard for the care site chosen in the session.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  ADD_CARE_SITE_DIALOG,
  AdminDashboard,
  DASHBOARD_TABS,
  DEFAULT_TAB,
  LIST_PREFIX,
  type AdminDashboardData,
  type DashboardTab,
} from "~/domain/careSites/ui/AdminDashboard";
import { rememberCareSite, requireActor } from "~/domain/actor.server";
import type { Actor } from "~/domain/access.server";
import { parseForm } from "~/lib/form.server";
import { readForm } from "~/lib/formBody.server";
import { badRequest, clientIp, forbidden, notFoundUnless } from "~/lib/http.server";
import { readListParams } from "~/lib/listParams";
import { invitationsPath, isProviderRole, isSiteRole, STAFF_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import {
  CARE_SITE_SORTS,
  PERSON_SORTS,
  getEnrolledCounts,
  getPersonNotice,
  newFormToken,
} from "~/domain/careSites/careSite.server";
import { careSiteList, personList } from "~/domain/careSites/adminLists.server";
import { chooseCareSiteSchema } from "~/domain/careSites/schema";
import { submitAddCareSite } from "~/domain/careSites/addCareSite.server";
import { CARE_SITE_ADDED_MS } from "~/ui/delays";
import { CareSiteDashboard } from "~/domain/adherence/ui/CareSiteDashboard";
import { notAssociatedWithDevice } from "~/domain/patients/profileLink";
import {
  careSiteDashboard,
  CATEGORIES,
  CATEGORY_LABELS,
  LIST_SORTS,
  type Category,
} from "~/domain/adherence/dashboard.server";
import type { RouteHandle } from "~/ui/rootData";
import { AnnouncementCards } from "~/ui/AnnouncementCards";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = {
  heading: (role) => (isSiteRole(role) ? "Care Site Dashboard" : "Dashboard"),
};

const isAdmin = isProviderRole;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  if (!isSiteRole(user.role)) {
    return { kind: "admin" as const, ...(await adminDashboard(request, user)) };
  }
  const careSiteId = user.currentCareSiteId;
  return {
    kind: "careSite" as const,
    careSites: user.careSites,
    careSiteId,
    dashboard: careSiteId ? await siteDashboard(request, user, careSiteId) : null,
  };
}

async function siteDashboard(request: Request, actor: Actor, careSiteId: string) {
  const url = new URL(request.url);
  const list = (CATEGORIES as readonly string[]).includes(url.searchParams.get("list") ?? "")
    ? (url.searchParams.get("list") as Category)
    : null;
  const params = readListParams(url, { sorts: LIST_SORTS, defaultSort: "lastName" });
  const dashboard = notFoundUnless(
    await careSiteDashboard(actor, careSiteId, { search: url.searchParams, list, params }),
  );
  const noticeId = url.searchParams.get("notice");
  const noticeRow = noticeId
    ? dashboard.list?.rows.find((r) => r.patientId === noticeId && !r.href)
    : null;
  const rangeParams = new URLSearchParams();
  for (const key of ["range", "from", "to"]) {
    const value = url.searchParams.get(key);
    if (value) rangeParams.set(key, value);
  }
  return {
    ...dashboard,
    labels: CATEGORY_LABELS,
    params,
    notice: noticeRow ? notAssociatedWithDevice(noticeRow.firstName, noticeRow.lastName) : null,
    csvHref: list ? `/app/dashboard/csv?c=${careSiteId}&list=${list}&${rangeParams}` : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const form = await readForm(request);
  switch (form.get("intent")) {
    case "chooseCareSite": {
      if (!isSiteRole(user.role)) forbidden();
      const choice = await parseForm(form, chooseCareSiteSchema);
      const session = await getSession(request);
      const careSiteId = choice.ok ? choice.data.careSiteId : null;
      notFoundUnless(rememberCareSite(session, user, careSiteId) !== "refused");
      return redirect("/app", { headers: { "Set-Cookie": await commitSession(session) } });
    }
    case "addCareSite":
      if (!isAdmin(user.role)) forbidden();
      return addCareSite(request, form, user);
    default:
      badRequest("Unknown intent");
  }
}

export default function Home() {
  const home = useLoaderData<typeof loader>();
  return (
    <>
      {home.kind === "admin" ? <AdminDashboard data={home} /> : <CareSiteDashboard data={home} />}
      <AnnouncementCards />
    </>
  );
}

// --- The administrators' dashboard -------------------------------------------------------------

async function adminDashboard(request: Request, actor: Actor): Promise<AdminDashboardData> {
  const url = new URL(request.url);
  const tabParam = url.searchParams.get("tab");
  const tab: DashboardTab = (DASHBOARD_TABS as readonly string[]).includes(tabParam ?? "")
    ? (tabParam as DashboardTab)
    : DEFAULT_TAB;
  const noticeId = url.searchParams.get("notice");
  // A person row's warning: this page with the same list parameters and the row's notice.
  const noticeHref = (userId: string) => {
    const search = new URLSearchParams({ tab });
    for (const [k, v] of url.searchParams) {
      if (!["tab", "notice", "dialog", "index"].includes(k)) search.append(k, v);
    }
    search.set("notice", userId);
    return `/app?${search.toString()}#list`;
  };
  const [counts, list, notice] = await Promise.all([
    getEnrolledCounts(actor),
    tab === "caresite"
      ? careSiteList(
          actor,
          readListParams(url, {
            sorts: CARE_SITE_SORTS,
            defaultSort: "name",
            prefix: LIST_PREFIX[tab],
          }),
        )
      : personList(
          actor,
          tab,
          readListParams(url, {
            sorts: PERSON_SORTS,
            defaultSort: "lastName",
            prefix: LIST_PREFIX[tab],
          }),
          noticeHref,
        ),
    noticeId && tab !== "caresite" ? getPersonNotice(actor, tab, noticeId) : null,
  ]);
  const invitations = invitationsPath(actor.role);
  return {
    counts,
    list,
    notice,
    inviteHref: invitations ? `${invitations}?dialog=invite&role=clinicadmin` : null,
    addCareSite:
      url.searchParams.get("dialog") === ADD_CARE_SITE_DIALOG
        ? { formToken: newFormToken() }
        : null,
  };
}

// --- Add Care Site -----------------------------------------------------------------------------

async function addCareSite(request: Request, form: FormData, user: Actor) {
  const added = await submitAddCareSite(user, form, "dashboard", { ip: clientIp(request) });
  if (!added.ok) return added.reply;
  const session = await getSession(request);
  flash(session, "success", added.message, CARE_SITE_ADDED_MS);
  return redirect("/app?tab=caresite", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}
