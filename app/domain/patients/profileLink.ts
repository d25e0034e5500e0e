// The patient profile's address (spec 2 §2, spec 3 §2.1): /app/PatientProfile?p= the base64 of a
// JSON object {profile_id, clinic_id, pair_id}, each null when absent. One encoder for every list
// that links there, and the decoder the profile page uses.
/** Spec 3 §8: a patient without pair_id, clicked in a list (and the profile of one). */
export const notAssociatedWithDevice = (firstName: string, lastName: string) =>
  `${firstName} ${lastName} is not associated with any device`;

export type PatientProfileIds = {
  profileId: string;
  clinicId: string | null;
  pairId: string | null;
};

function toBase64(text: string) {
  return typeof Buffer !== "undefined" ? Buffer.from(text).toString("base64") : btoa(text);
}

function fromBase64(text: string) {
  return typeof Buffer !== "undefined" ? Buffer.from(text, "base64").toString("utf8") : atob(text);
}

export function patientProfileHref(ids: PatientProfileIds) {
  const json = JSON.stringify({
    profile_id: ids.profileId,
    clinic_id: ids.clinicId,
    pair_id: ids.pairId,
  });
  return `/app/PatientProfile?p=${encodeURIComponent(toBase64(json))}`;
}

/** The ids in a `p` parameter, or null when it is not one of ours. */
export function readPatientProfileParam(p: string | null): PatientProfileIds | null {
  if (!p || p.length > 1000) return null;
  try {
    const value = JSON.parse(fromBase64(p)) as Record<string, unknown>;
    const str = (v: unknown) =>
      typeof v === "string" && v.length > 0 && v.length <= 100 ? v : null;
    const profileId = str(value.profile_id);
    return profileId
      ? { profileId, clinicId: str(value.clinic_id), pairId: str(value.pair_id) }
      : null;
  } catch {
    return null;
  }
}
