// "Something changed for these users" inside the process (DESIGN.md §4: live chat by server-sent
// events). The chat model announces every change it commits; each open stream
// (routes/app.chat.stream.tsx) listens for its user and tells the page to reload its data. The
// portal runs as one process; a page that missed an announcement (a restart, a dropped connection)
// reloads its data when its stream reconnects.
import { EventEmitter } from "node:events";

const globalForBus = globalThis as unknown as { __arcChatBus?: EventEmitter };
const bus = (globalForBus.__arcChatBus ??= new EventEmitter().setMaxListeners(0));

const SHUTDOWN = Symbol("shutdown");

export function announceChatChange(userIds: Iterable<string>) {
  for (const id of new Set(userIds)) bus.emit(id);
}

/** Calls `listener` whenever something changes for the user; returns the unsubscribe function. */
export function onChatChange(userId: string, listener: () => void) {
  bus.on(userId, listener);
  return () => {
    bus.off(userId, listener);
  };
}

let closing = false;

/**
 * Ends every open stream, and makes new ones end at once (server shutdown: open streams would
 * hold the HTTP server open).
 */
export function closeChatStreams() {
  closing = true;
  bus.emit(SHUTDOWN);
}

export function chatStreamsClosing() {
  return closing;
}

export function onChatShutdown(listener: () => void) {
  bus.once(SHUTDOWN, listener);
  return () => {
    bus.off(SHUTDOWN, listener);
  };
}
