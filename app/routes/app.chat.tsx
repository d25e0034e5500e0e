// /app/chat, shown as Messages (spec 3 §2.10): the conversation list on the left (name search,
// New Message, New group), the open conversation on the right (routes/app.chat.$dialogId.tsx).
// All four staff roles. The New Message and New group dialogs are URL states (?dialog=new|group,
// ?cq= searches the contacts) that post to /app/chat/new. With JavaScript the list, statuses and
// badges follow the chat stream (ui/AppShell.tsx useChatStream); without it a Refresh link.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { Dialog, useCloseHref } from "~/ui/Dialog";
import { SearchForm } from "~/ui/SearchForm";
import { requireActor } from "~/domain/actor.server";
import { photoUrl } from "~/lib/photoUrl";
import { ROLE_NAMES, STAFF_ROLES } from "~/domain/roles";
import { listContacts, listDialogs } from "~/domain/chat/chat.server";
import { GROUP_DEFAULT_NAME, MAX_GROUP_NAME_LENGTH } from "~/domain/chat/rules";
import type { RouteHandle } from "~/ui/rootData";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export const handle: RouteHandle = { heading: "Messages" };
export const meta: MetaFunction = () => [{ title: "Messages | ARC Connect" }];

const GROUP_AVATAR_URL = "/img/group-avatar.svg";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const search = new URL(request.url).searchParams;
  const q = search.get("q") ?? "";
  const dialog = search.get("dialog");
  const picking = dialog === "new" || dialog === "group" ? dialog : null;
  const contactSearch = search.get("cq") ?? "";
  const [dialogs, contacts] = await Promise.all([
    listDialogs(user, q),
    picking ? listContacts(user, contactSearch) : null,
  ]);
  return {
    q,
    dialogs: dialogs.map(({ photoId, ...d }) => ({
      ...d,
      photoUrl: d.group ? GROUP_AVATAR_URL : photoUrl(photoId),
    })),
    picker: picking
      ? {
          kind: picking,
          search: contactSearch,
          contacts: contacts!.map((c) => ({
            id: c.id,
            name: `${c.firstName} ${c.lastName}`,
            detail: `${ROLE_NAMES[c.role] ?? c.role} · ${c.email}`,
            photoUrl: photoUrl(c.photoId),
          })),
        }
      : null,
  };
}

export default function ChatPage() {
  const { q, dialogs, picker } = useLoaderData<typeof loader>();
  const keep = q ? `?q=${encodeURIComponent(q)}` : "";
  return (
    <div className="chat-page card">
      <div className="row g-0">
        <aside className="col-md-4 chat-list border-end" aria-label="Conversations">
          <div className="p-2 border-bottom d-flex gap-2">
            <Link to="?dialog=new" className="btn btn-primary btn-sm flex-fill">
              New Message
            </Link>
            <Link to="?dialog=group" className="btn btn-outline-primary btn-sm flex-fill">
              New group
            </Link>
          </div>
          <SearchForm
            name="q"
            label="Search conversations"
            placeholder="Search by name"
            defaultValue={q}
            className="d-flex gap-2 p-2 border-bottom"
          />
          {dialogs.length === 0 ? (
            <p className="p-3 text-muted mb-0">No messages found</p>
          ) : (
            <ul className="list-unstyled mb-0">
              {dialogs.map((d) => (
                <li key={d.id}>
                  <NavLink
                    to={`/app/chat/${d.id}${keep}`}
                    className="chat-list-item d-flex gap-2 p-2 text-decoration-none"
                  >
                    <img
                      src={d.photoUrl}
                      alt=""
                      width={36}
                      height={36}
                      className="rounded-circle flex-shrink-0"
                    />
                    <span className="flex-grow-1 overflow-hidden">
                      <span className="d-flex justify-content-between gap-2">
                        <strong className="text-truncate">{d.name}</strong>
                        <small className="text-muted text-nowrap">{d.lastMessageTime}</small>
                      </span>
                      <span className="d-flex justify-content-between gap-2">
                        <small className="text-muted text-truncate">
                          {d.lastMessage ?? "Start your chat"}
                        </small>
                        {d.unread ? (
                          <span
                            className="badge rounded-pill text-bg-warning"
                            aria-label={`${d.unread} unread`}
                          >
                            {d.unread}
                          </span>
                        ) : null}
                      </span>
                    </span>
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
        </aside>
        <section className="col-md-8 chat-window" aria-label="Chat window">
          <Outlet />
        </section>
      </div>
      {picker ? <ContactPicker picker={picker} /> : null}
    </div>
  );
}

type Picker = NonNullable<Awaited<ReturnType<typeof loader>>["picker"]>;

function ContactPicker({ picker }: { picker: Picker }) {
  const closeHref = useCloseHref(["dialog", "cq"]);
  const group = picker.kind === "group";
  return (
    <Dialog title={group ? "New group" : "New Message"} closeHref={closeHref}>
      <SearchForm
        name="cq"
        label="Search contacts"
        defaultValue={picker.search}
        className="d-flex gap-2 mb-3"
      />
      {picker.contacts.length === 0 ? (
        <p className="text-muted mb-0">No contacts found</p>
      ) : group ? (
        <Form method="post" action="/app/chat/new">
          <input type="hidden" name="intent" value="group" />
          <div className="mb-3">
            <label htmlFor="group-name" className="form-label">
              Group name
            </label>
            <input
              id="group-name"
              name="name"
              className="form-control"
              placeholder={GROUP_DEFAULT_NAME}
              maxLength={MAX_GROUP_NAME_LENGTH}
            />
          </div>
          <fieldset>
            <legend className="form-label fs-6">Members</legend>
            {picker.contacts.map((c) => (
              <div className="form-check chat-contact" key={c.id}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  name="userId"
                  value={c.id}
                  id={`member-${c.id}`}
                />
                <label className="form-check-label" htmlFor={`member-${c.id}`}>
                  {c.name} <small className="text-muted">{c.detail}</small>
                </label>
              </div>
            ))}
          </fieldset>
          <button type="submit" className="btn btn-primary mt-3" aria-label="Create group">
            <img src="/img/check.svg" alt="" width={16} height={16} className="me-1" />
            Create group
          </button>
        </Form>
      ) : (
        <ul className="list-unstyled mb-0">
          {picker.contacts.map((c) => (
            <li key={c.id} className="chat-contact">
              <Form method="post" action="/app/chat/new">
                <input type="hidden" name="intent" value="direct" />
                <input type="hidden" name="userId" value={c.id} />
                <button
                  type="submit"
                  className="btn btn-link text-start d-flex align-items-center gap-2 w-100"
                >
                  <img src={c.photoUrl} alt="" width={32} height={32} className="rounded-circle" />
                  <span>
                    {c.name}
                    <br />
                    <small className="text-muted">{c.detail}</small>
                  </span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
