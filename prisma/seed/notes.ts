// What the care teams wrote and set: notes on the notable patients, each site's notification
// settings.
import { buildNotificationSetting, buildPatientNote, pad } from "../factories";
import { SITES, type SiteDef } from "./content";
import type { Notable } from "./patients";
import type { Staff } from "./staff";
import type { Ctx, Person } from "./world";

export function addNotes(ctx: Ctx, staff: Staff, notable: Notable) {
  const [S1, , S3] = SITES;
  const noteTargets: [Person | undefined, SiteDef, Person, number, string][] = [
    [
      notable.repaired,
      S1,
      staff.clinician,
      35,
      "Device replaced after a pressure sensor fault; settings copied to the new unit.",
    ],
    [
      notable.reused,
      S1,
      staff.marcus,
      9,
      "First week on cough assist. Caregiver trained on Auto mode; call on Friday.",
    ],
    [
      notable.neverTransmitted,
      S3,
      staff.grace,
      2,
      "Device paired but no data yet. Check Wi-Fi setup at home visit.",
    ],
  ];
  let noteSeq = 0;
  for (const [patient, site, author, daysAgo, body] of noteTargets) {
    if (!patient) continue;
    const t = ctx.ago(daysAgo, 14 * 60, site.timeZone);
    ctx.w.PatientNote.push(
      buildPatientNote({
        id: `seed-note-${pad(++noteSeq, 3)}`,
        patientId: patient.id,
        careSiteId: site.id,
        authorId: author.id,
        body,
        createdAt: t,
        updatedAt: t,
      }),
    );
  }
}

export function addNotificationSettings(ctx: Ctx, staff: Staff) {
  const [S1, S2, S3] = SITES;
  const { siteadmin, rachel, daniel, elena } = staff;
  const settingRecipients: Record<string, [Person, Person[]]> = {
    [S1.id]: [siteadmin, [siteadmin, rachel]],
    [S2.id]: [daniel, [daniel, siteadmin]],
    [S3.id]: [elena, [elena]],
  };
  SITES.forEach((site, i) => {
    const [by, to] = settingRecipients[site.id];
    ctx.w.NotificationSetting.push(
      buildNotificationSetting({
        careSiteId: site.id,
        days: "monday,tuesday,wednesday,thursday,friday",
        recipients: to.map((p) => p.email).join(","),
        adherenceThreshold: 70,
        spo2Threshold: 90,
        therapyAdjustment: true,
        updatedById: by.id,
        updatedAt: ctx.ago(40 + i * 11, 9 * 60, site.timeZone),
      }),
    );
  });
}
