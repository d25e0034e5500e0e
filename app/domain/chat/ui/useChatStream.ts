// With JavaScript, every page of the shell listens to the chat stream (domain/chat/stream.server.ts):
// on a change it reloads its data (new messages, statuses, the Messages badge); after a reconnect
// (a server restart) it reloads once to catch up; when the session is over it shows the spec's
// alert and reloads, which leads to the session-expired screen. The browser's EventSource
// reconnects by itself.
//
// A reload is what reads an open conversation (chat.server.ts openConversation), so a page whose
// document is hidden (another tab, a minimised window) does not reload: it remembers it should and
// reloads when it is shown again. The stream still delivers what arrives meanwhile.
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

export const SESSION_EXPIRED_ALERT = "Session is expired, the page will be reload.";

const STREAM_URL = "/app/chat/stream";

export function useChatStream() {
  const { revalidate } = useRevalidator();
  const reload = useRef(revalidate);
  reload.current = revalidate;

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let missed = false;
    const reloadWhenSeen = () => {
      if (document.visibilityState === "hidden") missed = true;
      else reload.current();
    };
    const shown = () => {
      if (document.visibilityState === "hidden" || !missed) return;
      missed = false;
      reload.current();
    };
    document.addEventListener("visibilitychange", shown);

    const source = new EventSource(STREAM_URL);
    // Set once the stream connected: a later connection (after a restart) may have missed changes,
    // so the page catches up.
    let connectedBefore = false;
    // For browser tests: whether the page is listening.
    const mark = (state: string) =>
      document.documentElement.setAttribute("data-chat-stream", state);
    source.addEventListener("error", () => mark("reconnecting"));
    source.addEventListener("ready", () => {
      mark("open");
      if (connectedBefore) reloadWhenSeen();
      connectedBefore = true;
    });
    source.addEventListener("change", reloadWhenSeen);
    source.addEventListener("expired", () => {
      source.close();
      window.alert(SESSION_EXPIRED_ALERT);
      window.location.reload();
    });
    return () => {
      document.removeEventListener("visibilitychange", shown);
      source.close();
      mark("closed");
    };
  }, []);
}
