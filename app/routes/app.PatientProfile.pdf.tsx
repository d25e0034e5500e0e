// /app/PatientProfile/pdf?p=...&range|from|to: the patient report PDF ('{prefix_}ARC Connect.pdf',
// spec 3 §7.1) over the profile's graph range, built on the server (domain/reports). The same
// guard as the profile: another care site's patient is 404. A failure goes back to the profile
// with "Download Failed".
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireProfile } from "~/domain/actor.server";
import { clientIp } from "~/lib/http.server";
import { logger } from "~/lib/logger.server";
import { redirectWithFlash } from "~/lib/session.server";
import { auditProfileView } from "~/domain/patients/profile.server";
import { loadReportData } from "~/domain/patients/profileView.server";
import { buildPatientReportPdf, patientReportFileName } from "~/domain/reports/patientReport";
import { profileMessages } from "~/domain/patients/schema";

export async function loader({ request }: LoaderFunctionArgs) {
  const { viewer, found } = await requireProfile(request);
  const url = new URL(request.url);
  try {
    const { data, error } = await loadReportData(found, viewer, url.searchParams);
    if (error) return await backWithFlash(request, `${profileMessages.downloadFailed}: ${error}`);
    const pdf = await buildPatientReportPdf(data);
    await auditProfileView(
      viewer,
      found.patientId,
      { careSiteId: found.careSite?.id, ip: clientIp(request) },
      "pdf",
    );
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${patientReportFileName(data.patient)}"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    // A thrown Response (storage full: 503) is an answer, not a failure of this action.
    if (error instanceof Response) throw error;
    logger.error("patient report failed", { error, patientId: found.patientId });
    return backWithFlash(request, profileMessages.downloadFailed);
  }
}

/** Back to the profile on the graph range the PDF was asked for. */
function backWithFlash(request: Request, message: string) {
  const asked = new URL(request.url).searchParams;
  const back = new URLSearchParams();
  for (const name of ["p", "range", "from", "to"]) {
    const value = asked.get(name);
    if (value !== null) back.set(name, value);
  }
  const to = `/app/PatientProfile?${back}`;
  return redirectWithFlash(request, to, "danger", message);
}
