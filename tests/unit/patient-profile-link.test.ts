import { describe, expect, it } from "vitest";
import { patientProfileHref, readPatientProfileParam } from "~/domain/patients/profileLink";

describe("the patient profile link (spec 2 §2)", () => {
  it("encodes base64 JSON with profile_id, clinic_id and pair_id and reads it back", () => {
    const href = patientProfileHref({ profileId: "u1", clinicId: "c1", pairId: null });
    const p = decodeURIComponent(href.split("?p=")[1]);
    expect(JSON.parse(Buffer.from(p, "base64").toString())).toEqual({
      profile_id: "u1",
      clinic_id: "c1",
      pair_id: null,
    });
    expect(readPatientProfileParam(p)).toEqual({ profileId: "u1", clinicId: "c1", pairId: null });
  });
  it("refuses what is not one of ours", () => {
    for (const p of [
      null,
      "",
      "%%%",
      Buffer.from("[1]").toString("base64"),
      Buffer.from('{"profile_id":5}').toString("base64"),
    ]) {
      expect(readPatientProfileParam(p)).toBeNull();
    }
  });
});
