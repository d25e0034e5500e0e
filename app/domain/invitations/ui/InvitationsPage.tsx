// The Invitations screen (spec 2 §2): cards, the sent or received list, the invitation dialog, the
// confirmation and success dialogs. Rendered by the four role routes with data from
// domain/invitations/flow.server.ts.
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ConfirmDialog, Dialog, useCloseHref } from "~/ui/Dialog";
import { DataTable, type Column } from "~/ui/DataTable";
import { FormError } from "~/ui/forms";
import { SearchForm } from "~/ui/SearchForm";
import type { InvitationsScreen } from "~/domain/invitations/screen.server";
import {
  invitationConfirmations,
  invitationMessages,
  type InvitationAction,
} from "~/domain/invitations/rules";
import { ROLE_NAMES } from "~/domain/roles";

type Data = InvitationsScreen;
type SentRow = NonNullable<Data["sent"]>["rows"][number];
type ReceivedRow = NonNullable<Data["received"]>["rows"][number];

const ACTION_LABELS: Record<InvitationAction, string> = {
  resend: "Resend",
  remove: "Remove",
  revoke: "Revoke",
  accept: "Accept",
  reject: "Reject",
  deactivate: "Deactivate",
  reactivate: "Reactivate",
};

const STATUS_LABELS: Record<string, string> = {
  pending: "Pending",
  accepted: "Accepted",
  rejected: "Rejected",
  blocked: "Blocked",
  resend: "Resent",
};

function withParams(search: string, changes: Record<string, string | null>) {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) params.delete(k);
    else params.set(k, v);
  }
  return `?${params}`;
}

export function InvitationsPage() {
  const page = useLoaderData() as Data;
  const location = useLocation();
  const closeHref = useCloseHref([
    "dialog",
    "email",
    "role",
    "cq",
    "csort",
    "corder",
    "all",
    "c",
    "cancel",
    "id",
    "act",
  ]);
  const actionLinks = (id: string, actions: InvitationAction[]) =>
    actions.length === 0 ? (
      "-"
    ) : (
      <div className="d-flex gap-1 flex-wrap">
        {actions.map((act) => (
          <Link
            key={act}
            to={withParams(location.search, { dialog: "confirm", id, act })}
            className="btn btn-sm btn-outline-primary"
            preventScrollReset
          >
            {ACTION_LABELS[act]}
          </Link>
        ))}
      </div>
    );

  const sentColumns: Column<SentRow>[] = [
    {
      key: "email",
      label: "Email Address",
      sortable: true,
      render: (r) => (r.href ? <Link to={r.href}>{r.email}</Link> : r.email),
    },
    { key: "role", label: "Role", sortable: true, render: (r) => ROLE_NAMES[r.role] ?? r.role },
    {
      key: "careSiteName",
      label: "Care Site Name",
      sortable: true,
      render: (r) => r.careSiteName ?? "-",
    },
    {
      key: "status",
      label: "Status",
      sortable: true,
      render: (r) => STATUS_LABELS[r.status] ?? r.status,
    },
  ];
  const receivedColumns: Column<ReceivedRow>[] = [
    {
      key: "careSiteName",
      label: page.role === "abmadmin" ? "Sent From" : "Care Site Name",
      sortable: true,
    },
    {
      key: "status",
      label: "Status",
      sortable: true,
      render: (r) => STATUS_LABELS[r.status] ?? r.status,
    },
  ];

  return (
    <>
      <div className="row g-3 mb-3">
        <Card title="New invitation" to={withParams(location.search, { dialog: "invite" })} />
        <Card
          title="Sent invitations"
          count={page.counts.sent}
          to="?list=sent"
          active={page.list === "sent"}
        />
        {page.canReceive ? (
          <Card
            title="Received invitations"
            count={page.counts.received}
            to="?list=received"
            active={page.list === "received"}
          />
        ) : null}
      </div>
      <div className="card">
        <div className="card-body">
          <h2 className="h5">
            {page.list === "sent" ? "Sent invitations" : "Received invitations"}
          </h2>
          {page.notice ? (
            <div className="alert alert-warning" role="alert">
              {page.notice}
            </div>
          ) : null}
          {page.sent ? (
            <DataTable
              columns={sentColumns}
              rows={page.sent.rows}
              total={page.sent.total}
              params={page.sentParams}
              prefix="s"
              searchPlaceholder="Search sent invitations"
              rowKey={(r) => r.id}
              actions={(r) => actionLinks(r.id, r.actions)}
            />
          ) : null}
          {page.received ? (
            <DataTable
              columns={receivedColumns}
              rows={page.received.rows}
              total={page.received.total}
              params={page.receivedParams}
              prefix="r"
              searchPlaceholder="Search received invitations"
              rowKey={(r) => r.id}
              actions={(r) => actionLinks(r.id, r.actions)}
            />
          ) : null}
        </div>
      </div>
      {page.invite ? <InviteDialog invite={page.invite} closeHref={closeHref} /> : null}
      {page.confirm ? (
        <ConfirmDialog
          question={page.confirm.question}
          fields={{ intent: "act", id: page.confirm.id, act: page.confirm.act }}
          closeHref={closeHref}
        />
      ) : null}
      {page.success ? (
        <Dialog title="Invitation" closeHref={closeHref} size="sm">
          <p className="text-success" role="status">
            {page.success}
          </p>
          <Link to={closeHref} className="btn btn-primary">
            OK
          </Link>
        </Dialog>
      ) : null}
    </>
  );
}

function Card({
  title,
  count,
  to,
  active,
}: {
  title: string;
  count?: number;
  to: string;
  active?: boolean;
}) {
  return (
    <div className="col-md-4">
      <Link
        to={to}
        className={`card h-100 text-decoration-none ${active ? "border-primary" : ""}`}
        preventScrollReset
      >
        <div className="card-body">
          <div className="text-muted">{title}</div>
          {count !== undefined ? (
            <div className="h3 mb-0">{count}</div>
          ) : (
            <div className="h3 mb-0">+</div>
          )}
        </div>
      </Link>
    </div>
  );
}

function InviteDialog({
  invite,
  closeHref,
}: {
  invite: NonNullable<Data["invite"]>;
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
                            <input
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
