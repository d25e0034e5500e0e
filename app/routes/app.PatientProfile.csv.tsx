// /app/PatientProfile/csv?p=...&from=&to=: the patient's transmissions sent in From..To (care site
// days) as CSV (spec 3 §7.1), after four lines stating the window, who generated it when, and the
// adherence rule. The same guard as the profile; a bad range goes back to the profile
// with the spec's range message and "Download Failed", the chosen dates kept (csvFrom, csvTo).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireProfile } from "~/domain/actor.server";
import { readRange } from "~/lib/dateRange";
import { clientIp } from "~/lib/http.server";
import { redirectWithFlash } from "~/lib/session.server";
import { dayInZone, yesterdayInZone } from "~/lib/time";
import { auditProfileView, profileZone } from "~/domain/patients/profile.server";
import { getPatient, transmissionsInRange } from "~/domain/patients/profileQueries.server";
import { ADHERENCE_RULE, reportAuthor } from "~/domain/patients/profileView.server";
import {
  transmissionsCsvFileName,
  transmissionsReportCsv,
} from "~/domain/reports/transmissionsCsv";
import { profileMessages } from "~/domain/patients/schema";

export async function loader({ request }: LoaderFunctionArgs) {
  const { viewer, found } = await requireProfile(request);
  const url = new URL(request.url);
  const zone = profileZone(found);
  const now = new Date();
  const range = readRange(url.searchParams, yesterdayInZone(now, zone), dayInZone(now, zone), [
    "week",
    "month",
  ]);
  if (range.error) {
    // Back to the profile with the dates as chosen, for the user to correct them.
    const back = `/app/PatientProfile?${new URLSearchParams({
      p: url.searchParams.get("p") ?? "",
      csvFrom: url.searchParams.get("from") ?? "",
      csvTo: url.searchParams.get("to") ?? "",
    })}`;
    return redirectWithFlash(
      request,
      back,
      "danger",
      `${profileMessages.downloadFailed}: ${range.error}`,
    );
  }
  const [patient, rows] = await Promise.all([
    getPatient(found.patientId),
    transmissionsInRange(found.patientId, zone, range.fromDay, range.toDay),
  ]);
  await auditProfileView(
    viewer,
    found.patientId,
    { careSiteId: found.careSite?.id, ip: clientIp(request) },
    "csv",
  );
  const fileName = transmissionsCsvFileName(patient, range.fromDay, range.toDay);
  const csv = transmissionsReportCsv(rows, {
    patientName: `${patient.firstName} ${patient.lastName}`,
    window: range,
    generatedAt: now,
    generatedBy: reportAuthor(viewer),
    adherenceRule: ADHERENCE_RULE,
    timeZone: zone,
  });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
