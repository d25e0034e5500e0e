import { Form } from "@remix-run/react";

/**
 * The Care Site dropdown of the care site pages. By default (dashboard, notification summary) it
 * posts `intent=chooseCareSite`, which keeps the choice in the session; "No clinic found" without
 * any. With `query`, it is a GET form of the page itself (`?c=<id>` and the `query` parameters),
 * as on the care site screen, whose address names its care site.
 */
export function CareSitePicker({
  careSites,
  careSiteId,
  action,
  query,
}: {
  careSites: { id: string; name: string }[];
  careSiteId: string | null;
  action?: string;
  query?: Record<string, string>;
}) {
  if (careSites.length === 0 || !careSiteId) return <p className="mb-0">No clinic found</p>;
  const id = query ? "care-site-choice" : "careSiteId";
  return (
    <Form
      method={query ? "get" : "post"}
      action={action}
      className={`d-flex gap-2 align-items-end${query ? "" : " flex-wrap"}`}
    >
      {Object.entries(query ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <label htmlFor={id} className="form-label">
          Care Site
        </label>
        <select
          id={id}
          name={query ? "c" : "careSiteId"}
          className="form-select"
          defaultValue={careSiteId}
          key={careSiteId}
        >
          {careSites.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        name={query ? undefined : "intent"}
        value={query ? undefined : "chooseCareSite"}
        className="btn btn-outline-primary"
      >
        Show
      </button>
    </Form>
  );
}
