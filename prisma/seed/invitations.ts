// Invitations in every status besides the accepted ones staff and patients joined through:
// blocked, rejected, pending (one expired), resent, and to people without an account yet.
import { SITES } from "./content";
import { addInvitation, addMembership } from "./people";
import type { Staff } from "./staff";
import type { Ctx } from "./world";

export function addOpenInvitations(ctx: Ctx, staff: Staff) {
  const { ago } = ctx;
  const [S1, S2, S3] = SITES;
  const { superadmin, siteadmin, clinician, newclinician, rachel, daniel, omar, elena, tyler } =
    staff;
  {
    // Omar worked at Hill Country too; his access there was revoked (blocked).
    const invited = ago(400, 10 * 60);
    const acceptedAt = invited + 20 * 3_600_000;
    const blockedAt = ago(120, 15 * 60);
    const m = addMembership(ctx, S1, omar, "clinician", "blocked", invited, acceptedAt, blockedAt);
    addInvitation(ctx, {
      email: omar.email,
      role: "clinician",
      site: S1,
      by: rachel,
      status: "blocked",
      createdAt: invited,
      membershipId: m,
      updatedAt: blockedAt,
    });
  }
  {
    // Tyler declined an invitation to Hill Country.
    const invited = ago(75, 11 * 60);
    const rejectedAt = ago(74, 9 * 60);
    const m = addMembership(ctx, S1, tyler, "clinician", "rejected", invited, null, rejectedAt);
    addInvitation(ctx, {
      email: tyler.email,
      role: "clinician",
      site: S1,
      by: siteadmin,
      status: "rejected",
      createdAt: invited,
      membershipId: m,
      updatedAt: rejectedAt,
    });
  }
  {
    // The new clinician's only invitation: pending, sent yesterday.
    const invited = ago(1, 10 * 60 + 15);
    const m = addMembership(ctx, S2, newclinician, "clinician", "pending", invited, null);
    addInvitation(ctx, {
      email: newclinician.email,
      role: "clinician",
      site: S2,
      by: siteadmin,
      status: "pending",
      createdAt: invited,
      membershipId: m,
    });
  }
  // To people without an account yet.
  addInvitation(ctx, {
    email: `olivia.hart@${S1.domain}.example`,
    role: "clinician",
    site: S1,
    by: siteadmin,
    status: "pending",
    createdAt: ago(12, 9 * 60 + 40),
  }); // expired 5 days ago
  addInvitation(ctx, {
    email: "taylor.morgan@arcconnect.example",
    role: "abmadmin",
    site: null,
    by: superadmin,
    status: "pending",
    createdAt: ago(3, 14 * 60),
  });
  addInvitation(ctx, {
    email: `kevin.marsh@${S2.domain}.example`,
    role: "clinician",
    site: S2,
    by: daniel,
    status: "blocked",
    createdAt: ago(20, 10 * 60),
    updatedAt: ago(18, 9 * 60),
  }); // removed before accepted
  addInvitation(ctx, {
    email: `sofia.ramirez@${S3.domain}.example`,
    role: "clinician",
    site: S3,
    by: elena,
    status: "resend",
    createdAt: ago(9, 10 * 60, S3.timeZone),
    lastSentAt: ago(1, 9 * 60, S3.timeZone),
  });
  addInvitation(ctx, {
    email: "harold.jensen@homecare.example",
    role: "patient",
    site: S1,
    by: clinician,
    status: "resend",
    createdAt: ago(16, 11 * 60),
    lastSentAt: ago(9, 11 * 60),
  }); // resent, expired again
  addInvitation(ctx, {
    email: "walter.simmons@homecare.example",
    role: "patient",
    site: S3,
    by: elena,
    status: "pending",
    createdAt: ago(1, 15 * 60, S3.timeZone),
  });
}
