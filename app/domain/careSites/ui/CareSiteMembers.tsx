// The enrolled users of a care site (spec 2 "Care site management view"): the three count cards
// with View and Invite, and the list of the chosen role. Presentational only; links and GET forms,
// so it all works without JavaScript.
import { Link, useLocation } from "@remix-run/react";
import { DataTable, type Column, type RowLink } from "~/ui/DataTable";
import { useDialogHref } from "~/ui/Dialog";

export type CareSiteRole = "patient" | "clinician" | "clinicadmin";

export const CARE_SITE_CARD_LABELS: Record<CareSiteRole, string> = {
  patient: "Patients",
  clinician: "Clinicians",
  clinicadmin: "Care site Admin",
};

export const CARE_SITE_LIST_HEADINGS: Record<CareSiteRole, string> = {
  patient: "Patients list",
  clinician: "Clinicians list",
  clinicadmin: "Care Site admins list",
};

const CARD_ORDER: CareSiteRole[] = ["patient", "clinician", "clinicadmin"];

export function CareSiteCountCards({
  counts,
  view,
  viewHref,
  inviteHref,
}: {
  counts: Record<CareSiteRole, number>;
  view: CareSiteRole;
  viewHref: (role: CareSiteRole) => string;
  /** null: the user may not invite this role (no Invite action). */
  inviteHref: (role: CareSiteRole) => string | null;
}) {
  return (
    <div className="row g-3 mb-3">
      {CARD_ORDER.map((role) => {
        const invite = inviteHref(role);
        return (
          <div className="col-md-4" key={role}>
            <div className={`card h-100 ${view === role ? "border-primary" : ""}`}>
              <div className="card-body">
                <div className="text-muted">{CARE_SITE_CARD_LABELS[role]}</div>
                <div className="h2" data-testid={`count-${role}`}>
                  {counts[role]}
                </div>
                <div className="d-flex gap-2">
                  <Link
                    to={viewHref(role)}
                    className={`btn btn-sm ${view === role ? "btn-primary" : "btn-outline-primary"}`}
                    aria-current={view === role ? "true" : undefined}
                    aria-label={`View ${CARE_SITE_CARD_LABELS[role]}`}
                  >
                    View
                  </Link>
                  {invite ? (
                    <Link
                      to={invite}
                      className="btn btn-sm btn-outline-secondary"
                      aria-label={`Invite ${CARE_SITE_CARD_LABELS[role]}`}
                    >
                      Invite
                    </Link>
                  ) : null}
                </div>
              </div>
            </div>
          </div>
        );
      })}
    </div>
  );
}

export type CareSiteMemberRow = {
  membershipId: string;
  userId: string;
  firstName: string;
  lastName: string;
  speciality: string | null;
  photoUrl: string;
  /** Where the row leads; null for a patient with no device (the notice instead). */
  href: string | null;
  canRemove: boolean;
};

export function CareSiteMemberTable({
  view,
  rows,
  total,
  params,
  csvHref,
}: {
  view: CareSiteRole;
  rows: CareSiteMemberRow[];
  total: number;
  params: { q: string; sort: string; order: "asc" | "desc"; page: number };
  csvHref: string;
}) {
  const location = useLocation();
  const dialogHref = useDialogHref();
  const noticeHref = (userId: string) => {
    const search = new URLSearchParams(location.search);
    search.delete("dialog");
    search.set("notice", userId);
    return `?${search.toString()}`;
  };
  // A row click opens the profile; a patient without a device gets the notice instead (spec 2 §2).
  const rowLink = (row: CareSiteMemberRow): RowLink => ({
    href: row.href ?? noticeHref(row.userId),
    label: `${row.firstName} ${row.lastName}`.trim() || undefined,
    preventScrollReset: row.href === null,
  });
  const columns: Column<CareSiteMemberRow>[] = [
    {
      key: "photo",
      label: "Photo",
      sortable: true,
      render: (row) => (
        <img src={row.photoUrl} alt="" width={32} height={32} className="rounded-circle" />
      ),
    },
    {
      key: "lastName",
      label: "Last Name",
      sortable: true,
      render: (row) => row.lastName || "-",
    },
    {
      key: "firstName",
      label: "First Name",
      sortable: true,
      render: (row) => row.firstName || "-",
    },
    ...(view === "clinician"
      ? [{ key: "speciality", label: "Speciality", sortable: true } as Column<CareSiteMemberRow>]
      : []),
  ];
  const heading = CARE_SITE_LIST_HEADINGS[view];
  return (
    <section className="card mb-3" aria-labelledby="care-site-list-heading">
      <div className="card-body">
        <div className="d-flex justify-content-between align-items-center mb-2">
          <h2 className="h5 mb-0" id="care-site-list-heading">
            {heading}
          </h2>
          <a href={csvHref} className="btn btn-sm btn-outline-secondary" download>
            Download CSV
          </a>
        </div>
        <DataTable
          columns={columns}
          rows={rows}
          total={total}
          params={params}
          caption={heading}
          searchPlaceholder={
            view === "clinician" ? "First Name, Last Name, Speciality" : "First Name, Last Name"
          }
          rowKey={(row) => row.membershipId}
          rowLink={rowLink}
          rowLinkColumn="lastName"
          actions={(row) =>
            row.canRemove ? (
              <Link
                to={dialogHref("withdraw", { m: row.membershipId })}
                className="btn btn-sm btn-outline-danger"
                preventScrollReset
                aria-label={`Remove ${row.firstName} ${row.lastName}`}
              >
                Remove
              </Link>
            ) : null
          }
        />
      </div>
    </section>
  );
}
