// Roles and the role rules of spec 1 §2.2-§2.3 and §6 (pure: used by the server and the shell).
import type { ShellNav } from "~/ui/AppShell";

export const ROLES = ["superadmin", "abmadmin", "clinicadmin", "clinician", "patient"] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES = ["superadmin", "abmadmin", "clinicadmin", "clinician"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const SITE_ROLES = ["clinicadmin", "clinician"] as const;
/** The provider's own staff: not tied to a care site. */
export const PROVIDER_ROLES = ["superadmin", "abmadmin"] as const;

/** Display names (spec 1 §1). */
export const ROLE_NAMES: Record<string, string> = {
  superadmin: "Super admin",
  abmadmin: "ABM Admin",
  clinicadmin: "Care Site Admin",
  clinician: "Clinician",
  patient: "Patient",
};

export function isStaffRole(role: string): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role);
}

export function isSiteRole(role: string) {
  return (SITE_ROLES as readonly string[]).includes(role);
}

export function isProviderRole(role: string) {
  return (PROVIDER_ROLES as readonly string[]).includes(role);
}

/** Where the Invitations entry goes for each role (spec 1 §2.3). */
export function invitationsPath(role: string) {
  switch (role) {
    case "abmadmin":
      return "/app/invitation";
    case "clinicadmin":
      return "/app/clinicadmin";
    case "superadmin":
      return "/app/satable";
    case "clinician":
      return "/app/cliniciantable";
    default:
      return null;
  }
}

/** The shell's entries a user sees (spec 1 §2.3): the side bar's and the account menu's. */
export function shellNav(role: string, isAssociatedClinic: boolean): ShellNav {
  const site = isSiteRole(role);
  return {
    dashboard: isAssociatedClinic,
    notifications: site && isAssociatedClinic,
    patients: site,
    invitations: invitationsPath(role),
    helpCenter: site,
    careSiteSettings: role === "clinicadmin",
  };
}

/**
 * Where a user lands after the code step (spec 1 §4.1): care site staff without an accepted care
 * site (isAssociatedClinic = 0) go to their invitations screen, everyone else to /app.
 */
export function homeAfterSignIn(role: string, isAssociatedClinic: boolean) {
  if (isSiteRole(role) && !isAssociatedClinic) return invitationsPath(role) ?? "/app";
  return "/app";
}

/** Shows the masked phone of the code step: only the last 3 digits, with a plus prefix. */
export function maskPhone(phone: string | null | undefined) {
  const digits = (phone ?? "").replace(/\D/g, "");
  if (digits.length < 3) return "+**********";
  return `+${"*".repeat(Math.max(digits.length - 3, 0))}${digits.slice(-3)}`;
}
