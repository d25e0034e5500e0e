// The invitation rules of spec 2 §4 (state table) and §5 (dialog roles and messages).
import { describe, expect, it } from "vitest";
import {
  actionsFor,
  availableActions,
  INVITATION_ACTIONS,
  INVITATION_STATUSES,
  invitationMessages,
  needsCareSite,
  roleOptionsForExistingUser,
  roleOptionsForNewEmail,
  sentRowTarget,
  sideOfAction,
  transition,
  type InvitationAction,
  type InvitationSide,
} from "~/domain/invitations/rules";
import { ROLES } from "~/domain/roles";

// The spec's table, written out independently of the implementation: every (side, status) and
// the actions it allows, with the status each leads to. Anything not listed is refused.
const TABLE: Record<InvitationSide, Record<string, Partial<Record<InvitationAction, string>>>> = {
  sent: {
    pending: { resend: "resend", remove: "blocked" },
    resend: { resend: "resend", remove: "blocked" },
    accepted: { revoke: "blocked" },
    rejected: { resend: "resend" },
    blocked: {},
  },
  received: {
    pending: { accept: "accepted", reject: "rejected" },
    resend: { accept: "accepted", reject: "rejected" },
    accepted: { deactivate: "blocked" },
    blocked: { reactivate: "accepted" },
    rejected: {},
  },
};

const SIDES: InvitationSide[] = ["sent", "received"];

describe("invitation state machine (spec 2 §4)", () => {
  it("knows the five statuses", () => {
    expect(INVITATION_STATUSES).toEqual(["pending", "accepted", "rejected", "blocked", "resend"]);
  });

  for (const side of SIDES) {
    for (const status of INVITATION_STATUSES) {
      const allowed = TABLE[side][status];
      it(`${side} ${status}: offers ${Object.keys(allowed).join(", ") || "nothing"}`, () => {
        expect(actionsFor(side, status)).toEqual(Object.keys(allowed));
      });
      for (const action of INVITATION_ACTIONS) {
        const to = allowed[action] ?? null;
        it(`${side} ${status} + ${action} → ${to ?? "refused"}`, () => {
          expect(transition(side, status, action)).toBe(to);
        });
      }
    }
  }

  it("offers nothing for an unknown status, also one named like an object property", () => {
    for (const side of SIDES) {
      for (const status of ["", "expired", "constructor", "toString", "__proto__", "PENDING"]) {
        expect(actionsFor(side, status)).toEqual([]);
        for (const action of INVITATION_ACTIONS)
          expect(transition(side, status, action)).toBe(null);
      }
    }
  });

  it("puts each action on its side", () => {
    expect(INVITATION_ACTIONS.filter((a) => sideOfAction(a) === "sent")).toEqual([
      "resend",
      "remove",
      "revoke",
    ]);
    expect(INVITATION_ACTIONS.filter((a) => sideOfAction(a) === "received")).toEqual([
      "accept",
      "reject",
      "deactivate",
      "reactivate",
    ]);
  });

  it("offers Reactivate only for an invitation the invitee paused themselves", () => {
    expect(availableActions("received", "blocked", { pausedByInvitee: true })).toEqual([
      "reactivate",
    ]);
    expect(availableActions("received", "blocked", { pausedByInvitee: false })).toEqual([]);
    expect(availableActions("received", "accepted", { pausedByInvitee: false })).toEqual([
      "deactivate",
    ]);
    expect(availableActions("sent", "pending", { pausedByInvitee: false })).toEqual([
      "resend",
      "remove",
    ]);
  });
});

describe("role options for a new email (spec 2 §5)", () => {
  const expected: Record<string, string[]> = {
    superadmin: ["abmadmin", "clinicadmin"],
    abmadmin: ["clinicadmin"],
    clinicadmin: ["clinicadmin", "clinician", "patient"],
    clinician: ["patient"],
    patient: [],
  };
  for (const inviter of ROLES) {
    it(`${inviter} may invite ${expected[inviter].join(", ") || "no one"}`, () => {
      expect(roleOptionsForNewEmail(inviter)).toEqual(expected[inviter]);
    });
  }

  it("gives an unknown role nothing", () => {
    expect(roleOptionsForNewEmail("")).toEqual([]);
    expect(roleOptionsForNewEmail("constructor")).toEqual([]);
  });

  it("returns a copy the caller may change", () => {
    roleOptionsForNewEmail("clinician").push("superadmin");
    expect(roleOptionsForNewEmail("clinician")).toEqual(["patient"]);
  });
});

