// With JavaScript, every page of the shell listens to the chat stream (domain/chat/stream.server.ts):
// on a change it reloads its data (new messages, statuses, the Messages badge); after a reconnect
// (a server restart, or a switch to another conversation's stream) it reloads once to catch up; when the session is over it shows the spec's
// alert and reloads, which leads to the session-expired screen. The browser's EventSource
// reconnects by itself.
import { useMatches, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

export const SESSION_EXPIRED_ALERT = "Session is expired, the page will be reload.";

export function useChatStream() {
  const matches = useMatches();
  const dialogId = matches.find((m) => m.id === "routes/app.chat.$dialogId")?.params.dialogId;
  const url = dialogId ? `/app/chat/${encodeURIComponent(dialogId)}/stream` : "/app/chat/stream";
  const { revalidate } = useRevalidator();
  const reload = useRef(revalidate);
  reload.current = revalidate;
  // Set once a stream of this page connected: a later connection (after a restart, or the stream
  // of another conversation) may have missed changes, so the page catches up.
  const connectedBefore = useRef(false);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(url);
    // For browser tests: whether the page is listening.
    const mark = (state: string) =>
      document.documentElement.setAttribute("data-chat-stream", state);
    source.addEventListener("error", () => mark("reconnecting"));
    source.addEventListener("ready", () => {
      mark("open");
      if (connectedBefore.current) reload.current();
      connectedBefore.current = true;
    });
    source.addEventListener("change", () => reload.current());
    source.addEventListener("expired", () => {
      source.close();
      window.alert(SESSION_EXPIRED_ALERT);
      window.location.reload();
    });
    return () => {
      source.close();
      mark("closed");
    };
  }, [url]);
}
