// /deviceStats (spec 3 §2.9): the devices' performance records, for the provider's own engineers.
// Public in routing, shut behind the internal password (domain/deviceStats/gate.server.ts). Works
// without JavaScript: the range picker, the column chooser, the profile data and the delete
// confirmation are URL states (?dialog=range|columns|profile|delete); searching, paging and the
// page size are GET forms; exports are downloads of /deviceStats/export.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmDialog, Dialog, useCloseHref } from "~/ui/Dialog";
import { SearchForm } from "~/ui/SearchForm";
import {
  closeDeviceStats,
  DEVICE_STATS_PATH,
  hasDeviceStatsAccess,
  keepChosenColumns,
  openDeviceStats,
  readChosenColumns,
} from "~/domain/deviceStats/gate.server";
import { readForm } from "~/lib/formBody.server";
import { env } from "~/lib/env.server";
import { badRequest, clientIp } from "~/lib/http.server";
import { withParams } from "~/lib/listParams";
import {
  AVERAGES,
  cellText,
  DEFAULT_COLUMNS,
  deleteAllDeviceStats,
  deviceStatAverages,
  findDeviceStatProfile,
  formatStatTime,
  listDeviceStats,
  PAGE_SIZES,
  readStatsQuery,
  STAT_COLUMN_KEYS,
  toLocalMinute,
  type StatColumnKey,
} from "~/domain/deviceStats/deviceStats.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Device Statistics | ARC Connect" }];

const DELETE_QUESTION = "Are you sure you want to delete the data from Data Base?";

async function chosenColumns(request: Request) {
  const chosen = (await readChosenColumns(request))?.filter((k): k is StatColumnKey =>
    (STAT_COLUMN_KEYS as string[]).includes(k),
  );
  return chosen && chosen.length > 0 ? chosen : DEFAULT_COLUMNS;
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await hasDeviceStatsAccess(request))) {
    return { gate: { configured: Boolean(env.deviceStatsPassword) }, stats: null };
  }
  const search = new URL(request.url).searchParams;
  const query = readStatsQuery(search);
  const columns = await chosenColumns(request);
  const dialog = search.get("dialog");
  const [list, averages, profile] = await Promise.all([
    listDeviceStats(query.filter, query.page, query.size),
    deviceStatAverages(query.filter),
    dialog === "profile" ? findDeviceStatProfile(Number(search.get("id"))) : null,
  ]);
  return {
    gate: null,
    stats: {
      q: query.filter.q,
      size: query.size,
      range: {
        start: toLocalMinute(query.filter.start),
        end: toLocalMinute(query.filter.end),
        shown: `${formatStatTime(query.filter.start)} – ${formatStatTime(query.filter.end)}`,
        isDefault: query.defaultRange,
        error: query.rangeError,
      },
      columns,
      page: list.page,
      totalPages: list.totalPages,
      total: list.total,
      rows: list.rows.map((row) => ({
        id: row.id,
        hasProfile: Boolean(row.profile),
        cells: Object.fromEntries(columns.map((k) => [k, cellText(row, k)])),
      })),
      averages,
      profile: profile && {
        ...profile,
        createdAt: formatStatTime(profile.createdAt),
        keys: [...new Set(profile.records.flatMap((r) => Object.keys(r)))],
        records: profile.records.map((r) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [
              k,
              typeof v === "object" ? JSON.stringify(v) : String(v),
            ]),
          ),
        ),
      },
      deleted: search.get("deleted"),
    },
  };
}

/** Where a post goes back to: the page with the query it was sent from, without a dialog. */
function backTo(form: FormData, changes: Record<string, string | null> = {}) {
  const from = String(form.get("from") ?? "");
  const search = from.startsWith("?") ? from : "";
  return `${DEVICE_STATS_PATH}${withParams(search, { dialog: null, id: null, ...changes })}`;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "password") {
    const opened = await openDeviceStats(String(form.get("password") ?? ""), clientIp(request));
    if (!opened.ok) return data({ error: opened.message }, { status: 401 });
    return redirect(DEVICE_STATS_PATH, { headers: { "Set-Cookie": opened.setCookie } });
  }
  if (!(await hasDeviceStatsAccess(request))) return redirect(DEVICE_STATS_PATH);
  switch (intent) {
    case "columns": {
      const picked = form
        .getAll("column")
        .filter((k) => (STAT_COLUMN_KEYS as unknown[]).includes(k));
      const columns =
        form.get("reset") || picked.length === 0 ? DEFAULT_COLUMNS : (picked as string[]);
      return redirect(backTo(form), {
        headers: { "Set-Cookie": await keepChosenColumns(columns) },
      });
    }
    case "deleteAll": {
      const count = await deleteAllDeviceStats({ ip: clientIp(request) });
      return redirect(backTo(form, { deleted: String(count), page: null }));
    }
    case "lock":
      return redirect(DEVICE_STATS_PATH, { headers: { "Set-Cookie": await closeDeviceStats() } });
    default:
      badRequest();
  }
}

export default function DeviceStatsPage() {
  const { gate, stats } = useLoaderData<typeof loader>();
  return (
    <main className="device-stats p-3 p-lg-4">
      <header className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h4 mb-0">
          <Link to="/" className="text-decoration-none fw-bold me-2">
            ARC Connect
          </Link>
          Device Statistics
        </h1>
        {stats ? (
          <Form method="post">
            <input type="hidden" name="intent" value="lock" />
            <button type="submit" className="btn btn-outline-secondary btn-sm">
              Lock
            </button>
          </Form>
        ) : null}
      </header>
      {stats ? <StatsView stats={stats} /> : <PasswordBox configured={gate!.configured} />}
    </main>
  );
}

