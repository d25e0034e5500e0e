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

/**
 * Spec 2 §4, §9: an invitation success message clears after 5 s: the sent and resent dialogs and
 * the message after a status change (accept, reject, revoke, remove, deactivate, reactivate).
 */
export const SUCCESS_MESSAGE_MS = 5000;

/**
 * Spec 2 §4, §9: "a link popup hides after 5 s": the popup a Sent row's link opens instead of a
 * page ("{email} has not accepted the invitation", "{email} has rejected the invitation").
 */
export const LINK_POPUP_MS = 5000;

/** Spec 2 §9: "5000 ms timeout after adding a care site": its success message, on either screen. */
export const CARE_SITE_ADDED_MS = 5000;

/** Password and Security: the "Your {thing} has been updated successfully" popup closes. */
export const CONFIRMATION_PANEL_MS = 5000;
/** Password and Security: its forms clear after a success. */
export const FORM_CLEAR_MS = 5000;

/** Each screen's snackbar delay, by path (lower case); other screens: SNACKBAR_MS.other. */
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
  // Spec 2 §4, §9: the summary's only message is the success of a settings save (5 s).
  "/app/notificationsummary": SUCCESS_MESSAGE_MS,
  // Spec 2 §8, §9: "Error occured! couldn't save data" is an error snackbar (6000 ms); our
  // Nochange notice hides with it.
  "/app/notificationsettings": SNACKBAR_MS.other,
};

/** The Invitations screens of the four roles (spec 2 §2). */
const INVITATION_SCREENS = [
  "/app/invitation",
  "/app/clinicadmin",
  "/app/satable",
  "/app/cliniciantable",
];

/**
 * The snackbar delay of the screen at `pathname` for a message of `kind`: on the Invitations
 * screens a success message clears after 5 s, an error or warning after 6000 ms (spec 2 §9).
 */
export function snackbarDelay(pathname: string, kind?: string) {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, "$1");
  if (INVITATION_SCREENS.includes(path) && kind === "success") return SUCCESS_MESSAGE_MS;
  return SCREEN_DELAYS[path] ?? SNACKBAR_MS.other;
}
