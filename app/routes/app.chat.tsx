// /app/chat, shown as Messages (spec 3 §2.10): the conversation list on the left (name search,
// New Message, New group), the open conversation on the right (routes/app.chat.$dialogId.tsx).
// All four staff roles. The New Message and New group dialogs are URL states (?dialog=new|group,
// ?cq= searches the contacts, domain/chat/ui/ContactPicker.tsx) that post here: intent=direct with
// one userId opens (or reuses) the one-to-one conversation, intent=group with userId[] and an
// optional name starts a group; a refusal (not a contact) is a 400 shown inside the open dialog.
// With JavaScript the list, statuses and badges follow the chat stream (useChatStream); without
// it a Refresh link.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, NavLink, Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { SearchForm } from "~/ui/SearchForm";
import { requireActor } from "~/domain/actor.server";
import { formReply, parseForm } from "~/lib/form.server";
import { photoUrl } from "~/lib/photoUrl";
import { ROLE_NAMES, STAFF_ROLES } from "~/domain/roles";
import {
  createGroupDialog,
  listContacts,
  listDialogs,
  startDirectDialog,
} from "~/domain/chat/chat.server";
import { newDialogSchema } from "~/domain/chat/schema";
import { ContactPicker, type Picker } from "~/domain/chat/ui/ContactPicker";
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
  const picking: Picker["kind"] | null = dialog === "new" || dialog === "group" ? dialog : null;
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

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const form = await parseForm(request, newDialogSchema);
  if (!form.ok) return form.reply;
  const input = form.data;
  const outcome =
    input.intent === "direct"
      ? await startDirectDialog(user, input.userId)
      : await createGroupDialog(user, { memberIds: input.userId, name: input.name });
  if (!outcome.ok) return formReply({ "": outcome.message }, form.values);
  return redirect(`/app/chat/${outcome.dialogId}`);
}

export default function ChatPage() {
  const { q, dialogs, picker } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const refusal = refused
    ? {
        message: Object.values(refused.fieldErrors)[0] ?? "",
        values: refused.repopulateFields,
      }
    : null;
  const keep = q ? `?q=${encodeURIComponent(q)}` : "";
  return (
    <div className="chat-page card">
      <div className="chat-panes">
        <aside className="chat-list border-end" aria-label="Conversations">
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
                    <span className="chat-list-text flex-grow-1">
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
        <section className="chat-window" aria-label="Chat window">
          <Outlet />
        </section>
      </div>
      {picker ? <ContactPicker picker={picker} refusal={refusal} /> : null}
    </div>
  );
}
