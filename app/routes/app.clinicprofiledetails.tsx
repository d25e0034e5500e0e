// /app/clinicprofiledetails?c_id=<careSiteId>: the Care Site Profile (spec 1 §2.9, §5.6, §8) for
// the provider's admins (superadmin, abmadmin; others 403). An unknown c_id answers 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AddCareSiteDialog } from "~/domain/careSites/ui/AddCareSiteDialog";
import { mayAdministerAllCareSites } from "~/domain/access.server";
import { newFormToken } from "~/domain/careSites/careSite.server";
import { submitAddCareSite, type AddCareSiteFailure } from "~/domain/careSites/addCareSite.server";
import { useCloseHref, useDialogHref } from "~/ui/Dialog";
import { Flash } from "~/ui/Flash";
import { CARE_SITE_ADDED_MS, snackbarDelay } from "~/ui/delays";
import { CareSiteDetailsCard } from "~/domain/careSites/ui/CareSiteDetails";
import { CareSitePictureForm } from "~/domain/careSites/ui/CareSitePictureForm";
import { CareSiteForm, type CareSiteFormReply } from "~/domain/careSites/ui/CareSiteProfileForm";
import { requireActor } from "~/domain/actor.server";
import { formReply, parseForm } from "~/lib/form.server";
import { readForm } from "~/lib/formBody.server";
import { badRequest, clientIp, forbidden, notFound, notFoundUnless } from "~/lib/http.server";
import { careSitePictureUrl, photoUrl } from "~/lib/photoUrl";
import { PROVIDER_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import { parsePhotoUpload } from "~/lib/uploads.server";
import {
  getCareSiteProfile,
  setManagedCareSitePicture,
  listActiveCareSiteAdmins,
  updateCareSite,
} from "~/domain/careSites/management.server";
import type { RouteHandle } from "~/ui/rootData";
import {
  ADD_CARE_SITE_FORM_ID,
  careSiteMessages,
  careSiteProfileSchema,
  careSiteProfileValidator,
} from "~/domain/careSites/schema";

export const handle: RouteHandle = { heading: "Care Site Profile" };

const CARE_SITE_VIEW = "/app/clinicprofiledetails";

function careSiteIdOf(request: Request) {
  return new URL(request.url).searchParams.get("c_id") ?? "";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, PROVIDER_ROLES);
  const careSiteId = careSiteIdOf(request);
  const dialog = new URL(request.url).searchParams.get("dialog");
  const site = notFoundUnless(careSiteId ? await getCareSiteProfile(user, careSiteId) : null);
  const admins = await listActiveCareSiteAdmins(user, site.id);
  const { photoId, ...details } = site;
  return {
    site: { ...details, pictureUrl: careSitePictureUrl(photoId) },
    admins: admins.map((a) => ({ id: a.id, email: a.email, photoUrl: photoUrl(a.photoId) })),
    // Add Care Site from the care site view (issue 21 item 10): for whoever may add one.
    mayAddCareSite: mayAdministerAllCareSites(user),
    addCareSite:
      dialog === ADD_CARE_SITE_FORM_ID && mayAdministerAllCareSites(user)
        ? { formToken: newFormToken() }
        : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, PROVIDER_ROLES);
  const careSiteId = careSiteIdOf(request);
  const site = notFoundUnless(careSiteId ? await getCareSiteProfile(user, careSiteId) : null);
  const saved = async (message: string) => {
    const session = await getSession(request);
    flash(session, "success", message);
    return redirect(`/app/clinicprofiledetails?c_id=${encodeURIComponent(site.id)}`, {
      headers: { "Set-Cookie": await commitSession(session) },
    });
  };

  // The care site picture (spec 1 §2.9 details card, §7 "Update care site picture"): 1:1.
  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    const upload = await parsePhotoUpload(request, "picture");
    if (!upload.ok) return data({ photoError: upload.message }, { status: 400 });
    if (upload.formData.get("intent") !== "picture") badRequest();
    if (!upload.photo)
      return data({ photoError: careSiteMessages.pictureMissing }, { status: 400 });
    const picture = await setManagedCareSitePicture(user, site.id, upload.photo, {
      ip: clientIp(request),
      crop: upload.crop,
    });
    if (!picture) forbidden();
    if (!picture.ok) return data({ photoError: picture.message }, { status: 400 });
    return saved(careSiteMessages.pictureUpdated);
  }

  const form = await readForm(request);
  if (form.get("intent") === "addCareSite") {
    const added = await submitAddCareSite(user, form, "careSiteView", { ip: clientIp(request) });
    if (!added.ok) return added.reply;
    const session = await getSession(request);
    flash(session, "success", added.message, CARE_SITE_ADDED_MS);
    return redirect(`/app/clinicprofiledetails?c_id=${encodeURIComponent(added.careSite.id)}`, {
      headers: { "Set-Cookie": await commitSession(session) },
    });
  }
  if (form.get("intent") !== "profile") badRequest();
  const fields = await parseForm(form, careSiteProfileSchema);
  if (!fields.ok) return fields.reply;
  const outcome = await updateCareSite(user, site.id, fields.data, { ip: clientIp(request) });
  switch (outcome.status) {
    case "notFound":
      return notFound();
    case "unchanged":
      return data({ formInfo: careSiteMessages.unchanged }, { status: 400 });
    case "duplicateAccountNumber":
      return formReply({ accountNumber: careSiteMessages.accountNumberExists }, fields.values);
    case "updated":
      return saved(careSiteMessages.updated);
  }
}