describe("role options for an existing account (spec 2 §5)", () => {
  const m = invitationMessages;
  // [inviter][existing role] → the one offered role, or the message.
  const expected: Record<string, Record<string, { offered: string } | { message?: string }>> = {
    superadmin: {
      superadmin: { message: m.superAdminRoles },
      abmadmin: { message: m.alreadyHoldsRole },
      clinicadmin: { offered: "clinicadmin" },
      clinician: { message: m.superAdminRoles },
      patient: { message: m.superAdminRoles },
    },
    abmadmin: {
      superadmin: { message: m.onlyClinicAdmins },
      abmadmin: { message: m.onlyClinicAdmins },
      clinicadmin: { offered: "clinicadmin" },
      clinician: { message: m.onlyClinicAdmins },
      patient: { message: m.onlyClinicAdmins },
    },
    clinicadmin: {
      superadmin: { message: m.onlyPatients },
      abmadmin: { message: m.onlyPatients },
      clinicadmin: { offered: "clinicadmin" },
      clinician: { offered: "clinician" },
      patient: { offered: "patient" },
    },
    clinician: {
      superadmin: { message: m.onlyPatients },
      abmadmin: { message: m.onlyPatients },
      clinicadmin: { message: m.onlyPatients },
      clinician: { message: m.onlyPatients },
      patient: { offered: "patient" },
    },
    patient: {
      superadmin: {},
      abmadmin: {},
      clinicadmin: {},
      clinician: {},
      patient: {},
    },
  };

  for (const inviter of ROLES) {
    for (const existing of ROLES) {
      const want = expected[inviter][existing];
      const label = "offered" in want ? `offers ${want.offered}` : (want.message ?? "no message");
      it(`${inviter} inviting an existing ${existing}: ${label}`, () => {
        const result = roleOptionsForExistingUser(inviter, existing);
        if ("offered" in want) {
          expect(result).toEqual({ options: [want.offered] });
        } else {
          expect(result.options).toEqual([]);
          expect(result.message).toBe(want.message);
        }
      });
    }
  }

  it("never offers a role the inviter could not invite for a new email", () => {
    for (const inviter of ROLES) {
      for (const existing of ROLES) {
        for (const role of roleOptionsForExistingUser(inviter, existing).options) {
          expect(roleOptionsForNewEmail(inviter)).toContain(role);
        }
      }
    }
  });

  it("refuses an account with an unknown role", () => {
    expect(roleOptionsForExistingUser("clinicadmin", "nurse")).toEqual({
      options: [],
      message: m.onlyPatients,
    });
    expect(roleOptionsForExistingUser("abmadmin", "nurse").options).toEqual([]);
  });

  it("has the spec's texts", () => {
    expect(m.onlyClinicAdmins).toBe(
      "You shall invite only clinic admins to the care site, the selected user is holding the above role.",
    );
    expect(m.onlyPatients).toBe(
      "You shall invite patients to the care site, the selected user is holding the above role!",
    );
    expect(m.superAdminRoles).toBe(
      "User email already registered with the above role! As a Super-admin, you can invite only ABM Admin or Care site Admin roles.",
    );
    expect(m.alreadyHoldsRole).toBe("User is already holding this role.");
    expect(m.noCareSitesToInvite).toBe(
      "User is already part of all care sites which you are part of and no other care sites found to invite!",
    );
    expect(m.notAccepted("a@b.example")).toBe("a@b.example has not accepted the invitation");
    expect(m.rejected("a@b.example")).toBe("a@b.example has rejected the invitation");
    expect(m.resent).toBe("Successfully resend invitation");
    expect(m.userNotFound).toBe("User not found");
    expect(m.linkExpired).toBe("Link Expired !!!");
  });
});

describe("care sites in the dialog", () => {
  it("are needed for every role but ABM admin", () => {
    expect(ROLES.filter(needsCareSite)).toEqual([
      "superadmin",
      "clinicadmin",
      "clinician",
      "patient",
    ]);
    expect(needsCareSite("abmadmin")).toBe(false);
  });
});

describe("clicking a sent row (spec 2 §2)", () => {
  const row = { email: "x@y.example", inviteeUserId: "u1" };
  it("opens the profile of an accepted staff member and the patient profile of a patient", () => {
    expect(sentRowTarget({ ...row, role: "clinician", status: "accepted" })).toEqual({
      kind: "userinfo",
      userId: "u1",
    });
    expect(sentRowTarget({ ...row, role: "patient", status: "accepted" })).toEqual({
      kind: "patientProfile",
      userId: "u1",
    });
  });

  it("warns about pending (also resent) and rejected rows", () => {
    for (const status of ["pending", "resend"]) {
      expect(sentRowTarget({ ...row, role: "clinician", status })).toEqual({
        kind: "warning",
        message: "x@y.example has not accepted the invitation",
      });
    }
    expect(sentRowTarget({ ...row, role: "clinician", status: "rejected" })).toEqual({
      kind: "warning",
      message: "x@y.example has rejected the invitation",
    });
  });

  it("does nothing for a blocked row or an accepted one without an account", () => {
    expect(sentRowTarget({ ...row, role: "clinician", status: "blocked" })).toBeNull();
    expect(
      sentRowTarget({ ...row, inviteeUserId: null, role: "clinician", status: "accepted" }),
    ).toBeNull();
  });
});
