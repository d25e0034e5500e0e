// The dashboard's Therapy Table (spec 3 §2.7, §4): a search (GET), the therapies of the range with
// their details, and checkboxes that post the graph's selection.
import { Form, useLocation } from "@remix-run/react";
import type { DashboardHref } from "../dashboard";
import type { DashboardPage } from "../dashboardPage.server";
import { PageLink } from "./PageLink";

export type ViewProps = { view: DashboardPage; href: DashboardHref };

export function TherapyTable({ view, href }: ViewProps) {
  const { table } = view;
  const selected = new Set(view.selection);
  return (
    <aside
      className="therapy-drawer border rounded bg-white p-2"
      aria-label="Therapy Table"
      data-tour="3"
    >
      <h2 className="h6">Therapy Table</h2>
      <Form method="get" className="mb-2" role="search">
        {["uuid", "id", "startDate", "endDate", "therapies", "drawer"].map((k) => (
          <HiddenParam key={k} name={k} />
        ))}
        <label htmlFor="therapy-search" className="visually-hidden">
          Search therapies
        </label>
        <input
          id="therapy-search"
          type="search"
          name="q"
          defaultValue={view.q}
          placeholder="Event ID, Event Type, Log Type"
          className="form-control form-control-sm"
        />
      </Form>
      {table.rows.length === 0 ? (
        <p className="text-muted small">No data available</p>
      ) : (
        <Form method="post" className="therapy-select">
          {table.rows.map((row) => (
            <input key={row["Event ID"]} type="hidden" name="shown" value={row["Event ID"]} />
          ))}
          <ul className="list-unstyled small mb-2">
            {table.rows.map((row) => (
              <li key={row["Event ID"]} className="border-bottom py-1">
                <div className="d-flex align-items-start gap-2">
                  <input
                    type="checkbox"
                    name="eventId"
                    value={row["Event ID"]}
                    defaultChecked={selected.has(row["Event ID"])}
                    className="form-check-input mt-1"
                    aria-label={`Select therapy ${row["Event ID"]}`}
                  />
                  <details className="flex-grow-1">
                    <summary>
                      <span className="fw-semibold">{row["Time Stamp"]}</span>
                      <br />
                      Cycles {row.N_C ?? "N/A"} · {row.MODE ?? "N/A"} · #{row["Event ID"]} ·{" "}
                      {row["Log Type"]}
                    </summary>
                    <dl className="row mb-0 mt-1">
                      <KeyValue
                        label="Pause"
                        value={`${row.P_P ?? "N/A"} cmH2O, ${row.P_T ?? "N/A"} s`}
                      />
                      <KeyValue
                        label="Inspiratory"
                        value={`${row.I_P ?? "N/A"} cmH2O, ${row.I_T ?? "N/A"} s`}
                      />
                      <KeyValue
                        label="Expiratory"
                        value={`${row.E_P ?? "N/A"} cmH2O, ${row.E_T ?? "N/A"} s`}
                      />
                      {row.other.map((o) => (
                        <KeyValue key={o.key} label={o.key} value={o.value} />
                      ))}
                    </dl>
                  </details>
                </div>
              </li>
            ))}
          </ul>
          <div className="d-flex gap-2 flex-wrap">
            <button
              type="submit"
              name="intent"
              value="select"
              className="btn btn-sm btn-primary"
              data-role="apply-selection"
            >
              Update selection
            </button>
            {view.selection.length > 0 ? (
              <button
                type="submit"
                name="intent"
                value="clearSelection"
                className="btn btn-sm btn-outline-secondary"
              >
                Clear selection ({view.selection.length})
              </button>
            ) : null}
          </div>
        </Form>
      )}
      {table.pages > 1 ? (
        <nav
          aria-label="Therapy pages"
          className="d-flex justify-content-between align-items-center mt-2 small"
        >
          <PageLink href={href({ tp: String(table.page - 1) })} disabled={table.page <= 1}>
            Previous
          </PageLink>
          <span>
            Page {table.page} of {table.pages} ({table.total})
          </span>
          <PageLink
            href={href({ tp: String(table.page + 1) })}
            disabled={table.page >= table.pages}
          >
            Next
          </PageLink>
        </nav>
      ) : null}
    </aside>
  );
}

function HiddenParam({ name }: { name: string }) {
  const value = new URLSearchParams(useLocation().search).get(name);
  return value ? <input type="hidden" name={name} value={value} /> : null;
}

function KeyValue({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="col-5 fw-normal text-muted">{label}</dt>
      <dd className="col-7 mb-0">{value}</dd>
    </>
  );
}
