// The invitation dialog of the Invitations screen (spec 2 §2, §3): email, role, care sites, and
// the confirmation before cancelling. Every step is a URL (GET) or a post, so it works without
// JavaScript.
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { Dialog } from "~/ui/Dialog";
import { FormError } from "~/ui/forms";
import type { InvitationsScreen } from "~/domain/invitations/screen.server";
import { invitationConfirmations, invitationMessages } from "~/domain/invitations/rules";
import { ROLE_NAMES } from "~/domain/roles";
import { SearchForm } from "~/ui/SearchForm";
import { withParams } from "./searchParams";

export function InviteDialog({
  invite,
  closeHref,
}: {
  invite: NonNullable<InvitationsScreen["invite"]>;
  closeHref: string;
}) {
  const location = useLocation();
  const actionData = useActionData() as { formError?: string } | undefined;
  const emailOk = invite.email !== "" && !invite.emailError;
  if (invite.confirmCancel) {
    return (
      <Dialog
        title="Confirmation"
        closeHref={withParams(location.search, { cancel: null })}
        size="sm"
      >
        <p>{invitationConfirmations.cancel}</p>
        <div className="d-flex justify-content-end gap-2">
          <Link
            to={withParams(location.search, { cancel: null })}
            className="btn btn-outline-secondary"
          >
            No
          </Link>
          <Link to={closeHref} className="btn btn-primary">
            Yes
          </Link>
        </div>
      </Dialog>
    );
  }
  const cs = invite.careSites;
  return (
    <Dialog
      title="New invitation"
      closeHref={withParams(location.search, { cancel: "1" })}
      size="lg"
    >
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate>
        {invite.presetRole && invite.roleOptions.length === 0 ? (
          <input type="hidden" name="presetRole" value={invite.presetRole} />
        ) : null}
        {cs
          ? null
          : invite.presetCareSites.map((id) => (
              <input key={id} type="hidden" name="keepC" value={id} />
            ))}
        <div className="mb-3">
          <label htmlFor="invite-email" className="form-label">
            Email
          </label>
          <div className="d-flex gap-2">
            <input
              id="invite-email"
              name="email"
              type="email"
              defaultValue={invite.email}
              className={`form-control ${invite.emailError ? "is-invalid" : ""}`}
              aria-describedby={invite.emailError ? "invite-email-error" : undefined}
            />
            <button type="submit" name="intent" value="lookup" className="btn btn-outline-primary">
              Next
            </button>
          </div>
          {invite.emailError ? (
            <div id="invite-email-error" className="invalid-feedback d-block">
              {invite.emailError}
            </div>
          ) : null}
          {emailOk && !invite.existingRole ? (
            <div className="form-text">
              {invitationMessages.userNotFound}: a new account will be invited.
            </div>
          ) : null}
        </div>
        {emailOk && invite.roleMessage ? (
          <div className="alert alert-warning" role="alert">
            {invite.roleMessage}
          </div>
        ) : null}
        {emailOk && invite.roleOptions.length > 0 ? (
          <div className="mb-3">
            <label htmlFor="invite-role" className="form-label">
              Role
            </label>
            <div className="d-flex gap-2">
              <select
                id="invite-role"
                name="role"
                className="form-select"
                defaultValue={invite.role ?? ""}
              >
                {invite.role ? null : <option value="">Select a role</option>}
                {invite.roleOptions.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_NAMES[r] ?? r}
                  </option>
                ))}
              </select>
              <button
                type="submit"
                name="intent"
                value="chooseRole"
                className="btn btn-outline-primary"
              >
                Next
              </button>
            </div>
          </div>
        ) : null}
        {cs ? (
          cs.anyAtAll ? (
            <div className="mb-3">
              <div className="d-flex justify-content-between align-items-center mb-2">
                <span className="form-label mb-0">Care sites</span>
                <button
                  type="submit"
                  name="intent"
                  value="selectAll"
                  className="btn btn-sm btn-link"
                >
                  Select all
                </button>
              </div>
              <div style={{ maxHeight: 330, overflowY: "auto" }}>
                <table className="table table-sm">
                  <thead>
                    <tr>
                      <th scope="col">
                        <span className="visually-hidden">Select</span>
                      </th>
                      {(["name", "city", "state", "zip"] as const).map((key) => (
                        <th key={key} scope="col">
                          <Link
                            to={withParams(location.search, {
                              csort: key,
                              corder: cs.csort === key && cs.corder === "asc" ? "desc" : "asc",
                            })}
                            preventScrollReset
                          >
                            {key === "name" ? "Name" : key[0].toUpperCase() + key.slice(1)}
                          </Link>
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {cs.rows.length === 0 ? (
                      <tr>
                        <td colSpan={5} className="text-center text-muted">
                          {invitationMessages.noCareSiteFound}
                        </td>
                      </tr>
                    ) : (
                      cs.rows.map((c) => (
                        <tr key={c.id}>
                          <td>
                            {/* Keyed by its preselection: after "Select all" by client-side
                                navigation the box is remounted, so defaultChecked applies. */}
                            <input
                              key={String(cs.preselected.includes(c.id))}
                              type="checkbox"
                              name="careSiteId"
                              value={c.id}
                              id={`cs-${c.id}`}
                              className="form-check-input"
                              defaultChecked={cs.preselected.includes(c.id)}
                            />
                          </td>
                          <td>
                            <label htmlFor={`cs-${c.id}`}>{c.name}</label>
                          </td>
                          <td>{c.city}</td>
                          <td>{c.state}</td>
                          <td>{c.zip}</td>
                        </tr>
                      ))
                    )}
                  </tbody>
                </table>
              </div>
            </div>
          ) : (
            <div className="alert alert-warning" role="alert">
              {invitationMessages.noCareSitesToInvite}
            </div>
          )
        ) : null}
        <div className="d-flex justify-content-end gap-2">
          <Link
            to={withParams(location.search, { cancel: "1" })}
            className="btn btn-outline-secondary"
          >
            Cancel
          </Link>
          {invite.role && (!cs || cs.anyAtAll) ? (
            <button type="submit" name="intent" value="send" className="btn btn-primary">
              Send Invitation
            </button>
          ) : null}
        </div>
      </Form>
      {cs && cs.anyAtAll ? (
        <SearchForm
          name="cq"
          label="Search care site name"
          defaultValue={cs.cq}
          className="d-flex gap-2 mt-3"
        />
      ) : null}
    </Dialog>
  );
}
