// /app/settings: Edit user profile (spec 1 §2.7, §5.5) and the profile photo (1:1, stored by us).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import {
  CountryAndState,
  FieldErrorsAlert,
  ImageUploadFields,
  ReadOnlyField,
  SubmitButton,
  TextField,
} from "~/ui/forms";
import { NameFields } from "~/domain/accounts/ui/ProfileFields";
import { useDirtyForm } from "~/ui/useDirtyForm";
import { readForm } from "~/lib/formBody.server";
import { parseForm } from "~/lib/form.server";
import { requireRole } from "~/domain/accounts/auth.server";
import { photoUrl } from "~/lib/photoUrl";
import { STAFF_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import { parsePhotoUpload } from "~/lib/uploads.server";
import { setUserPhoto } from "~/domain/accounts/photo.server";
import { getProfile, updateProfile } from "~/domain/accounts/user.server";
import type { RouteHandle } from "~/ui/rootData";
import { accountMessages, profileSchema, profileValidator } from "~/domain/accounts/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Edit user profile" };
export const meta: MetaFunction = () => [{ title: "Edit user profile | ARC Connect" }];

const UNCHANGED = "Nothing to save: the profile is unchanged.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, STAFF_ROLES);
  const profile = await getProfile(user.id);
  return { profile: { ...profile, photoUrl: photoUrl(profile.photoId) } };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, STAFF_ROLES);
  const session = await getSession(request);
  const saved = async (message: string) => {
    flash(session, "success", message);
    return redirect("/app/settings", { headers: { "Set-Cookie": await commitSession(session) } });
  };

  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    const upload = await parsePhotoUpload(request);
    if (!upload.ok) return data({ photoError: upload.message }, { status: 400 });
    if (!upload.photo)
      return data({ photoError: "Please choose a photo to upload." }, { status: 400 });
    const result = await setUserPhoto(user.id, upload.photo, upload.crop);
    if (!result.ok) return data({ photoError: result.message }, { status: 400 });
    return saved("Profile photo was updated successfully");
  }

  const form = await readForm(request);
  if (form.get("intent") !== "profile") throw new Response("Unknown intent", { status: 400 });
  const result = await parseForm(form, profileSchema);
  if (!result.ok) return result.reply;
  const outcome = await updateProfile(user.id, result.data);
  if (outcome === "unchanged") return data({ formInfo: UNCHANGED }, { status: 400 });
  return saved(accountMessages.profileUpdated);
}

export default function EditProfile() {
  const { profile } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as
    { fieldErrors?: unknown; formInfo?: string; photoError?: string } | undefined;
  const saved = {
    firstName: profile.firstName,
    lastName: profile.lastName,
    addressLine1: profile.addressLine1 ?? "",
    addressLine2: profile.addressLine2 ?? "",
    country: profile.country ?? "United States",
    state: profile.state ?? "",
    city: profile.city ?? "",
    zip: profile.zip ?? "",
  };
  const dirty = useDirtyForm(saved);
  return (
    <div className="row g-3">
      <div className="col-lg-3">
        <div className="card">
          <div className="card-body text-center">
            <img
              src={profile.photoUrl}
              alt="Profile"
              width={128}
              height={128}
              className="rounded-circle mb-3"
            />
            <Form method="post" encType="multipart/form-data">
              <ImageUploadFields
                id="photo"
                name="photo"
                label="Photo"
                error={actionData?.photoError}
                button="Upload photo"
              />
            </Form>
          </div>
        </div>
      </div>
      <div className="col-lg-9">
        <div className="card">
          <div className="card-body">
            {actionData?.formInfo ? (
              <div className="alert alert-info" role="status">
                {actionData.formInfo}
              </div>
            ) : null}
            <ValidatedForm
              validator={profileValidator}
              method="post"
              noValidate
              key={dirty.key}
              formRef={dirty.ref}
              onChange={dirty.onChange}
              defaultValues={saved}
            >
              <input type="hidden" name="intent" value="profile" />
              <div className="row">
                <div className="col-md-6">
                  <ReadOnlyField id="username" label="User name" value={profile.username} />
                </div>
                <div className="col-md-6" />
                <NameFields />
                <div className="col-md-6">
                  <TextField
                    name="addressLine1"
                    label="Address line 1"
                    autoComplete="address-line1"
                  />
                </div>
                <div className="col-md-6">
                  <TextField
                    name="addressLine2"
                    label="Address line 2"
                    autoComplete="address-line2"
                  />
                </div>
                <CountryAndState />
                <div className="col-md-6">
                  <TextField name="city" label="City" autoComplete="address-level2" />
                </div>
                <div className="col-md-6">
                  <TextField name="zip" label="Zip" autoComplete="postal-code" />
                </div>
                <div className="col-md-6">
                  <ReadOnlyField id="phone" label="Phone" value={`+${profile.phone}`} />
                </div>
                <div className="col-md-6">
                  <ReadOnlyField id="email" label="Email" value={profile.email} />
                </div>
              </div>
              <SubmitButton disabled={dirty.disabled}>Submit</SubmitButton>
              {/* §5.5 "Any error" and §8 "Profile update failure", once a Submit was refused. */}
              <FieldErrorsAlert message={accountMessages.formErrorInputs} />
              <FieldErrorsAlert message={accountMessages.profileNotUpdated} />
            </ValidatedForm>
          </div>
        </div>
      </div>
    </div>
  );
}
