// The CSV export of a care site's list (spec 2 §9) and its audit event.
import type { Actor } from "~/domain/access.server";
import { audit } from "~/domain/audit.server";
import { toCsv } from "~/lib/csv";
import { prisma } from "~/lib/db.server";
import type { ListParams } from "~/lib/listParams";
import { dayInZone } from "~/lib/time";
import { getManagedCareSite } from "./management.server";
import {
  enrolledWhere,
  orderFor,
  searchWhere,
  type EnrolledRole,
  type EnrolledSort,
} from "./members.server";

/** The CSV export takes the whole list; a care site of this size is far beyond any real one. */
export const CSV_MAX_ROWS = 50_000;

const CATEGORY: Record<EnrolledRole, string> = {
  patient: "Patients",
  clinician: "Clinicians",
  clinicadmin: "CareSiteAdmins",
};

/** An empty cell for a missing value (the CSV writer disarms formulas). */
function cell(value: string | null | undefined) {
  return value ?? "";
}

/** Letters, digits and dashes of a name, the rest one underscore (a safe file name part). */
function fileNamePart(text: string) {
  const part = text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60);
  return part || "CareSite";
}

/**
 * The whole list (every page, same search and sort) as CSV, or null when the care site is out of
 * the actor's reach. The spec's row without profile_id, clinic_id, clinic_user_id, photo_uuid,
 * pair_id and total_count; named `<Category>_<careSiteName>_<YYYY-MM-DD>.csv` with the day in the
 * care site's zone.
 */
export async function exportEnrolledCsv(
  actor: Actor,
  careSiteId: string,
  role: EnrolledRole,
  params: Pick<ListParams<EnrolledSort>, "q" | "sort" | "order">,
  now = new Date(),
): Promise<{ fileName: string; csv: string; rowCount: number } | null> {
  const site = await getManagedCareSite(actor, careSiteId);
  if (!site) return null;
  const rows = await prisma.membership.findMany({
    where: { AND: [enrolledWhere(actor, careSiteId, role), searchWhere(params.q, role)] },
    select: {
      user: {
        select: {
          firstName: true,
          lastName: true,
          speciality: true,
          city: true,
          state: true,
          zip: true,
          country: true,
        },
      },
    },
    orderBy: orderFor(params.sort, params.order),
    take: CSV_MAX_ROWS,
  });
  type Row = (typeof rows)[number];
  const fields = [
    { label: "Last Name", value: (r: Row) => cell(r.user.lastName) },
    { label: "First Name", value: (r: Row) => cell(r.user.firstName) },
    ...(role === "clinician"
      ? [{ label: "Speciality", value: (r: Row) => cell(r.user.speciality) }]
      : []),
    { label: "Care Site Name", value: () => cell(site.name) },
    { label: "City", value: (r: Row) => cell(r.user.city) },
    { label: "State", value: (r: Row) => cell(r.user.state) },
    { label: "Zip", value: (r: Row) => cell(r.user.zip) },
    { label: "Country", value: (r: Row) => cell(r.user.country) },
  ];
  const csv = toCsv<Row>(rows, { fields, withBOM: true });
  const day = dayInZone(now, site.timeZone);
  return {
    fileName: `${CATEGORY[role]}_${fileNamePart(site.name)}_${day}.csv`,
    csv,
    rowCount: rows.length,
  };
}

/** Records who exported which list (every access to patient data is auditable, DESIGN.md §1). */
export async function recordCsvExport(
  actor: Actor,
  careSiteId: string,
  role: EnrolledRole,
  detail: { q: string; rowCount: number },
  options: { ip?: string | null } = {},
) {
  await audit(
    {
      actorId: actor.id,
      action: "caresite.members_exported",
      targetType: "careSite",
      targetId: careSiteId,
      careSiteId,
      ip: options.ip,
      detail: { role, ...detail },
    },
    prisma,
  );
}
