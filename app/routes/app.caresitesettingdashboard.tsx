// /app/caresitesettingdashboard: care site management for its staff (spec 2 "Care site management
// view", §3-§4, §6, §8). GET parameters: c (care site, default the first of the user's), view
// (patient | clinician | clinicadmin, default clinician), q/sort/order/page (the list), dialog
// (details | withdraw, with m = membership id) and notice (a patient's user id: "not associated
// with any device"). Posts: intent details | withdraw, and a multipart intent picture.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CareSiteDetailsCard, CareSiteDetailsLink } from "~/domain/careSites/ui/CareSiteDetails";
import { CareSiteDetailsDialog } from "~/domain/careSites/ui/CareSiteDetailsDialog";
import { CareSiteCountCards, CareSiteMemberTable } from "~/domain/careSites/ui/CareSiteMembers";
import { CareSitePicker } from "~/domain/careSites/ui/CareSitePicker";
import { ConfirmDialog, useCloseHref, useDialogHref } from "~/ui/Dialog";
import type { Actor } from "~/domain/access.server";
import { parseForm } from "~/lib/form.server";
import { readForm } from "~/lib/formBody.server";
import { requireActor } from "~/domain/actor.server";
import { badRequest, clientIp, forbidden, notFound, notFoundUnless } from "~/lib/http.server";
import { readListParams } from "~/lib/listParams";
import { careSitePictureUrl } from "~/lib/photoUrl";
import { SITE_ROLES } from "~/domain/roles";
import { commitSession, flash, getSession } from "~/lib/session.server";
import { parsePhotoUpload } from "~/lib/uploads.server";
import {
  getManagedCareSite,
  setManagedCareSitePicture,
  updateCareSite,
} from "~/domain/careSites/management.server";
import {
  countEnrolled,
  DEFAULT_ENROLLED_ROLE,
  DEFAULT_ENROLLED_SORT,
  isEnrolledRole,
  listEnrolled,
  memberRowsFor,
  noDeviceNotice,
  sortsFor,
  withdrawableMember,
  withdrawMembership,
  type EnrolledRole,
} from "~/domain/careSites/members.server";
import type { RouteHandle } from "~/ui/rootData";
import {
  careSiteDetailsSchema,
  careSiteIdSchema,
  careSiteMessages,
  withdrawSchema,
} from "~/domain/careSites/schema";

export const handle: RouteHandle = { heading: "Care Site" };

const PATH = "/app/caresitesettingdashboard";

