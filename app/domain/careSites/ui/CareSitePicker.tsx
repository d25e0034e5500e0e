import { Form } from "@remix-run/react";

/**
 * The Care Site dropdown of the care site pages (dashboard, notification summary): posts
 * `intent=chooseCareSite`, which keeps the choice in the session; "No clinic found" without any.
 */
export function CareSitePicker({
  careSites,
  careSiteId,
  action,
}: {
  careSites: { id: string; name: string }[];
  careSiteId: string | null;
  action?: string;
}) {
  if (careSites.length === 0 || !careSiteId) return <p className="mb-0">No clinic found</p>;
  return (
    <Form method="post" action={action} className="d-flex gap-2 align-items-end flex-wrap">
      <div>
        <label htmlFor="careSiteId" className="form-label">
          Care Site
        </label>
        <select
          id="careSiteId"
          name="careSiteId"
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
        name="intent"
        value="chooseCareSite"
        className="btn btn-outline-primary"
      >
        Show
      </button>
    </Form>
  );
}
