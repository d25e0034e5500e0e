// The New Message and New group dialogs of /app/chat (spec 3 §2.10): a contact search (?cq=) and
// the accepted-sharing users; New Message posts one userId, New group ticks several and a name.
// Both post to the page itself (routes/app.chat.tsx action) at the dialog's own URL, so a refusal
// (someone who is not, or no longer, a contact) shows inside the open dialog, with or without
// JavaScript, and keeps what was ticked and typed.
import { Form, useLocation } from "@remix-run/react";
import { Dialog, useCloseHref } from "~/ui/Dialog";
import { SearchForm } from "~/ui/SearchForm";
import { GROUP_DEFAULT_NAME, MAX_GROUP_NAME_LENGTH } from "../rules";

export type PickerContact = { id: string; name: string; detail: string; photoUrl: string };
export type Picker = { kind: "new" | "group"; search: string; contacts: PickerContact[] };
/** What a refused post brought back: its message and the values to show again. */
export type PickerRefusal = { message: string; values: Record<string, unknown> } | null;

export function ContactPicker({ picker, refusal }: { picker: Picker; refusal: PickerRefusal }) {
  const closeHref = useCloseHref(["dialog", "cq"]);
  const location = useLocation();
  // The page itself, with the dialog (and its search) open: where a refusal comes back to.
  const search = new URLSearchParams(location.search);
  search.delete("index");
  const action = `/app/chat?${search.toString()}`;
  const group = picker.kind === "group";
  const ticked = new Set([refusal?.values.userId ?? []].flat().map(String));
  return (
    <Dialog title={group ? "New group" : "New Message"} closeHref={closeHref}>
      {refusal ? (
        <div className="alert alert-danger py-2" role="alert">
          {refusal.message}
        </div>
      ) : null}
      <SearchForm
        name="cq"
        label="Search contacts"
        defaultValue={picker.search}
        className="d-flex gap-2 mb-3"
      />
      {picker.contacts.length === 0 ? (
        <p className="text-muted mb-0">No contacts found</p>
      ) : group ? (
        <Form method="post" action={action}>
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
              defaultValue={typeof refusal?.values.name === "string" ? refusal.values.name : ""}
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
                  defaultChecked={ticked.has(c.id)}
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
              <Form method="post" action={action}>
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
