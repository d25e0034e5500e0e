// The records of /deviceStats (spec 3 §2.9): the toolbar (search, refresh, range, columns, export,
// delete all), the averages, the table and its pages, and the dialogs the URL opens
// (?dialog=range|columns|profile|delete). Links and GET forms, so it works without JavaScript.
import { Form, Link, useLocation } from "@remix-run/react";
import { ConfirmDialog } from "~/ui/Dialog";
import { SearchForm } from "~/ui/SearchForm";
import { withParams } from "~/lib/listParams";
import { AVERAGES } from "../columns";
import type { DeviceStatsPage } from "../deviceStats.server";
import { DEVICE_STATS_PATH, PAGE_SIZES } from "../query";
import { ColumnsDialog, Hidden, ProfileDialog, RangeDialog } from "./StatsDialogs";

const DELETE_QUESTION = "Are you sure you want to delete the data from Data Base?";

type Stats = DeviceStatsPage;

export function StatsView({ stats }: { stats: Stats }) {
  const location = useLocation();
  const search = location.search;
  const href = (changes: Record<string, string | null>) =>
    `${DEVICE_STATS_PATH}${withParams(search, changes)}`;
  const dialog = new URLSearchParams(search).get("dialog");
  const keep = {
    start: stats.range.isDefault ? "" : stats.range.start,
    end: stats.range.isDefault ? "" : stats.range.end,
  };
  return (
    <>
      {stats.deleted !== null ? (
        <div className="alert alert-success" role="status">
          {stats.deleted} records deleted.
        </div>
      ) : null}
      <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
        <SearchForm
          name="q"
          label="Search"
          placeholder="Search device ID"
          defaultValue={stats.q}
          reset={["page", "dialog", "id", "deleted"]}
        />
        <Link to={`${DEVICE_STATS_PATH}${search}`} className="btn btn-outline-secondary btn-sm">
          Refresh
        </Link>
        <Link to={href({ dialog: "range" })} className="btn btn-outline-secondary btn-sm">
          Pick Date Time Range
        </Link>
        <Link to={href({ dialog: "columns" })} className="btn btn-outline-secondary btn-sm">
          Columns
        </Link>
        <Form method="get" action={`${DEVICE_STATS_PATH}/export`} className="d-flex gap-2">
          <Hidden values={{ ...keep, q: stats.q }} />
          <label htmlFor="stats-export" className="visually-hidden">
            Export format
          </label>
          <select
            id="stats-export"
            name="format"
            className="form-select form-select-sm"
            defaultValue="csv"
          >
            <option value="csv">CSV</option>
            <option value="xlsx">Excel</option>
          </select>
          <button type="submit" className="btn btn-primary btn-sm">
            Download
          </button>
        </Form>
        <Link to={href({ dialog: "delete" })} className="btn btn-outline-danger btn-sm ms-auto">
          Delete all
        </Link>
      </div>

      <p className="small text-muted mb-2" data-testid="stats-range">
        {stats.range.isDefault ? "Last 10 minutes: " : ""}
        {stats.range.shown} (America/Chicago)
      </p>

      <dl className="row row-cols-2 row-cols-md-3 row-cols-xl-6 g-2 mb-3" aria-label="Averages">
        {AVERAGES.map((a) => (
          <div key={a.key} className="col">
            <div className="border rounded p-2 h-100">
              <dt className="small text-muted fw-normal">Average {a.label}</dt>
              <dd className="h6 mb-0">
                {stats.averages[a.key] === null ? "N/A" : stats.averages[a.key]!.toFixed(2)}
              </dd>
            </div>
          </div>
        ))}
      </dl>

      <div className="table-responsive">
        <table className="table table-sm table-striped align-middle">
          <thead>
            <tr>
              {stats.columns.map((k) => (
                <th key={k} scope="col" className="text-nowrap">
                  {k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {stats.rows.length === 0 ? (
              <tr>
                <td colSpan={stats.columns.length} className="text-center text-muted">
                  No data found
                </td>
              </tr>
            ) : (
              stats.rows.map((row) => (
                <tr key={row.id}>
                  {stats.columns.map((k) => (
                    <td key={k} className="text-nowrap">
                      {k === "profile" ? (
                        row.hasProfile ? (
                          <Link to={href({ dialog: "profile", id: String(row.id) })}>View</Link>
                        ) : null
                      ) : (
                        row.cells[k]
                      )}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <Pagination stats={stats} href={href} keep={keep} />

      {dialog === "range" || stats.range.error ? <RangeDialog stats={stats} /> : null}
      {dialog === "columns" ? <ColumnsDialog columns={stats.columns} /> : null}
      {dialog === "profile" ? <ProfileDialog profile={stats.profile} /> : null}
      {dialog === "delete" ? (
        <ConfirmDialog
          question={DELETE_QUESTION}
          fields={{ intent: "deleteAll", from: search }}
          closeHref={href({ dialog: null })}
        />
      ) : null}
    </>
  );
}

function Pagination({
  stats,
  href,
  keep,
}: {
  stats: Stats;
  href: (changes: Record<string, string | null>) => string;
  keep: Record<string, string>;
}) {
  const { page, totalPages } = stats;
  const step = (label: string, target: number, disabled: boolean) =>
    disabled ? (
      <span className="btn btn-outline-secondary btn-sm disabled" aria-disabled="true">
        {label}
      </span>
    ) : (
      <Link to={href({ page: String(target) })} className="btn btn-outline-secondary btn-sm">
        {label}
      </Link>
    );
  return (
    <nav className="d-flex flex-wrap align-items-center gap-2" aria-label="Pages">
      {step("First", 1, page <= 1)}
      {step("Previous", page - 1, page <= 1)}
      <Form method="get" className="d-flex align-items-center gap-1">
        <Hidden values={{ ...keep, q: stats.q, size: String(stats.size) }} />
        <label htmlFor="stats-page" className="small">
          Page
        </label>
        <input
          id="stats-page"
          type="number"
          name="page"
          min={1}
          max={totalPages}
          defaultValue={page}
          className="form-control form-control-sm"
          style={{ width: 90 }}
        />
        <span className="small text-nowrap">of {totalPages}</span>
        <button type="submit" className="btn btn-outline-secondary btn-sm">
          Go
        </button>
      </Form>
      {step("Next", page + 1, page >= totalPages)}
      {step("Last", totalPages, page >= totalPages)}
      <span className="small ms-2" data-testid="stats-total">
        Total: {stats.total}
      </span>
      <Form method="get" className="d-flex align-items-center gap-1 ms-auto">
        <Hidden values={{ ...keep, q: stats.q }} />
        <label htmlFor="stats-size" className="small text-nowrap">
          Rows per page
        </label>
        <select
          id="stats-size"
          name="size"
          defaultValue={String(stats.size)}
          className="form-select form-select-sm"
        >
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-outline-secondary btn-sm">
          Apply
        </button>
      </Form>
    </nav>
  );
}
