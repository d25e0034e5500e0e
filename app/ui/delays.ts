// How long the messages of each screen stay before they hide themselves, in one place (spec 1 §8
// last line, §9, §2.6, §4.4; spec 2 §9 and spec 3 §9 for the screens they cover). With JavaScript
// a message hides itself after its screen's delay; without JavaScript it stays, closable by its
// close box, so it stays readable.

/** Snackbar delays, by screen. */
export const SNACKBAR_MS = {
  /** The login screens (/ and its code step). */
  signIn: 6000,
  /** Care site profile and care site settings. */
  careSite: 6000,
  /** Edit user profile. */
  profile: 4000,
  /** The other screens of spec 1: forgot password, restore, registration, Password and Security. */
  accounts: 5000,
  /** Screens of specs 2 and 3 (their generic snackbar and toast: 6000 ms). */
  other: 6000,
} as const;

/** Spec 2 §9: a success message (the invitation sent or resent) clears after 5 s. */
export const SUCCESS_MESSAGE_MS = 5000;

/** Spec 2 §9: "5000 ms timeout after adding a care site": its success message, on either screen. */
export const CARE_SITE_ADDED_MS = 5000;

/** Password and Security: the "Your {thing} has been updated successfully" popup closes. */
export const CONFIRMATION_PANEL_MS = 5000;
/** Password and Security: its forms clear after a success. */
export const FORM_CLEAR_MS = 5000;

/** Each spec 1 screen's snackbar delay, by path (lower case). */
const SCREEN_DELAYS: Record<string, number> = {
  "/": SNACKBAR_MS.signIn,
  "/forgotpassword": SNACKBAR_MS.accounts,
  "/restorepasswordwithemail": SNACKBAR_MS.accounts,
  "/restorepasswordwithphone": SNACKBAR_MS.accounts,
  "/signup": SNACKBAR_MS.accounts,
  "/acceptinvite": SNACKBAR_MS.accounts,
  "/app/signup": SNACKBAR_MS.accounts,
  "/app/passwordandsecurity": CONFIRMATION_PANEL_MS,
  "/app/settings": SNACKBAR_MS.profile,
  "/app/clinicprofiledetails": SNACKBAR_MS.careSite,
  "/app/caresitesettingdashboard": SNACKBAR_MS.careSite,
};

/** The snackbar delay of the screen at `pathname`. */
export function snackbarDelay(pathname: string) {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, "$1");
  return SCREEN_DELAYS[path] ?? SNACKBAR_MS.other;
}
