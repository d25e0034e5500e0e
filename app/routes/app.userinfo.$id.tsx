// /app/userinfo/{id}: another user's profile, read-only (spec 1 §2.8). Only users who share a care
// site with the viewer (the provider's admins: anyone); otherwise 404.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { addressRows, ReadOnlyFields } from "~/ui/forms";
import { requireActor } from "~/domain/actor.server";
import { notFoundUnless } from "~/lib/http.server";
import { photoUrl } from "~/lib/photoUrl";
import { STAFF_ROLES } from "~/domain/roles";
import { audit } from "~/domain/audit.server";
import { getVisibleProfile } from "~/domain/accounts/user.server";
import type { RouteHandle } from "~/ui/rootData";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "User profile", hydrate: false };
export const meta: MetaFunction = () => [{ title: "User profile | ARC Connect" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireActor(request, STAFF_ROLES);
  const profile = notFoundUnless(await getVisibleProfile(viewer, params.id ?? ""));
  if (profile.role === "patient") {
    await audit({
      actorId: viewer.id,
      action: "patient.profile_viewed",
      targetType: "User",
      targetId: profile.id,
    });
  }
  return { profile: { ...profile, photoUrl: photoUrl(profile.photoId) } };
}

export default function UserInfo() {
  const { profile } = useLoaderData<typeof loader>();
  const fields: [string, string, string | null][] = [
    ["username", "User name", profile.username],
    ["firstName", "First name", profile.firstName],
    ["lastName", "Last name", profile.lastName],
    ...addressRows(profile),
    ["phone", "Phone", `+${profile.phone}`],
    ["email", "Email", profile.email],
  ];
  return (
    <div className="card">
      <div className="card-body row">
        <div className="col-lg-3 text-center mb-3">
          <img src={profile.photoUrl} alt="" width={128} height={128} className="rounded-circle" />
        </div>
        <div className="col-lg-9">
          <ReadOnlyFields fields={fields} />
        </div>
      </div>
    </div>
  );
}