/** The page of a care site and list, keeping the named parameters of `from` (links, redirects). */
function pageUrl(careSiteId: string, from: URLSearchParams, keep: string[], path = PATH) {
  const search = new URLSearchParams({ c: careSiteId });
  for (const key of keep) {
    const value = from.get(key);
    if (value) search.set(key, value);
  }
  return `${path}?${search.toString()}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const url = new URL(request.url);
  const careSites = user.careSites;
  const careSiteId = url.searchParams.get("c") || user.currentCareSiteId;
  if (!careSiteId) return { careSites, page: null };
  const site = notFoundUnless(await getManagedCareSite(user, careSiteId));

  const requested = url.searchParams.get("view");
  const view = isEnrolledRole(requested) ? requested : DEFAULT_ENROLLED_ROLE;
  const params = readListParams(url, { sorts: sortsFor(view), defaultSort: DEFAULT_ENROLLED_SORT });
  const [counts, list] = await Promise.all([
    countEnrolled(user, site.id),
    listEnrolled(user, site.id, view, params),
  ]);

  const dialog = url.searchParams.get("dialog");
  const withdrawId = dialog === "withdraw" ? url.searchParams.get("m") : null;
  const target = withdrawId ? await withdrawableMember(user, site.id, withdrawId) : null;
  const noticeId = url.searchParams.get("notice");
  const notice = noticeId ? await noDeviceNotice(user, site.id, noticeId) : null;

  const csv = new URLSearchParams(url.searchParams);
  csv.set("view", view);
  const { siteRole: _siteRole, canEdit, photoId, ...details } = site;
  return {
    careSites,
    page: {
      site: { ...details, pictureUrl: careSitePictureUrl(photoId), canEdit },
      view,
      params,
      counts,
      total: list.total,
      rows: memberRowsFor(user, site.id, list.rows),
      csvHref: pageUrl(site.id, csv, ["view", "q", "sort", "order"], `${PATH}/csv`),
      dialog: dialog === "details" ? ("details" as const) : null,
      withdraw: target ? { membershipId: target.membershipId, careSiteId: site.id } : null,
      notice,
      // The invitations screen of the user's role, its dialog open (spec 1 §2.3, spec 2 §5):
      // a clinicadmin invites any of the three roles, a clinician only patients.
      invite:
        user.role === "clinicadmin"
          ? { path: "/app/clinicadmin", roles: ["patient", "clinician", "clinicadmin"] }
          : { path: "/app/cliniciantable", roles: ["patient"] },
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const url = new URL(request.url);
  const ip = clientIp(request);
  const done = async (careSiteId: string, message: string, keep: string[]) => {
    const session = await getSession(request);
    flash(session, "success", message);
    return redirect(pageUrl(careSiteId, url.searchParams, keep), {
      headers: { "Set-Cookie": await commitSession(session) },
    });
  };

  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    const upload = await parsePhotoUpload(request, "picture");
    if (!upload.ok) return data({ photoError: upload.message }, { status: 400 });
    if (upload.formData.get("intent") !== "picture") badRequest();
    const site = await editableSite(user, upload.formData);
    if (!upload.photo)
      return data({ photoError: careSiteMessages.pictureMissing }, { status: 400 });
    const saved = await setManagedCareSitePicture(user, site.id, upload.photo, {
      ip,
      crop: upload.crop,
    });
    if (!saved) forbidden();
    if (!saved.ok) return data({ photoError: saved.message }, { status: 400 });
    return done(site.id, careSiteMessages.pictureUpdated, ["view", "dialog"]);
  }

  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "details") {
    const site = await editableSite(user, form);
    const fields = await parseForm(form, careSiteDetailsSchema);
    if (!fields.ok) return fields.reply;
    const outcome = await updateCareSite(user, site.id, fields.data, { ip });
    if (outcome.status === "notFound") forbidden();
    if (outcome.status === "unchanged")
      return data({ formInfo: careSiteMessages.unchanged }, { status: 400 });
    if (outcome.status === "duplicateAccountNumber") badRequest();
    return done(site.id, careSiteMessages.detailsUpdated, ["view", "q", "sort", "order", "page"]);
  }
  if (intent === "withdraw") {
    const ids = await parseForm(form, withdrawSchema);
    if (!ids.ok) badRequest();
    const outcome = await withdrawMembership(user, ids.data.membershipId, { ip });
    if (!outcome.ok) {
      if (outcome.reason === "forbidden") forbidden();
      notFound();
    }
    return done(
      outcome.careSiteId,
      careSiteMessages.withdrawn(outcome.name, outcome.careSiteName),
      ["view", "q", "sort", "order"],
    );
  }
  badRequest();
}

/** The care site a post names: 404 unless it is one of the actor's, 403 unless they may edit it. */
async function editableSite(user: Actor, form: FormData) {
  const ids = await parseForm(form, careSiteIdSchema);
  const site = notFoundUnless(ids.ok ? await getManagedCareSite(user, ids.data.careSiteId) : null);
  if (!site.canEdit) forbidden();
  return site;
}

type ActionData = { fieldErrors?: unknown; formInfo?: string; photoError?: string } | undefined;

export default function CareSiteManagement() {
  const { careSites, page } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData;
  const dialogHref = useDialogHref();
  const closeDialog = useCloseHref(["dialog", "m"]);
  const closeNotice = useCloseHref(["notice"]);
  if (!page) return <p className="card card-body">No clinic found</p>;
  const { site, view } = page;
  const viewHref = (role: EnrolledRole) => `${PATH}?c=${site.id}&view=${role}`;
  const inviteHref = (role: EnrolledRole) =>
    page.invite.roles.includes(role)
      ? `${page.invite.path}?dialog=invite&role=${role}&c=${site.id}`
      : null;
  return (
    <>
      <div className="card mb-3">
        <div className="card-body d-flex flex-wrap gap-3 align-items-end justify-content-between">
          <CareSitePicker careSites={careSites} careSiteId={site.id} query={{ view }} />
          <Link to={dialogHref("details")} className="btn btn-primary" preventScrollReset>
            Care site details
          </Link>
        </div>
      </div>
      {page.notice ? (
        <div className="alert alert-warning d-flex justify-content-between" role="alert">
          <span>{page.notice}</span>
          <Link to={closeNotice} className="btn-close" aria-label="Close" preventScrollReset />
        </div>
      ) : null}
      <CareSiteCountCards
        counts={page.counts}
        view={view}
        viewHref={viewHref}
        inviteHref={inviteHref}
      />
      <CareSiteMemberTable
        view={view}
        rows={page.rows}
        total={page.total}
        params={page.params}
        csvHref={page.csvHref}
      />
      <CareSiteDetailsCard site={site} showPicture>
        <CareSiteDetailsLink to={dialogHref("details")} />
      </CareSiteDetailsCard>
      {page.dialog === "details" ? (
        <CareSiteDetailsDialog
          site={site}
          canEdit={site.canEdit}
          closeHref={closeDialog}
          actionData={actionData}
        />
      ) : null}
      {page.withdraw ? (
        <ConfirmDialog
          question={careSiteMessages.withdrawWarning}
          fields={{
            intent: "withdraw",
            membershipId: page.withdraw.membershipId,
            careSiteId: page.withdraw.careSiteId,
          }}
          closeHref={closeDialog}
        />
      ) : null}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Care Site | ARC Connect" }];

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";
