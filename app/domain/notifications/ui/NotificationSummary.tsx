// The notification summary page (spec 2 "Notification summary"): care site choice, the current
// settings cards with the edit icon, yesterday's table (the summary as it was sent) with its CSV,
// and the 14-day archive. Plain links and forms: it all works without JavaScript; with it, an
// archive report reads "Loading data..." while its file is fetched (ArchiveReportLink).
import { Link } from "@remix-run/react";
import { CareSitePicker } from "~/domain/careSites/ui/CareSitePicker";
import { ArchiveReportLink } from "~/domain/notifications/ui/ArchiveReportLink";
import { DataTable, type Column } from "~/ui/DataTable";
import { DeviationBadge } from "~/ui/DeviationBadge";
import type { SummaryRow } from "~/domain/notifications/summaryRows.server";

export const SUMMARY_SORTS = ["lastName", "firstName", "adherence", "spo2", "deviation"] as const;
export type SummarySort = (typeof SUMMARY_SORTS)[number];

type Row = Omit<SummaryRow, "deviation" | "therapyAdjusted"> & { deviation: "yes" | "no" };

export type NotificationSummaryData = {
  careSites: { id: string; name: string }[];
  page: null | {
    careSiteId: string;
    careSiteName: string;
    settings: { adherence: number; spo2: number; therapyAdjustment: boolean };
    editHref: string;
    dayLabel: string;
    /** Yesterday's summary was made (the table lists its archived rows); false: none yet. */
    sent: boolean;
    table: {
      params: { q: string; sort: string; order: "asc" | "desc"; page: number };
      matching: number;
      total: number;
      rows: Row[];
    };
    csvHref: string;
    archive: { day: string; date: string; reportName: string; generated: boolean; href: string }[];
  };
};

export function NotificationSummaryView({ careSites, page }: NotificationSummaryData) {
  return (
    <div className="d-grid gap-3">
      <div className="card">
        <div className="card-body">
          <CareSitePicker careSites={careSites} careSiteId={page?.careSiteId ?? null} />
        </div>
      </div>
      {page ? <SummaryBody page={page} /> : null}
    </div>
  );
}

const onOff = (on: boolean) => (on ? "ON" : "OFF");

function SettingCard({ title, on, range }: { title: string; on: boolean; range?: string }) {
  return (
    <div className="col-md-4">
      <section className="card h-100" aria-label={title}>
        <div className="card-body">
          <h3 className="h6 text-muted">{title}</h3>
          <p className="mb-1">
            <span className={`badge ${on ? "text-bg-success" : "text-bg-secondary"}`}>
              {onOff(on)}
            </span>
          </p>
          {range ? <p className="mb-0">{range}</p> : null}
        </div>
      </section>
    </div>
  );
}

function SummaryBody({ page }: { page: NonNullable<NotificationSummaryData["page"]> }) {
  const { settings, table } = page;
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
    {
      key: "adherence",
      label: "Adherence %",
      sortable: true,
      render: (r) => (r.adherencePercent === null ? "-" : `${r.adherencePercent}%`),
    },
    {
      key: "spo2",
      label: "SpO2",
      sortable: true,
      render: (r) => (r.spo2 === null ? "-" : `${r.spo2}%`),
    },
    {
      key: "deviation",
      label: "Deviation",
      sortable: true,
      render: (r) => <DeviationBadge value={r.deviation} />,
    },
  ];
  return (
    <>
      <section className="card" aria-labelledby="current-settings">
        <div className="card-body">
          <div className="d-flex justify-content-between align-items-center mb-2">
            <h2 className="h5 mb-0" id="current-settings">
              Current notification settings
            </h2>
            <Link
              to={page.editHref}
              className="btn btn-sm btn-outline-primary"
              aria-label="Edit notification settings"
              title="Edit notification settings"
            >
              <span aria-hidden>✎</span> Edit
            </Link>
          </div>
          <div className="row g-3">
            <SettingCard
              title="Adherence"
              on={settings.adherence > 0}
              range={settings.adherence > 0 ? `0 - ${settings.adherence}%` : undefined}
            />
            <SettingCard
              title="SpO2"
              on={settings.spo2 > 0}
              range={settings.spo2 > 0 ? `0 - ${settings.spo2}%` : undefined}
            />
            <SettingCard title="Therapy Adjustments" on={settings.therapyAdjustment} />
          </div>
        </div>
      </section>

      <section className="card" aria-labelledby="summary-table">
        <div className="card-body">
          <div className="d-flex justify-content-between align-items-center flex-wrap gap-2 mb-2">
            <h2 className="h5 mb-0" id="summary-table">
              Notification for {page.dayLabel}
            </h2>
            <div className="d-flex align-items-center gap-3">
              <span className="text-muted small" title="Rows shown / total">
                <span className="visually-hidden">Rows shown: </span>
                {table.rows.length}/{table.total}
              </span>
              <a href={page.csvHref} className="btn btn-sm btn-outline-secondary" download>
                Download CSV
              </a>
            </div>
          </div>
          {page.sent ? null : (
            <p className="text-muted small mb-2">
              No summary has been made for this day. Summaries are made at 7:00 am Central Time on
              the days of the notification schedule.
            </p>
          )}
          <DataTable
            columns={columns}
            rows={table.rows}
            total={table.matching}
            params={table.params}
            searchPlaceholder="First Name, Last Name"
            rowKey={(r) => r.patientId}
            caption={`Notification for ${page.dayLabel}`}
          />
        </div>
      </section>

      <section className="card" aria-labelledby="summary-archive">
        <div className="card-body">
          <h2 className="h5" id="summary-archive">
            Notification summary archive
          </h2>
          <p className="text-muted">Last 14 notifications summary</p>
          <div className="table-responsive">
            <table className="table align-middle bg-white mb-0">
              <caption className="visually-hidden">Last 14 notifications summary</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Report</th>
                </tr>
              </thead>
              <tbody>
                {page.archive.map((a) => (
                  <tr key={a.day}>
                    <td>{a.date}</td>
                    <td>
                      <ArchiveReportLink href={a.href} reportName={a.reportName} />
                      {a.generated ? null : (
                        <span className="text-muted small ms-2">(no notifications)</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>
    </>
  );
}
