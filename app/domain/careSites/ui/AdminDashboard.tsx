// The provider's admins' Dashboard (spec 2 §2 "Super admin dashboard"): enrolled counts, the
// action cards, and one list below chosen by `?tab=` (links, so it works without JavaScript).
import { Link, useLocation } from "@remix-run/react";
import { lazy, Suspense, type ReactNode } from "react";
import { useCloseHref, useDialogHref } from "../../../ui/Dialog";
import { DataTable, type Column, type RowLink } from "../../../ui/DataTable";
import { LINK_POPUP_MS } from "../../../ui/delays";
import { Flash } from "../../../ui/Flash";

// The dialog's form brings zod and remix-validated-form, about 35 KB of gzipped JavaScript that
// /app would otherwise send to every role on every first visit, so the browser loads it only for
// an admin who opens (or points at) Add Care Site. The server loads it at start, and the lazy
// component then resolves synchronously, so the dialog is in the first HTML (no JavaScript
// needed). In the browser the <Suspense> boundary keeps the server's HTML until the chunk is
// there (React hydrates the boundary later), so a page opened with the dialog never mismatches.
type DialogModule = { default: typeof import("./AddCareSiteDialog").AddCareSiteDialog };
let dialogModule: DialogModule | null = null;
const loadDialog = () =>
  import("./AddCareSiteDialog").then((m) => (dialogModule = { default: m.AddCareSiteDialog }));
if (typeof document === "undefined") void loadDialog();
const AddCareSiteDialog = lazy(() =>
  dialogModule
    ? // A thenable that answers at once: React.lazy then renders without suspending.
      ({ then: (resolve: (m: DialogModule) => void) => resolve(dialogModule!) } as never)
    : loadDialog(),
);

/** The `?dialog=` value of the Add Care Site dialog. */
export const ADD_CARE_SITE_DIALOG = "addCareSite";

export const DASHBOARD_TABS = ["clinician", "patient", "clinicadmin", "caresite"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
export const DEFAULT_TAB: DashboardTab = "clinician";

/** Query-parameter prefixes of the four lists (ui/DataTable.tsx, lib/listParams.ts). */
export const LIST_PREFIX: Record<DashboardTab, string> = {
  caresite: "cs_",
  patient: "pt_",
  clinician: "cl_",
  clinicadmin: "ca_",
};

export const LIST_HEADINGS: Record<DashboardTab, string> = {
  caresite: "Active Care Site list",
  patient: "Enrolled Patients",
  clinician: "Enrolled Clinicians",
  clinicadmin: "Enrolled Care Site Admins",
};

export const SEARCH_PLACEHOLDERS = {
  caresite: "Name, City, State, Zip",
  people: "First Name, Last Name, Email, Status",
} as const;

export const DEFAULT_CARE_SITE_PHOTO = "/img/default-care-site.svg";

type Params = { q: string; sort: string; order: "asc" | "desc"; page: number };

export type CareSiteListRow = {
  id: string;
  name: string;
  city: string;
  state: string;
  zip: string;
  photoUrl: string;
  href: string;
};

export type PersonListRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  status: "Accepted" | "Pending";
  photoUrl: string;
  /** Where the row leads: a page, or this dashboard with the row's warning (`notice=`). */
  href: string;
};

export type AdminDashboardData = {
  counts: { careSites: number; patients: number; clinicians: number; careSiteAdmins: number };
  list:
    | { tab: "caresite"; rows: CareSiteListRow[]; total: number; params: Params }
    | {
        tab: "patient" | "clinician" | "clinicadmin";
        rows: PersonListRow[];
        total: number;
        params: Params;
      };
  /** A person row's warning (spec 2 §2: not accepted, rejected, no device). */
  notice: string | null;
  inviteHref: string | null;
  /** Set when the Add Care Site dialog is open. */
  addCareSite: { formToken: string } | null;
};

const tabHref = (tab: DashboardTab) => `?tab=${tab}#list`;

