// /app: the role home (spec 1 §2.2). The provider's admins get the administrator dashboard
// (spec 2 §2 "Super admin dashboard", with the Add Care Site dialog); care site staff the care
// site dashboard for the care site chosen in the session.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  ADD_CARE_SITE_DIALOG,
  AdminDashboard,
  DASHBOARD_TABS,
  DEFAULT_CARE_SITE_PHOTO,
  DEFAULT_TAB,
  LIST_PREFIX,
  type AdminDashboardData,
  type DashboardTab,
} from "~/domain/careSites/ui/AdminDashboard";
import { rememberCareSite, requireActor } from "~/domain/actor.server";
import type { Actor } from "~/domain/access.server";
import { readForm } from "~/lib/formBody.server";
import { badRequest, clientIp, forbidden, notFoundUnless } from "~/lib/http.server";
import { pageCount, readListParams } from "~/lib/listParams";
import { photoUrl } from "~/lib/photoUrl";
import { invitationsPath, isProviderRole, isSiteRole, STAFF_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import {
  CARE_SITE_SORTS,
  FORM_TOKEN_REGEX,
  PERSON_SORTS,
  addCareSiteFromForm,
  getEnrolledCounts,
  getPatientLinks,
  getPersonNotice,
  listCareSites,
  listEnrolledPeople,
  newFormToken,
  type EnrolledRole,
} from "~/domain/careSites/careSite.server";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { CareSiteDashboard } from "~/domain/adherence/ui/CareSiteDashboard";
import {
  careSiteDashboard,
  CATEGORIES,
  CATEGORY_LABELS,
  LIST_SORTS,
  type Category,
} from "~/domain/adherence/dashboard.server";
import type { RouteHandle } from "~/root";

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
    notice: noticeRow
      ? `${noticeRow.firstName} ${noticeRow.lastName} is not associated with any device`
      : null,
    csvHref: list ? `/app/dashboard/csv?c=${careSiteId}&list=${list}&${rangeParams}` : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const form = await readForm(request);
  switch (form.get("intent")) {
    case "chooseCareSite": {
      if (!isSiteRole(user.role)) forbidden();
      const session = await getSession(request);
      notFoundUnless(rememberCareSite(session, user, form.get("careSiteId")) !== "refused");
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
  if (home.kind === "admin") return <AdminDashboard data={home} />;
  return <CareSiteDashboard data={home} />;
}

// --- The administrators' dashboard -------------------------------------------------------------

async function adminDashboard(request: Request, actor: Actor): Promise<AdminDashboardData> {
  const url = new URL(request.url);
  const tabParam = url.searchParams.get("tab");
  const tab: DashboardTab = (DASHBOARD_TABS as readonly string[]).includes(tabParam ?? "")
    ? (tabParam as DashboardTab)
    : DEFAULT_TAB;
  const noticeId = url.searchParams.get("notice");
  const [counts, list, notice] = await Promise.all([
    getEnrolledCounts(actor),
    tab === "caresite" ? careSiteList(url, actor) : personList(url, tab, actor),
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

/** Runs a list query; a page past the end shows the last page instead of an empty one. */
async function lastPageIfPast<P extends { page: number }, T extends { total: number }>(
  params: P,
  run: (params: P) => Promise<T>,
) {
  const result = await run(params);
  const last = pageCount(result.total);
  if (params.page <= last) return { params, result };
  const clamped = { ...params, page: last };
  return { params: clamped, result: await run(clamped) };
}

async function careSiteList(url: URL, actor: Actor) {
  const { params, result } = await lastPageIfPast(
    readListParams(url, {
      sorts: CARE_SITE_SORTS,
      defaultSort: "name",
      prefix: LIST_PREFIX.caresite,
    }),
    (p) => listCareSites(actor, p),
  );
  return {
    tab: "caresite" as const,
    params,
    total: result.total,
    rows: result.rows.map((site) => ({
      id: site.id,
      name: site.name,
      city: site.city,
      state: site.state,
      zip: site.zip,
      photoUrl: site.photoId ? photoUrl(site.photoId) : DEFAULT_CARE_SITE_PHOTO,
      href: `/app/clinicprofiledetails?c_id=${encodeURIComponent(site.id)}`,
    })),
  };
}

async function personList(url: URL, role: EnrolledRole, actor: Actor) {
  const { params, result } = await lastPageIfPast(
    readListParams(url, {
      sorts: PERSON_SORTS,
      defaultSort: "lastName",
      prefix: LIST_PREFIX[role],
    }),
    (p) => listEnrolledPeople(actor, { ...p, role }),
  );
  const patientLinks =
    role === "patient"
      ? await getPatientLinks(
          actor,
          result.rows.filter((r) => r.status === "Accepted").map((r) => r.id),
        )
      : null;
  const noticeHref = (userId: string) => {
    const search = new URLSearchParams({ tab: role });
    for (const [k, v] of url.searchParams) {
      if (!["tab", "notice", "dialog", "index"].includes(k)) search.append(k, v);
    }
    search.set("notice", userId);
    return `/app?${search.toString()}#list`;
  };
  // Row clicks (spec 2 §2): accepted staff open their profile; an accepted patient opens the
  // patient profile when a device is paired, else shows the warning; pending rows the warning.
  const hrefOf = (row: (typeof result.rows)[number]) => {
    if (row.status !== "Accepted") return noticeHref(row.id);
    if (role !== "patient") return `/app/userinfo/${encodeURIComponent(row.id)}`;
    const link = patientLinks?.get(row.id);
    if (!link?.pairId) return noticeHref(row.id);
    return patientProfileHref({
      profileId: row.id,
      clinicId: link.careSiteId,
      pairId: link.pairId,
    });
  };
  return {
    tab: role,
    params,
    total: result.total,
    rows: result.rows.map((row) => ({
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      status: row.status,
      photoUrl: photoUrl(row.photoId),
      href: hrefOf(row),
    })),
  };
}

// --- Add Care Site -----------------------------------------------------------------------------

async function addCareSite(request: Request, form: FormData, user: Actor) {
  const tokens = form.getAll("formToken");
  const formToken = tokens[0];
  if (tokens.length !== 1 || typeof formToken !== "string" || !FORM_TOKEN_REGEX.test(formToken)) {
    badRequest("The form is incomplete");
  }
  const outcome = await addCareSiteFromForm(user, form, { formToken, ip: clientIp(request) });
  if (!outcome.ok) {
    // The shape of remix-validated-form's validationError (field messages and the values typed,
    // so the form shows them again), plus the form-level alert of a duplicate.
    const { status, fieldErrors, values, formError } = outcome;
    return data({ fieldErrors, repopulateFields: values, formError }, { status });
  }
  const session = await getSession(request);
  flash(session, "success", outcome.message);
  return redirect("/app?tab=caresite", {
    headers: { "Set-Cookie": await commitSession(session) },
  });
}
