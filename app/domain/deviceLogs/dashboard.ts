// The therapy dashboard's view constants (spec 3 §2.7): the preview's zoom steps and the
// annotation's length. Pure: the page and the server share them.

export const ZOOM_STEP = 0.2;
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 3;
export const ANNOTATION_MAX = 200;

/** A link to the dashboard with some of its query parameters changed (null removes one). */
export type DashboardHref = (changes: Record<string, string | null>) => string;
