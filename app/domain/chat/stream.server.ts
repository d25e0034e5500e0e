// The chat's server-sent events (DESIGN.md §4 "live chat"). One stream per open portal page:
// - `ready` when connected (a page that reconnects after a restart reloads its data then);
// - `change` with the unread total when something changed for the user (a message, a status, a
//   new conversation): the page reloads its data; receiving it counts as delivery. Never as
//   reading: only the conversation page's own load reads (chat.server.ts openConversation);
// - `expired` when the session timed out or was ended: the page shows the spec's alert.
// The session is checked every few seconds without counting as activity, so an open chat never
// keeps an idle session alive.
import { countUnreadMessages, markDelivered } from "~/domain/chat/chat.server";
import { chatStreamsClosing, onChatChange, onChatShutdown } from "../../lib/chatEvents.server";
import { isSignedInSessionLive } from "../../lib/session.server";
import { logger } from "../../lib/logger.server";

const SESSION_CHECK_MS = 5_000;
/** A comment line every 30 s keeps proxies from closing a quiet connection. */
const KEEP_ALIVE_EVERY = 6;
/** Changes that come together (a message and its delivery) go out as one event. */
const COALESCE_MS = 50;
const RECONNECT_MS = 3_000;

const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

const encoder = new TextEncoder();

function event(name: string, data: unknown = {}) {
  return encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** A stream that only says the session is over (a signed-out or timed-out page). */
export function expiredStream() {
  return new Response(event("expired"), { headers: HEADERS });
}

/** The events of one page, until `aborted` (the request's signal: the page went away). */
export function chatEventStream(
  aborted: AbortSignal,
  who: { userId: string; sessionId: string },
) {
  const { userId, sessionId } = who;
  // Shutting down: the browser is told to try again shortly, when the next server is up.
  if (chatStreamsClosing()) {
    return new Response(`retry: ${RECONNECT_MS}\n\n`, {
      headers: { ...HEADERS, Connection: "close" },
    });
  }
  let ended = false;
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (chunk: Uint8Array) => {
        if (!ended) controller.enqueue(chunk);
      };
      const close = () => {
        if (ended) return;
        ended = true;
        stop();
        try {
          controller.close();
        } catch {
          // Already cancelled by the reader.
        }
      };

      let pending: ReturnType<typeof setTimeout> | null = null;
      const changed = () => {
        if (pending || ended) return;
        pending = setTimeout(async () => {
          pending = null;
          try {
            await markDelivered(userId);
            send(event("change", { unread: await countUnreadMessages(userId) }));
          } catch (error) {
            logger.warn("chat stream update failed", { error: String(error) });
          }
        }, COALESCE_MS);
      };

      let ticks = 0;
      const timer = setInterval(async () => {
        ticks += 1;
        try {
          if (!(await isSignedInSessionLive(sessionId))) {
            send(event("expired"));
            close();
          } else if (ticks % KEEP_ALIVE_EVERY === 0) {
            send(encoder.encode(": keep-alive\n\n"));
          }
        } catch (error) {
          logger.warn("chat stream session check failed", { error: String(error) });
        }
      }, SESSION_CHECK_MS);

      const unsubscribe = onChatChange(userId, changed);
      const unsubscribeShutdown = onChatShutdown(close);
      stop = () => {
        unsubscribe();
        unsubscribeShutdown();
        clearInterval(timer);
        if (pending) clearTimeout(pending);
      };
      aborted.addEventListener("abort", close);
      send(encoder.encode(`retry: ${RECONNECT_MS}\n\n`));
      send(event("ready"));
    },
    cancel() {
      ended = true;
      stop();
    },
  });
  return new Response(body, { headers: HEADERS });
}
