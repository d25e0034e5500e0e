// The password box of /deviceStats (spec 3 §2.1): the page stays shut until the internal password
// is given. The password is never rendered back into the field.
import { Form } from "@remix-run/react";

/** `error` is the refused password's message from the action's reply. */
export function PasswordBox({ configured, error }: { configured: boolean; error?: string }) {
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
              className={`form-control ${error ? "is-invalid" : ""}`}
              autoComplete="current-password"
              maxLength={200}
              // The page asks for this one field only.
              // eslint-disable-next-line jsx-a11y/no-autofocus
              autoFocus
              aria-describedby={error ? "device-stats-password-error" : undefined}
            />
            {error ? (
              <div id="device-stats-password-error" className="invalid-feedback" role="alert">
                {error}
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
