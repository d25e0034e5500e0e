// The Invitations screen (spec 2 §2): cards, the sent or received list, the invitation dialog, the
// confirmation and success dialogs. Rendered by the four role routes with data from
// domain/invitations/screen.server.ts; the invitation dialog is InviteDialog.tsx.
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useMemo } from "react";
import { ConfirmDialog, Dialog, useCloseHref } from "~/ui/Dialog";
import { DataTable, type Column } from "~/ui/DataTable";
import { LINK_POPUP_MS, SUCCESS_MESSAGE_MS } from "~/ui/delays";
import { Flash, type FlashMessage } from "~/ui/Flash";
import type { InvitationsScreen } from "~/domain/invitations/screen.server";
import type { InvitationAction } from "~/domain/invitations/rules";
import { ROLE_NAMES } from "~/domain/roles";
import { InviteDialog } from "./InviteDialog";
import { withParams } from "./searchParams";

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

export function InvitationsPage() {
  const page = useLoaderData() as Data;
  const location = useLocation();
  const notice = useMemo<FlashMessage | null>(
    () => (page.notice ? { kind: "warning", message: page.notice } : null),
    [page.notice],
  );
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
          {/* The row link's popup (spec 2 §2, §4): hides after 5 s, or by its close box; keyed by
              the navigation, so clicking the link again shows it again. */}
          <Flash key={location.key} flash={notice} autoHideMs={LINK_POPUP_MS} />
          {page.sent ? (
            <DataTable
              columns={sentColumns}
              rows={page.sent.rows}
              total={page.sent.total}
              params={page.sentParams}
              prefix="s"
              searchPlaceholder="Search sent invitations"
              rowKey={(r) => r.id}
              // A row click opens the invitee's page or shows the row's popup (spec 2 §2).
              rowLink={(r) => (r.href ? { href: r.href } : null)}
              rowLinkColumn="email"
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
        <Dialog title="Invitation" closeHref={closeHref} size="sm" autoCloseMs={SUCCESS_MESSAGE_MS}>
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