type ActionData = (CareSiteFormReply & { photoError?: string; formId?: string }) | undefined;

export default function CareSiteProfile() {
  const { site, admins, mayAddCareSite, addCareSite } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData;
  const addAnswer = actionData?.formId === ADD_CARE_SITE_FORM_ID ? actionData : null;
  const failure = (addAnswer as Partial<AddCareSiteFailure> | null)?.snackbar;
  const dialogHref = useDialogHref();
  const closeDialogHref = useCloseHref();
  const showAddDialog = addCareSite !== null && !failure;
  return (
    <div className="row g-3">
      {failure ? (
        <Flash
          flash={{ kind: "danger", message: failure }}
          autoHideMs={snackbarDelay(CARE_SITE_VIEW)}
        />
      ) : null}
      {mayAddCareSite ? (
        <div className="col-12 d-flex justify-content-end">
          <Link
            to={dialogHref(ADD_CARE_SITE_FORM_ID)}
            className="btn btn-primary"
            preventScrollReset
          >
            Add Care Site
          </Link>
        </div>
      ) : null}
      {showAddDialog ? (
        <AddCareSiteDialog formToken={addCareSite.formToken} closeHref={closeDialogHref} />
      ) : null}
      {/* Side by side from 1200 px; at 1024 the side cards go below the form (issue 20 item 11). */}
      <div className="col-xl-8">
        <div className="card">
          <div className="card-body">
            {/* Not under the Add Care Site dialog: the two forms' fields share their ids. */}
            {showAddDialog ? null : (
              <CareSiteForm
                validator={careSiteProfileValidator}
                site={site}
                hidden={{ intent: "profile" }}
                accountNumber="editable"
                reply={addAnswer ? undefined : actionData}
              />
            )}
          </div>
        </div>
      </div>
      <div className="col-xl-4 d-flex flex-column gap-3">
        <section className="card" aria-labelledby="care-site-admins">
          <div className="card-body">
            <h2 className="h6" id="care-site-admins">
              Active Care Site Admin <span className="badge text-bg-primary">{admins.length}</span>
            </h2>
            {admins.length === 0 ? (
              <p className="mb-0 text-muted">{careSiteMessages.noAdmins}</p>
            ) : (
              <ul className="list-unstyled mb-0">
                {admins.map((admin) => (
                  <li key={admin.id} className="d-flex align-items-center gap-2 mb-2">
                    <img
                      src={admin.photoUrl}
                      alt=""
                      width={32}
                      height={32}
                      className="rounded-circle"
                    />
                    <span className="text-break">{admin.email}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </section>
        <CareSiteDetailsCard site={site} showPicture>
          <CareSitePictureForm error={actionData?.photoError} />
        </CareSiteDetailsCard>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Care Site Profile | ARC Connect" }];

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";
