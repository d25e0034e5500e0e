// A stored photo by id (DESIGN.md §4): a resource route, so no component. A photo the viewer may
// not see answers 404 like one that does not exist, so ids reveal nothing.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireActor } from "~/domain/actor.server";
import { notFoundUnless } from "~/lib/http.server";
import { storedFileResponse } from "~/lib/uploads.server";
import { findViewablePhoto } from "~/domain/accounts/photo.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireActor(request);
  const photo = notFoundUnless(await findViewablePhoto(user, params.photoId ?? ""));
  return storedFileResponse(request, photo);
}
