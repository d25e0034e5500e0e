// Row ids made by the app's own raw writes (Prisma's models make theirs with cuid()).
import crypto from "node:crypto";

/**
 * A UUID version 7 (RFC 9562): the millisecond first, then random bits (74 remain). Rows written
 * together get neighbouring keys, so their primary-key and index entries go to the same few pages
 * at the end of each B-tree instead of one random page per row: a commit writes a handful of
 * pages, and the pages it touches stay in the cache however large the tables grow.
 */
export function uuidV7(ms = Date.now()) {
  const random = crypto.randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx
  const hex = ms.toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7${random.slice(15)}`;
}
