// The provider's admins' Dashboard lists as the page shows them (spec 2 §2 "Super admin
// dashboard"): a page of care sites or of one role's people, each row with its photo and where a
// click leads. The route reads the list parameters from the URL; careSite.server.ts queries.
import type { Actor } from "~/domain/access.server";
import { patientProfileHref } from "~/domain/patients/profileLink";
import { pageCount, type ListParams } from "~/lib/listParams";
import { photoUrl } from "~/lib/photoUrl";
import { DEFAULT_CARE_SITE_PHOTO } from "./ui/AdminDashboard";
import {
  getPatientLinks,
  listCareSites,
  listEnrolledPeople,
  type CareSiteSort,
  type EnrolledRole,
  type PersonRow,
  type PersonSort,
} from "./careSite.server";

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

/** The Active Care Site list: a row opens the Care Site Profile. */
export async function careSiteList(actor: Actor, listParams: ListParams<CareSiteSort>) {
  const { params, result } = await lastPageIfPast(listParams, (p) => listCareSites(actor, p));
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

/**
 * The Enrolled Patients, Clinicians or Care Site Admins list. Row clicks (spec 2 §2): accepted
 * staff open their profile; an accepted patient opens the patient profile when a device is
 * paired, else shows the warning; pending rows the warning (`noticeHref`, this page's address
 * with the row's notice).
 */
export async function personList(
  actor: Actor,
  role: EnrolledRole,
  listParams: ListParams<PersonSort>,
  noticeHref: (userId: string) => string,
) {
  const { params, result } = await lastPageIfPast(listParams, (p) =>
    listEnrolledPeople(actor, { ...p, role }),
  );
  const patientLinks =
    role === "patient"
      ? await getPatientLinks(
          actor,
          result.rows.filter((r) => r.status === "Accepted").map((r) => r.id),
        )
      : null;
  const hrefOf = (row: PersonRow) => {
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
