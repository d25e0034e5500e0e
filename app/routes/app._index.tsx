// /app: the role home (spec 1 §2.2). The provider's admins get the administrator dashboard; care
// site staff the care site dashboard for the care site chosen in the session.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/lib/auth.server";
import { badRequest, notFoundUnless } from "~/lib/http.server";
import { isSiteRole, STAFF_ROLES } from "~/lib/roles";
import { commitSession, getSession } from "~/lib/session.server";
import { formatDay, yesterdayInZone } from "~/lib/time";
import { getEnrolledCounts } from "~/models/careSite.server";
import type { RouteHandle } from "~/root";

export { AppErrorBoundary as ErrorBoundary } from "~/components/ErrorPage";

export const handle: RouteHandle = {
  heading: (role) => (isSiteRole(role) ? "Care Site Dashboard" : "Dashboard"),
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, STAFF_ROLES);
  if (!isSiteRole(user.role)) {
    return { kind: "admin" as const, counts: await getEnrolledCounts() };
  }
  const session = await getSession(request);
  const chosen = session.get("careSiteId");
  const careSite = user.careSites.find((c) => c.id === chosen) ?? user.careSites[0] ?? null;
  return {
    kind: "careSite" as const,
    careSites: user.careSites,
    careSiteId: careSite?.id ?? null,
    asOf: formatDay(yesterdayInZone()),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, ["clinicadmin", "clinician"]);
  const form = await request.formData();
  if (form.get("intent") !== "chooseCareSite") badRequest();
  const careSiteId = String(form.get("careSiteId") ?? "");
  notFoundUnless(user.careSites.some((c) => c.id === careSiteId));
  const session = await getSession(request);
  session.set("careSiteId", careSiteId);
  return redirect("/app", { headers: { "Set-Cookie": await commitSession(session) } });
}

export default function Home() {
  const home = useLoaderData<typeof loader>();
  if (home.kind === "admin") {
    const { counts } = home;
    return (
      <div className="row g-3">
        <div className="col-12">
          <div className="card">
            <div className="card-body">
              <div className="text-muted">Enrolled Care Sites</div>
              <div className="display-6" data-testid="count-caresites">
                {counts.careSites}
              </div>
            </div>
          </div>
        </div>
        {[
          ["Patients", counts.patients],
          ["Clinicians", counts.clinicians],
          ["Care Site Admins", counts.careSiteAdmins],
        ].map(([label, value]) => (
          <div className="col-md-4" key={label}>
            <div className="card h-100">
              <div className="card-body">
                <div className="text-muted">{label}</div>
                <div className="h2 mb-0">{value}</div>
              </div>
            </div>
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="card">
      <div className="card-body d-flex flex-wrap gap-3 align-items-end justify-content-between">
        {home.careSites.length === 0 ? (
          <p className="mb-0">No clinic found</p>
        ) : (
          <Form method="post" className="d-flex gap-2 align-items-end">
            <div>
              <label htmlFor="careSiteId" className="form-label">
                Care Site
              </label>
              <select
                id="careSiteId"
                name="careSiteId"
                className="form-select"
                defaultValue={home.careSiteId ?? undefined}
              >
                {home.careSites.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="submit"
              name="intent"
              value="chooseCareSite"
              className="btn btn-outline-primary"
            >
              Show
            </button>
          </Form>
        )}
        <p className="mb-0 text-muted">Dashboard data as of {home.asOf}</p>
      </div>
    </div>
  );
}
