// Where an <img> finds a photo; plain (not .server) so components can use it.
export const DEFAULT_AVATAR_URL = "/img/default-avatar.svg";

/** The URL of a stored photo (routes/photos.$photoId.tsx), or the default avatar when none. */
export function photoUrl(photoId: string | null | undefined) {
  return photoId ? `/photos/${encodeURIComponent(photoId)}` : DEFAULT_AVATAR_URL;
}
