import { describe, expect, it } from "vitest";
import { homeAfterSignIn, invitationsPath, maskPhone } from "~/domain/roles";

describe("role rules (spec 1 §2.3, §4.1)", () => {
  it("sends care site staff without a care site to their invitations", () => {
    expect(homeAfterSignIn("clinicadmin", false)).toBe("/app/clinicadmin");
    expect(homeAfterSignIn("clinician", false)).toBe("/app/cliniciantable");
    expect(homeAfterSignIn("clinician", true)).toBe("/app");
    expect(homeAfterSignIn("superadmin", false)).toBe("/app");
    expect(homeAfterSignIn("abmadmin", false)).toBe("/app");
  });

  it("routes the Invitations entry per role", () => {
    expect(invitationsPath("abmadmin")).toBe("/app/invitation");
    expect(invitationsPath("clinicadmin")).toBe("/app/clinicadmin");
    expect(invitationsPath("superadmin")).toBe("/app/satable");
    expect(invitationsPath("clinician")).toBe("/app/cliniciantable");
    expect(invitationsPath("patient")).toBeNull();
  });

  it("masks the phone to its last 3 digits with a plus prefix", () => {
    expect(maskPhone("15125550123")).toBe("+********123");
    expect(maskPhone("")).toBe("+**********");
  });
});
