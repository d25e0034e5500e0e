// Where the decrypt dialog (spec 3 §2.8) lives: on the landing page and on the Patients page, as
// `?dialog=decrypt`, with `log` (the upload's uuid) for the result view and `error` for a refused
// upload; and on /decrypt itself (without `uuid`), the tool's own page for any visitor.

export const DECRYPT_DIALOG = "decrypt";
export const DIALOG_ORIGINS = ["/", "/app/Reports", "/decrypt"] as const;
export type DialogOrigin = (typeof DIALOG_ORIGINS)[number];

/** The page an upload returns to: one of the dialog's two pages, the landing page otherwise. */
export function readDialogOrigin(text: string | null): DialogOrigin {
  return DIALOG_ORIGINS.find((o) => o === text) ?? "/";
}

export function decryptDialogHref(origin: DialogOrigin, extra: Record<string, string> = {}) {
  return `${origin}?${new URLSearchParams({ dialog: DECRYPT_DIALOG, ...extra })}`;
}

export const uploadAction = (origin: DialogOrigin) =>
  `/decrypt/upload?${new URLSearchParams({ back: origin })}`;

/** Where the result view's Download CSV Report sends the dates as typed (routes/decrypt.csv). */
export const CSV_ACTION = "/decrypt/csv";

/**
 * Where a refused CSV export of the dialog's form goes: back to the dialog's result view with the
 * dates as typed, so they stay and the message shows under them (issue 22).
 */
export function csvRefusedHref(
  back: string | null,
  typed: { log: string | null; from: string | null; to: string | null },
) {
  const extra: Record<string, string> = {};
  if (typed.log) extra.log = typed.log;
  if (typed.from) extra.from = typed.from;
  if (typed.to) extra.to = typed.to;
  return decryptDialogHref(readDialogOrigin(back), extra);
}
