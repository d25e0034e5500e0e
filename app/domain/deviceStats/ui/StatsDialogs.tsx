// The dialogs of /deviceStats: the date-time range (a GET form), the column chooser (a post kept
// in a cookie) and a record's profile data.
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Dialog, useCloseHref } from "~/ui/Dialog";
import { withParams } from "~/lib/listParams";
import { STAT_COLUMN_KEYS } from "../columns";
import type { DeviceStatsPage } from "../deviceStats.server";
import { DEVICE_STATS_PATH } from "../query";

type Stats = DeviceStatsPage;

/** Hidden inputs for the non-empty values (a GET form keeps the page's query). */
export function Hidden({ values }: { values: Record<string, string> }) {
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

export function RangeDialog({ stats }: { stats: Stats }) {
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
        // The step counts from `min` (without one, from the default value, the last 10 minutes'
        // start: any minute, so the browser refused most 5-minute times). Records start in 2015
        // (the device API refuses earlier times).
        min="2015-01-01T00:00"
        required
        defaultValue={value}
        className={`form-control ${invalid ? "is-invalid" : ""}`}
      />
      {children}
    </div>
  );
}

export function ColumnsDialog({ columns }: { columns: string[] }) {
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

export function ProfileDialog({ profile }: { profile: Stats["profile"] }) {
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
