// Where an <img> finds a photo; plain (not .server) so components can use it.
export const DEFAULT_AVATAR_URL = "/img/default-avatar.svg";

/** The URL of a stored photo (routes/photos.$photoId.tsx), or the default avatar when none. */
export function photoUrl(photoId: string | null | undefined) {
  return photoId ? `/photos/${encodeURIComponent(photoId)}` : DEFAULT_AVATAR_URL;
}

export const DEFAULT_CARE_SITE_PICTURE_URL = "/img/default-care-site.svg";

/** A care site's picture, or the care site placeholder (not a person's) when it has none. */
export function careSitePictureUrl(photoId: string | null | undefined) {
  return photoId ? photoUrl(photoId) : DEFAULT_CARE_SITE_PICTURE_URL;
}
