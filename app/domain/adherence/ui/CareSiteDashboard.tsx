// The care site dashboard (spec 2 §2): care site selector, range, the Therapy, Patients and
// Transmissions cards whose numbers link to their patient lists, and the list. Plain links and GET
// forms: it all works without JavaScript.
import { Link, useLocation } from "@remix-run/react";
import { CareSitePicker } from "~/domain/careSites/ui/CareSitePicker";
import { DataTable, type Column, type RowLink } from "~/ui/DataTable";
import { DeviationBadge } from "~/ui/DeviationBadge";
import { RangePicker, type RangeView } from "~/ui/RangePicker";
import { withParams } from "~/lib/listParams";
import { RANGES } from "~/lib/dateRange";
import type { Category } from "~/domain/adherence/dashboard.server";

export type CareSiteDashboardData = {
  careSites: { id: string; name: string }[];
  careSiteId: string | null;
  dashboard: null | {
    asOf: string;
    today: string;
    range: RangeView;
    counts: Record<Category, number>;
    labels: Record<Category, string>;
    notice: string | null;
    list: null | {
      category: Category;
      total: number;
      page: number;
      rows: Row[];
    };
    params: { q: string; sort: string; order: "asc" | "desc"; page: number };
    csvHref: string | null;
  };
};

type Row = {
  patientId: string;
  firstName: string;
  lastName: string;
  photoUrl: string;
  href: string | null;
  scorePercent?: number | null;
  goalsUpdatedOn?: string;
  totalTransmission?: number;
  deviation?: "yes" | "no";
  deviationPercentage?: number;
};

export function CareSiteDashboard({ data }: { data: CareSiteDashboardData }) {
  const location = useLocation();
  const d = data.dashboard;
  const listHref = (category: Category) =>
    `${withParams(location.search, { list: category, q: null, sort: null, order: null, page: null, notice: null })}#list`;
  return (
    <>
      <div className="card mb-3">
        <div className="card-body d-flex flex-wrap gap-3 align-items-end justify-content-between">
          <CareSitePicker
            careSites={data.careSites}
            careSiteId={data.careSiteId}
            action="/app?index"
          />
          {d ? <p className="mb-0 text-muted">Dashboard data as of {d.asOf}</p> : null}
        </div>
      </div>
      {d ? (
        <>
          <RangePicker
            range={d.range}
            today={d.today}
            kinds={RANGES}
            keep={{ list: d.list?.category }}
            reset={["page"]}
          />
          <div className="row g-3 mb-3">
            <DashCard
              title="Therapy"
              rows={(["below75", "below50", "below25"] as const).map((c) => [
                d.labels[c],
                d.counts[c],
                listHref(c),
              ])}
            />
            <DashCard
              title="Patients"
              rows={(["updatedGoals", "missed", "never"] as const).map((c) => [
                d.labels[c],
                d.counts[c],
                listHref(c),
              ])}
            />
            <DashCard
              title="Transmissions"
              // Patients, as in the lists: Total = Without + With (docs/decisions.md).
              rows={[
                ["Total", d.counts.total, listHref("total")],
                ["Without Deviations", d.counts.withoutDeviation, listHref("withoutDeviation")],
                ["With Deviations", d.counts.withDeviation, listHref("withDeviation")],
              ]}
            />
          </div>
          {d.list ? <PatientList dashboard={d} list={d.list} /> : null}
        </>
      ) : null}
    </>
  );
}

function DashCard({ title, rows }: { title: string; rows: [string, number, string][] }) {
  return (
    <div className="col-lg-4">
      <div className="card h-100">
        <div className="card-body">
          <h2 className="h6 text-muted">{title}</h2>
          <ul className="list-group list-group-flush">
            {rows.map(([label, count, href]) => (
              <li key={label} className="list-group-item d-flex justify-content-between px-0">
                <Link to={href} preventScrollReset>
                  {label}
                </Link>
                <Link
                  to={href}
                  className="fw-semibold"
                  aria-label={`${label}: ${count}`}
                  preventScrollReset
                >
                  {count}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}

function PatientList({
  dashboard,
  list,
}: {
  dashboard: NonNullable<CareSiteDashboardData["dashboard"]>;
  list: NonNullable<NonNullable<CareSiteDashboardData["dashboard"]>["list"]>;
}) {
  const location = useLocation();
  // A row click opens the profile; a patient without a device gets the notice instead (spec 2 §2).
  const rowLink = (row: Row): RowLink => ({
    href: row.href ?? `${withParams(location.search, { notice: row.patientId })}#list`,
    label: `${row.firstName} ${row.lastName}`,
    preventScrollReset: row.href === null,
  });
  const columns: Column<Row>[] = [
    {
      key: "photo",
      label: "",
      render: (r) => (
        <img src={r.photoUrl} alt="" width={32} height={32} className="rounded-circle" />
      ),
    },
    { key: "lastName", label: "Last Name", sortable: true },
    { key: "firstName", label: "First Name", sortable: true },
  ];
  const c = list.category;
  if (c === "below75" || c === "below50" || c === "below25") {
    columns.push({
      key: "score",
      label: "Adherence score",
      sortable: true,
      render: (r) => `${r.scorePercent}%`,
    });
  }
  if (c === "updatedGoals")
    columns.push({ key: "goalsUpdatedOn", label: "Goals Updated on", sortable: true });
  if (c === "total" || c === "withDeviation" || c === "withoutDeviation") {
    columns.push({ key: "totalTransmission", label: "Total transmission", sortable: true });
    columns.push({
      key: "deviation",
      label: "Deviation",
      sortable: true,
      render: (r) => <DeviationBadge value={r.deviation} />,
    });
  }
  if (c === "total" || c === "withDeviation") {
    columns.push({
      key: "deviationPercentage",
      label: "Deviation Percentage",
      sortable: true,
      render: (r) => `${r.deviationPercentage}%`,
    });
  }
  return (
    <section id="list" className="card">
      <div className="card-body">
        <div className="d-flex justify-content-between align-items-center mb-2">
          <h2 className="h5 mb-0">{dashboard.labels[c]}</h2>
          {dashboard.csvHref ? (
            <a href={dashboard.csvHref} className="btn btn-sm btn-outline-secondary" download>
              Download CSV
            </a>
          ) : null}
        </div>
        {dashboard.notice ? (
          <div className="alert alert-warning" role="alert">
            {dashboard.notice}
          </div>
        ) : null}
        <DataTable
          columns={columns}
          rows={list.rows}
          total={list.total}
          params={{ ...dashboard.params, page: list.page }}
          searchPlaceholder="First Name, Last Name"
          rowKey={(r) => r.patientId}
          rowLink={rowLink}
          rowLinkColumn="lastName"
        />
      </div>
    </section>
  );
}
