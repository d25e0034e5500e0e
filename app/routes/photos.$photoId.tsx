// A stored photo by id (DESIGN.md §4): a resource route, so no component. A photo the viewer may
// not see answers 404 like one that does not exist, so ids reveal nothing.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/auth.server";
import { notFoundUnless } from "~/lib/http.server";
import { logger } from "~/lib/logger.server";
import { readStoredFile } from "~/lib/uploads.server";
import { findViewablePhoto } from "~/models/photo.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const photo = notFoundUnless(await findViewablePhoto(user, params.photoId ?? ""));
  const etag = `"${photo.sha256}"`;
  const headers = {
    "Content-Type": photo.mimeType,
    // private: photos are personal data; no shared cache may keep them.
    "Cache-Control": "private, max-age=86400",
    ETag: etag,
  };
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  const bytes = await readStoredFile(photo.storagePath);
  if (!bytes) logger.error("photo file missing", { photoId: photo.id });
  const body = notFoundUnless(bytes);
  return new Response(body, {
    headers: { ...headers, "Content-Length": String(body.byteLength) },
  });
}

// If-None-Match may list several tags, may be "*", and compares weakly (RFC 9110 §13.1.2).
function matchesEtag(header: string | null, etag: string) {
  if (!header) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}
