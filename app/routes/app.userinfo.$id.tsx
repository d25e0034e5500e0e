// /app/userinfo/{id}: another user's profile, read-only (spec 1 §2.8). Only users who share a care
// site with the viewer (the provider's admins: anyone); otherwise 404.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReadOnlyField } from "~/ui/forms";
import { requireActor } from "~/domain/actor.server";
import { notFoundUnless } from "~/lib/http.server";
import { photoUrl } from "~/lib/photoUrl";
import { STAFF_ROLES } from "~/domain/roles";
import { audit } from "~/domain/audit.server";
import { getVisibleProfile } from "~/domain/accounts/user.server";
import type { RouteHandle } from "~/root";

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
    ["addressLine1", "Address line 1", profile.addressLine1],
    ["addressLine2", "Address line 2", profile.addressLine2],
    ["country", "Country", profile.country],
    ["state", "State", profile.state],
    ["city", "City", profile.city],
    ["zip", "Zip", profile.zip],
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
          <div className="row">
            {fields.map(([id, label, value]) => (
              <div className="col-md-6" key={id}>
                <ReadOnlyField id={id} label={label} value={value} />
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