function PasswordBox({ configured }: { configured: boolean }) {
  const failed = useActionData<typeof action>();
  return (
    <div className="card mx-auto" style={{ maxWidth: 420 }}>
      <div className="card-body">
        {configured ? (
          <Form method="post">
            <input type="hidden" name="intent" value="password" />
            <label htmlFor="device-stats-password" className="form-label">
              Password
            </label>
            <input
              id="device-stats-password"
              type="password"
              name="password"
              className={`form-control ${failed ? "is-invalid" : ""}`}
              autoComplete="current-password"
              maxLength={200}
              autoFocus
              aria-describedby={failed ? "device-stats-password-error" : undefined}
            />
            {failed && "error" in failed ? (
              <div id="device-stats-password-error" className="invalid-feedback" role="alert">
                {failed.error}
              </div>
            ) : null}
            <button type="submit" className="btn btn-primary mt-3">
              Open
            </button>
          </Form>
        ) : (
          <p className="mb-0" role="alert">
            Device statistics are not set up on this server.
          </p>
        )}
      </div>
    </div>
  );
}

type Stats = NonNullable<Awaited<ReturnType<typeof loader>>["stats"]>;

function StatsView({ stats }: { stats: Stats }) {
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

function Hidden({ values }: { values: Record<string, string> }) {
  return (
    <>
      {Object.entries(values)
        .filter(([, v]) => v !== "")
        .map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
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

function RangeDialog({ stats }: { stats: Stats }) {
  const closeHref = useCloseHref(["dialog", "start", "end"]);
  const clear = `${DEVICE_STATS_PATH}${withParams("", { q: stats.q, size: String(stats.size) })}`;
  const { error } = stats.range;
  return (
    <Dialog title="Pick Date Time Range" closeHref={closeHref}>
      <Form method="get" action={DEVICE_STATS_PATH}>
        <Hidden values={{ q: stats.q, size: String(stats.size) }} />
        <DateTimeField name="start" label="Start Date and Time" value={stats.range.start} />
        <DateTimeField
          name="end"
          label="End Date and Time"
          value={stats.range.end}
          invalid={Boolean(error)}
        >
          {error ? (
            <div className="invalid-feedback d-block" role="alert">
              {error}
            </div>
          ) : null}
        </DateTimeField>
        <p className="small text-muted">Times in America/Chicago, in steps of 5 minutes.</p>
        <div className="d-flex justify-content-end gap-2">
          <Link to={clear} className="btn btn-outline-secondary">
            Clear
          </Link>
          <button type="submit" className="btn btn-primary">
            Fetch
          </button>
        </div>
      </Form>
    </Dialog>
  );
}

function DateTimeField({
  name,
  label,
  value,
  invalid,
  children,
}: {
  name: string;
  label: string;
  value: string;
  invalid?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="mb-3">
      <label htmlFor={`range-${name}`} className="form-label">
        {label}
      </label>
      <input
        id={`range-${name}`}
        type="datetime-local"
        name={name}
        step={300}
        required
        defaultValue={value}
        className={`form-control ${invalid ? "is-invalid" : ""}`}
      />
      {children}
    </div>
  );
}

function ColumnsDialog({ columns }: { columns: string[] }) {
  const closeHref = useCloseHref();
  const location = useLocation();
  return (
    <Dialog title="Columns" closeHref={closeHref}>
      <Form method="post">
        <input type="hidden" name="intent" value="columns" />
        <input type="hidden" name="from" value={location.search} />
        <fieldset className="row row-cols-2 g-1 mb-3">
          <legend className="visually-hidden">Shown columns</legend>
          {STAT_COLUMN_KEYS.map((k) => (
            <div key={k} className="col form-check">
              <input
                id={`column-${k}`}
                type="checkbox"
                name="column"
                value={k}
                defaultChecked={columns.includes(k)}
                className="form-check-input"
              />
              <label htmlFor={`column-${k}`} className="form-check-label">
                {k}
              </label>
            </div>
          ))}
        </fieldset>
        <div className="d-flex justify-content-end gap-2">
          <button type="submit" name="reset" value="1" className="btn btn-outline-secondary">
            Default columns
          </button>
          <button type="submit" className="btn btn-primary">
            Save
          </button>
        </div>
      </Form>
    </Dialog>
  );
}

function ProfileDialog({ profile }: { profile: Stats["profile"] }) {
  const closeHref = useCloseHref(["dialog", "id"]);
  return (
    <Dialog title="Profile Data" closeHref={closeHref} size="lg">
      {profile ? (
        <>
          <p className="small text-muted">
            Record {profile.id} of {profile.serial}, {profile.createdAt}
          </p>
          {profile.records.length > 0 ? (
            <div className="table-responsive mb-3">
              <table className="table table-sm table-bordered">
                <thead>
                  <tr>
                    {profile.keys.map((k) => (
                      <th key={k} scope="col">
                        {k}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {profile.records.map((r, i) => (
                    <tr key={i}>
                      {profile.keys.map((k) => (
                        <td key={k}>{r[k] ?? ""}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p>No data found</p>
          )}
          <label htmlFor="profile-json" className="form-label">
            Raw JSON
          </label>
          <textarea
            id="profile-json"
            className="form-control font-monospace"
            rows={8}
            readOnly
            value={profile.raw}
          />
          {/* Shown by copy-data.js: copying needs JavaScript; without it, select the text above. */}
          <button
            type="button"
            className="btn btn-outline-primary btn-sm mt-2"
            data-copy="profile-json"
            hidden
          >
            Copy Data
          </button>
          <script src="/js/copy-data.js" defer />
        </>
      ) : (
        <p>No data found</p>
      )}
    </Dialog>
  );
}
