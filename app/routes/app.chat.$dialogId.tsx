// /app/chat/<id>: one conversation (spec 3 §2.10, §4 "Chat", §5 "Chat"). Messages newest at the
// bottom, 50 at a time (Load older messages adds a page: ?pages=N), own messages with their
// status. Opening it (this page's own load, not a prefetch) is what marks it read: the rule is
// chat.server.ts openConversation. Sending is a multipart form post (text, an image, or both) that
// redirects back here; a Refresh link shows what arrived when JavaScript is off. 404 to anyone who
// is not a participant.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
} from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requireActor } from "~/domain/actor.server";
import { formReply, parseForm } from "~/lib/form.server";
import { notFoundUnless } from "~/lib/http.server";
import { photoUrl } from "~/lib/photoUrl";
import { STAFF_ROLES } from "~/domain/roles";
import { parseFileForm } from "~/lib/uploads.server";
import {
  findDialog,
  isPrefetch,
  openConversation,
  sendMessage,
} from "~/domain/chat/chat.server";
import {
  ATTACHMENT_PLACEHOLDER,
  CHAT_TEXTS,
  MAX_ATTACHMENT_BYTES,
  MAX_MESSAGE_LENGTH,
} from "~/domain/chat/rules";
import { messageSchema } from "~/domain/chat/schema";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const dialog = notFoundUnless(await findDialog(user, params.dialogId ?? ""));
  const pages = Number(new URL(request.url).searchParams.get("pages") ?? 1);
  const { messages, hasOlder, pages: shown } = await openConversation(user, dialog.id, {
    pages,
    prefetch: isPrefetch(request.headers),
  });
  return {
    dialog,
    hasOlder,
    pages: shown,
    messages: messages.map(({ senderPhotoId, ...m }) => ({
      ...m,
      senderPhotoUrl: photoUrl(senderPhotoId),
    })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireActor(request, STAFF_ROLES);
  const dialog = notFoundUnless(await findDialog(user, params.dialogId ?? ""));
  // Multipart with its own limits (lib/uploads): the image is taken there, the text checked here.
  const upload = await parseFileForm(request, {
    fieldName: "image",
    maxFileBytes: MAX_ATTACHMENT_BYTES,
    tooLarge: CHAT_TEXTS.tooLarge,
  });
  // One message for the form, shown above it ("" is the form's key in a reply).
  if (!upload.ok) return formReply({ "": upload.message });
  upload.formData.delete("image");
  const form = await parseForm(upload.formData, messageSchema);
  if (!form.ok) return form.reply;
  const sent = await sendMessage(user, dialog.id, { text: form.data.text, file: upload.file });
  if (!sent.ok) return formReply({ "": sent.message }, form.data);
  return redirect(`/app/chat/${dialog.id}`);
}

export default function Conversation() {
  const { dialog, messages, hasOlder, pages } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const error = failed ? (failed.fieldErrors[""] ?? failed.fieldErrors.text) : null;
  const location = useLocation();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === location.pathname;
  const formRef = useRef<HTMLFormElement>(null);

  // With JavaScript: an empty form after a message went out.
  const wasSending = useRef(false);
  useEffect(() => {
    if (wasSending.current && !sending && !failed) formRef.current?.reset();
    wasSending.current = sending;
  }, [sending, failed]);

  const here = `${location.pathname}${location.search}`;
  return (
    <div className="d-flex flex-column h-100">
      <header className="d-flex align-items-center justify-content-between gap-2 p-2 border-bottom">
        <div>
          <h2 className="h6 mb-0">{dialog.name}</h2>
          {dialog.group ? <small className="text-muted">{dialog.members.join(", ")}</small> : null}
        </div>
        <Link to={here} className="btn btn-outline-secondary btn-sm">
          Refresh
        </Link>
      </header>
      {/* column-reverse (app.scss): the list opens scrolled to its newest message, without JS. */}
      <div className="chat-scroll flex-grow-1">
        <ol className="chat-messages list-unstyled p-3 mb-0">
          {hasOlder ? (
            <li className="text-center mb-3">
              <Link to={`?pages=${pages + 1}`} className="btn btn-link btn-sm" preventScrollReset>
                Load older messages
              </Link>
            </li>
          ) : null}
          {messages.length === 0 ? (
            <li className="text-center text-muted my-4">Start your chat</li>
          ) : null}
          {messages.map((m) => (
            <li
              key={m.id}
              className={`chat-message mb-3 d-flex gap-2 ${m.own ? "own flex-row-reverse" : ""}`}
              data-testid="chat-message"
            >
              {m.own ? null : (
                <img
                  src={m.senderPhotoUrl}
                  alt=""
                  width={28}
                  height={28}
                  className="rounded-circle flex-shrink-0"
                />
              )}
              <div className="chat-bubble">
                {m.own ? null : <div className="small fw-semibold">{m.sender}</div>}
                {m.attachments.length > 0 && m.body === ATTACHMENT_PLACEHOLDER ? null : (
                  <div className="chat-text">{m.body}</div>
                )}
                {m.attachments.map((a) => {
                  const src = `/app/chat/${dialog.id}/attachments/${a.id}`;
                  return (
                    <a key={a.id} href={src} target="_blank" rel="noreferrer">
                      <img src={src} alt="Attachment" className="chat-image mt-1" />
                    </a>
                  );
                })}
                <div className="small text-muted mt-1">
                  {m.time}
                  {m.status ? (
                    <span className="ms-2" data-testid="message-status">
                      {m.status}
                    </span>
                  ) : null}
                </div>
              </div>
            </li>
          ))}
        </ol>
      </div>
      {dialog.canPost ? (
        <Form
          method="post"
          encType="multipart/form-data"
          className="border-top p-2"
          ref={formRef}
          aria-label="Send a message"
        >
          {error ? (
            <div className="alert alert-danger py-1 px-2 mb-2" role="alert">
              {error}
            </div>
          ) : null}
          <div className="d-flex gap-2 align-items-start">
            <div className="flex-grow-1">
              <label htmlFor="chat-text" className="visually-hidden">
                Message
              </label>
              <textarea
                id="chat-text"
                name="text"
                rows={2}
                className="form-control"
                placeholder="Type a message"
                maxLength={MAX_MESSAGE_LENGTH}
                defaultValue={String(failed?.repopulateFields.text ?? "")}
              />
              <label htmlFor="chat-image" className="form-label small mt-1 mb-0">
                Image (png, jpeg, jpg, gif or tiff, under 2 MB)
              </label>
              <input
                id="chat-image"
                type="file"
                name="image"
                accept=".png,.jpeg,.jpg,.gif,.tiff,.tif,image/png,image/jpeg,image/gif,image/tiff"
                className="form-control form-control-sm"
              />
            </div>
            <button type="submit" className="btn btn-primary" disabled={sending}>
              Send
            </button>
          </div>
        </Form>
      ) : (
        <p className="border-top p-3 mb-0 text-muted">{CHAT_TEXTS.cannotPost}</p>
      )}
    </div>
  );
}
