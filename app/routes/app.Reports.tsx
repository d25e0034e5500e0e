// /app/Reports, shown as Patients (spec 3 §2.5, §2.6): search the patients of the viewer's care
// sites and open a profile; the Decrypt log file button opens the log decryption dialog. Clinicadmin and
// clinician only. A GET search box, sortable headers, pages and row links: no JavaScript needed.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable, type Column } from "~/ui/DataTable";
import { DecryptLogDialog } from "~/domain/deviceLogs/ui/DecryptLogDialog";
import { requireActor } from "~/domain/actor.server";
import { decryptDialogHref } from "~/domain/deviceLogs/decryptDialog";
import { readListParams } from "~/lib/listParams";
import { SITE_ROLES } from "~/domain/roles";
import {
  PATIENT_SEARCH_SORTS,
  searchPatients,
  type PatientSearchSort,
} from "~/domain/patients/search.server";
import { loadDecryptDialog } from "~/domain/deviceLogs/deviceLog.server";
import type { RouteHandle } from "~/ui/rootData";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Patients", hydrate: false };
export const meta: MetaFunction = () => [{ title: "Patients | ARC Connect" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, SITE_ROLES);
  const params = readListParams<PatientSearchSort>(request.url, {
    sorts: PATIENT_SEARCH_SORTS,
    defaultSort: "lastName",
  });
  return {
    params,
    ...(await searchPatients(user, params)),
    decrypt: await loadDecryptDialog(new URL(request.url).searchParams),
  };
}

type Row = Awaited<ReturnType<typeof loader>>["rows"][number];

const columns: Column<Row>[] = [
  {
    key: "photo",
    label: "User image",
    render: (r) => (
      <img src={r.photoUrl} alt="" width={32} height={32} className="rounded-circle" />
    ),
  },
  { key: "lastName", label: "Last name", sortable: true },
  { key: "firstName", label: "First name", sortable: true },
  { key: "careSite", label: "Care Site name", sortable: true },
];

export default function Patients() {
  const { params, rows, total, decrypt } = useLoaderData<typeof loader>();
  return (
    <div className="card">
      <div className="card-body">
        <div className="d-flex justify-content-end mb-2">
          <Link to={decryptDialogHref("/app/Reports")} className="btn btn-sm btn-outline-primary">
            Decrypt log file
          </Link>
        </div>
        <DataTable
          columns={columns}
          rows={rows}
          total={total}
          params={params}
          rowKey={(r) => r.key}
          // A row click opens the profile, a patient without a device too: it says so there
          // (spec 3 §8) and staff pair the device there.
          rowLink={(r) => ({ href: r.href, label: `${r.firstName} ${r.lastName}` })}
          rowLinkColumn="lastName"
          searchPlaceholder="Search by"
          caption="Patient report"
        />
      </div>
      {decrypt ? <DecryptLogDialog data={decrypt} origin="/app/Reports" /> : null}
    </div>
  );
}