export function AdminDashboard({ data }: { data: AdminDashboardData }) {
  const { counts, list } = data;
  const dialogHref = useDialogHref();
  const closeDialogHref = useCloseHref();
  const location = useLocation();
  const countCards: [DashboardTab, string, number][] = [
    ["patient", "Patients", counts.patients],
    ["clinician", "Clinicians", counts.clinicians],
    ["clinicadmin", "Care Site Admins", counts.careSiteAdmins],
  ];
  return (
    <>
      <div className="row g-3 mb-3">
        <div className="col-md-4">
          <ActionCard href={tabHref("caresite")} current={list.tab === "caresite"}>
            <div className="text-muted">Enrolled Care Sites</div>
            <div className="display-6" data-testid="count-caresites">
              {counts.careSites}
            </div>
            <div className="small text-primary">View active care sites</div>
          </ActionCard>
        </div>
        <div className="col-md-4">
          <ActionCard
            href={dialogHref(ADD_CARE_SITE_DIALOG)}
            preventScrollReset
            onIntent={loadDialog}
          >
            <div className="h5 mb-1">Add Care Site</div>
            <div className="small text-muted">Enroll a new care site</div>
          </ActionCard>
        </div>
        {data.inviteHref ? (
          <div className="col-md-4">
            <ActionCard href={data.inviteHref}>
              <div className="h5 mb-1">Invite Care Site Admin</div>
              <div className="small text-muted">Send an invitation to a care site admin</div>
            </ActionCard>
          </div>
        ) : null}
      </div>
      <div className="row g-3 mb-3">
        {countCards.map(([tab, label, value]) => (
          <div className="col-md-4" key={tab}>
            <ActionCard href={tabHref(tab)} current={list.tab === tab}>
              <div className="text-muted">{label}</div>
              <div className="h2 mb-0" data-testid={`count-${tab}`}>
                {value}
              </div>
            </ActionCard>
          </div>
        ))}
      </div>
      <section id="list" className="card" aria-labelledby="list-heading">
        <div className="card-body">
          <h2 id="list-heading" className="h5 mb-3">
            {LIST_HEADINGS[list.tab]}
          </h2>
          {/* A row that opens no page says why (spec 2 §2): the row link's popup, which hides after
              5 s like the invitations screen's (§9), or by its close box; keyed by the navigation,
              so clicking the row again shows it again. */}
          <Flash
            key={location.key}
            flash={data.notice ? { kind: "warning", message: data.notice } : null}
            autoHideMs={LINK_POPUP_MS}
            role="alert"
          />
          {list.tab === "caresite" ? (
            <DataTable
              key="caresite"
              columns={careSiteColumns}
              rows={list.rows}
              total={list.total}
              params={list.params}
              prefix={LIST_PREFIX.caresite}
              searchPlaceholder={SEARCH_PLACEHOLDERS.caresite}
              rowKey={(row) => row.id}
              rowLink={(row) => ({ href: row.href, label: row.name })}
              rowLinkColumn="name"
              caption={LIST_HEADINGS.caresite}
            />
          ) : (
            <DataTable
              key={list.tab}
              columns={personColumns}
              rows={list.rows}
              total={list.total}
              params={list.params}
              prefix={LIST_PREFIX[list.tab]}
              searchPlaceholder={SEARCH_PLACEHOLDERS.people}
              rowKey={(row) => row.id}
              rowLink={personLink}
              rowLinkColumn="lastName"
              caption={LIST_HEADINGS[list.tab]}
            />
          )}
        </div>
      </section>
      {data.addCareSite ? (
        <Suspense fallback={null}>
          <AddCareSiteDialog formToken={data.addCareSite.formToken} closeHref={closeDialogHref} />
        </Suspense>
      ) : null}
    </>
  );
}

function ActionCard({
  href,
  current,
  preventScrollReset,
  onIntent,
  children,
}: {
  href: string;
  current?: boolean;
  preventScrollReset?: boolean;
  /** Called when the pointer or focus reaches the card (to fetch what it opens). */
  onIntent?: () => unknown;
  children: ReactNode;
}) {
  return (
    <Link
      to={href}
      preventScrollReset={preventScrollReset}
      onMouseEnter={onIntent}
      onFocus={onIntent}
      aria-current={current ? "true" : undefined}
      className={`card h-100 text-reset text-decoration-none ${current ? "border-primary border-2" : ""}`}
    >
      <div className="card-body">{children}</div>
    </Link>
  );
}

const dash = (value: string | null | undefined) => (value ? value : "-");

function Photo({ src }: { src: string }) {
  return <img src={src} alt="" width={36} height={36} className="rounded-circle" loading="lazy" />;
}

const photoColumn = <R extends { photoUrl: string }>(): Column<R> => ({
  key: "photo",
  label: "Photo",
  render: (row) => <Photo src={row.photoUrl} />,
});

const careSiteColumns: Column<CareSiteListRow>[] = [
  photoColumn<CareSiteListRow>(),
  ...(["name", "city", "state", "zip"] as const).map((key): Column<CareSiteListRow> => ({
    key,
    label: { name: "Site name", city: "City", state: "State", zip: "Zip" }[key],
    sortable: true,
    render: (row) => dash(row[key]),
  })),
];

const personColumns: Column<PersonListRow>[] = [
  photoColumn<PersonListRow>(),
  ...(["lastName", "firstName", "status", "email"] as const).map((key): Column<PersonListRow> => ({
    key,
    label: { lastName: "Last Name", firstName: "First Name", status: "Status", email: "Email" }[key],
    sortable: true,
    render: (row) => dash(row[key]),
  })),
];

/** A row click opens the row's page or, for a person, this dashboard with its warning (spec 2 §2). */
const personLink = (row: PersonListRow): RowLink => ({
  href: row.href,
  // A pending invitee has no name yet: the link reads as the email.
  label: `${row.firstName} ${row.lastName}`.trim() || row.email,
});
