// Care sites and their staff: the demo accounts and the colleagues around them, each joined to
// their sites through an accepted invitation.
import { buildCareSite } from "../factories";
import { SITES } from "./content";
import { addInvitation, addUser, join, sitePhone } from "./people";
import type { Ctx, Person } from "./world";

export function addCareSites(ctx: Ctx) {
  SITES.forEach((s, i) => {
    const created = ctx.ago(800 - i * 120, 10 * 60, s.timeZone);
    ctx.w.CareSite.push(
      buildCareSite({
        id: s.id,
        accountNumber: s.accountNumber,
        name: s.name,
        email: `info@${s.domain}.example`,
        phone: `1${s.areaCode}5550100`,
        website: `https://www.${s.domain}.example`,
        addressLine1: s.addressLine1,
        addressLine2: s.addressLine2,
        city: s.city,
        state: s.state,
        zip: s.zips[0],
        country: "United States",
        status: "active",
        timeZone: s.timeZone,
        photoId: null,
        createdAt: created,
      }),
    );
  });
}

export type Staff = ReturnType<typeof addStaff>;

export function addStaff(ctx: Ctx) {
  const { ago } = ctx;
  const [S1, S2, S3] = SITES;
  const superadmin = addUser(ctx, {
    username: "demo.superadmin",
    email: "demo.superadmin@arcconnect.example",
    role: "superadmin",
    firstName: "Morgan",
    lastName: "Ellis",
    phone: "15125550101",
    createdAt: ago(900, 9 * 60),
  });
  const abmadmin = addUser(ctx, {
    username: "demo.abmadmin",
    email: "demo.abmadmin@arcconnect.example",
    role: "abmadmin",
    firstName: "Jordan",
    lastName: "Reyes",
    phone: "15125550102",
    createdAt: ago(700, 11 * 60),
  });
  addInvitation(ctx, {
    email: abmadmin.email,
    role: "abmadmin",
    site: null,
    by: superadmin,
    status: "accepted",
    createdAt: ago(701, 15 * 60),
    updatedAt: ago(700, 11 * 60),
  });

  const siteadmin = addUser(ctx, {
    username: "demo.siteadmin",
    email: "demo.siteadmin@arcconnect.example",
    role: "clinicadmin",
    firstName: "Casey",
    lastName: "Lambert",
    phone: "15125550103",
    site: S1,
    createdAt: ago(640, 10 * 60),
  });
  join(ctx, S1, siteadmin, "clinicadmin", superadmin, ago(641, 14 * 60), 20);
  join(ctx, S2, siteadmin, "clinicadmin", abmadmin, ago(320, 9 * 60), 5);

  const clinician = addUser(ctx, {
    username: "demo.clinician",
    email: "demo.clinician@arcconnect.example",
    role: "clinician",
    firstName: "Alex",
    lastName: "Turner",
    phone: "15125550104",
    site: S1,
    createdAt: ago(560, 16 * 60),
  });
  join(ctx, S1, clinician, "clinician", siteadmin, ago(561, 10 * 60), 30);

  const newclinician = addUser(ctx, {
    username: "demo.newclinician",
    email: "demo.newclinician@arcconnect.example",
    role: "clinician",
    firstName: "Riley",
    lastName: "Chen",
    phone: "13125550105",
    site: S2,
    createdAt: ago(30, 13 * 60),
  });

  const rachel = addUser(ctx, {
    role: "clinicadmin",
    firstName: "Rachel",
    lastName: "Nguyen",
    phone: sitePhone(S1, 111),
    site: S1,
    createdAt: ago(760, 10 * 60),
  });
  join(ctx, S1, rachel, "clinicadmin", superadmin, ago(761, 9 * 60), 25);
  const marcus = addUser(ctx, {
    role: "clinician",
    firstName: "Marcus",
    lastName: "Bell",
    phone: sitePhone(S1, 112),
    site: S1,
    createdAt: ago(500, 10 * 60),
  });
  join(ctx, S1, marcus, "clinician", rachel, ago(501, 8 * 60), 26);
  const priya = addUser(ctx, {
    role: "clinician",
    firstName: "Priya",
    lastName: "Raman",
    phone: sitePhone(S1, 113),
    site: S1,
    createdAt: ago(410, 10 * 60),
  });
  join(ctx, S1, priya, "clinician", siteadmin, ago(412, 15 * 60), 43);

  const daniel = addUser(ctx, {
    role: "clinicadmin",
    firstName: "Daniel",
    lastName: "Kowalski",
    phone: sitePhone(S2, 121),
    site: S2,
    createdAt: ago(660, 10 * 60),
  });
  join(ctx, S2, daniel, "clinicadmin", abmadmin, ago(661, 9 * 60), 25);
  const hannah = addUser(ctx, {
    role: "clinician",
    firstName: "Hannah",
    lastName: "Schultz",
    phone: sitePhone(S2, 122),
    site: S2,
    createdAt: ago(480, 10 * 60),
  });
  join(ctx, S2, hannah, "clinician", daniel, ago(481, 11 * 60), 23);
  const omar = addUser(ctx, {
    role: "clinician",
    firstName: "Omar",
    lastName: "Haddad",
    phone: sitePhone(S2, 123),
    site: S2,
    createdAt: ago(455, 10 * 60),
  });
  join(ctx, S2, omar, "clinician", daniel, ago(456, 16 * 60), 18);

  const elena = addUser(ctx, {
    role: "clinicadmin",
    firstName: "Elena",
    lastName: "Vargas",
    phone: sitePhone(S3, 131),
    site: S3,
    createdAt: ago(600, 10 * 60, S3.timeZone),
    measuringUnit: "Metric",
  });
  join(ctx, S3, elena, "clinicadmin", superadmin, ago(601, 13 * 60, S3.timeZone), 21);
  const tyler = addUser(ctx, {
    role: "clinician",
    firstName: "Tyler",
    lastName: "Brooks",
    phone: sitePhone(S3, 132),
    site: S3,
    createdAt: ago(430, 10 * 60, S3.timeZone),
  });
  join(ctx, S3, tyler, "clinician", elena, ago(431, 9 * 60, S3.timeZone), 25);
  const grace = addUser(ctx, {
    role: "clinician",
    firstName: "Grace",
    lastName: "Whitfield",
    phone: sitePhone(S3, 133),
    site: S3,
    createdAt: ago(300, 10 * 60, S3.timeZone),
  });
  join(ctx, S3, grace, "clinician", elena, ago(301, 9 * 60, S3.timeZone), 25);
  join(ctx, S3, clinician, "clinician", elena, ago(210, 10 * 60, S3.timeZone), 6); // the clinician in two sites

  const staffBySite: Record<string, { admins: Person[]; clinicians: Person[] }> = {
    [S1.id]: { admins: [siteadmin, rachel], clinicians: [clinician, marcus, priya] },
    [S2.id]: { admins: [siteadmin, daniel], clinicians: [hannah, omar] },
    [S3.id]: { admins: [elena], clinicians: [clinician, tyler, grace] },
  };
  return {
    superadmin,
    abmadmin,
    siteadmin,
    clinician,
    newclinician,
    rachel,
    marcus,
    priya,
    daniel,
    hannah,
    omar,
    elena,
    tyler,
    grace,
    bySite: staffBySite,
  };
}
