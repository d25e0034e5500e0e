// "The disk is full": how SQLite says it, what the user is told, and whether this process can
// write now (docs/operations.md "Storage full"). SQLite answers SQLITE_FULL ("database or disk is
// full") both for a real ENOSPC and for a database at its `max_page_count` (the tests use the
// latter); nothing acknowledged is lost, the write that failed is rolled back and may be sent again.
import fs from "node:fs";
import { logger } from "./logger.server";
import { STORAGE_FULL_MESSAGE } from "./storageFull";

/** What a person is told when their change could not be written (503). */
export { STORAGE_FULL_MESSAGE };
/** Seconds a client is asked to wait before it sends again (Retry-After). */
export const STORAGE_FULL_RETRY_AFTER_S = 60;

/** True for SQLite's "database or disk is full", however a layer has wrapped it. */
export function isStorageFull(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 4; depth++) {
    if (e instanceof StorageFullError) return true;
    if (e.code === "SQLITE_FULL" || e.originalCode === "SQLITE_FULL") return true;
    if (typeof e.message === "string" && /database or disk is full/i.test(e.message)) return true;
    e = (e.cause ?? (e.meta as Record<string, unknown> | undefined)?.driverAdapterError) as
      Record<string, unknown> | undefined;
  }
  return false;
}

/**
 * What a database call throws when the storage is full: a 503 Response (so a loader or action
 * that meets it answers with the error page's "storage full" text, like the other thrown
 * responses of app/lib/http.server.ts), which also logs and prints as an error would.
 */
export class StorageFullError extends Response {
  readonly name = "StorageFullError";
  readonly message = STORAGE_FULL_MESSAGE;
  readonly cause: unknown;
  constructor(cause?: unknown) {
    super(STORAGE_FULL_MESSAGE, {
      status: 503,
      statusText: "Storage Full",
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Retry-After": String(STORAGE_FULL_RETRY_AFTER_S),
      },
    });
    this.cause = cause;
  }
  toString() {
    return `${this.name}: ${this.message}`;
  }
  toJSON() {
    const detail = this.cause instanceof Error ? this.cause.message : undefined;
    return { name: this.name, message: this.message, ...(detail ? { detail } : {}) };
  }
}

// ---------------------------------------------------------------------------------------------
// Whether this process can write (readiness)
// ---------------------------------------------------------------------------------------------

const state = { fullSince: null as Date | null, lastError: "" };

/** A write failed for lack of space: readiness fails until a write commits again. */
export function noteStorageFull(error: unknown) {
  state.lastError = error instanceof Error ? error.message : String(error);
  if (state.fullSince) return;
  state.fullSince = new Date();
  logger.error("storage full: writes fail until space is freed", { error: state.lastError });
}

/** A write committed: whatever failed before, there is room again. */
export function noteWriteCommitted() {
  if (!state.fullSince) return;
  state.fullSince = null;
  logger.info("storage: writes commit again");
}

/** Since when the last write failed for lack of space (null: the last write committed). */
export function storageFullSince() {
  return state.fullSince;
}

/** Bytes free on the filesystem of `dir` for this process, or null where statfs is unknown. */
export function freeBytes(dir: string): number | null {
  try {
    const s = fs.statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}
