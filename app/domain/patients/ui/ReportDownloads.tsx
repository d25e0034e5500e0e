// The profile's footer (spec 3 §2.2, §7.1): the PDF over the graph range shown, and the CSV of the
// transmissions over a From/To range. Both are plain downloads: a refused range or a failure comes
// back to the profile with "Download Failed" and, for the CSV, the dates as chosen (`csvFrom`,
// `csvTo`). Once React runs the page the From/To pair follows the profile's range rules (spec 3 §5:
// To disabled until From, no day after today, Download CSV disabled until both are set).
import { Form, useLocation } from "@remix-run/react";
import { useState } from "react";
import { rangeFormState } from "~/lib/dateRange";
import { useHydrated } from "~/ui/hydration";
import { DateRangeFields } from "~/ui/RangePicker";
import type { ProfileView } from "~/domain/patients/profileView.server";

export function ReportDownloads({ view, p }: { view: ProfileView; p: string | null }) {
  const search = new URLSearchParams(useLocation().search);
  const live = useHydrated();
  const { range } = view.trends;
  // The range the page shows (a refused From/To shows the week): the PDF never gets another.
  const pdf = new URLSearchParams({ p: p ?? "" });
  if (range.kind === "custom") {
    pdf.set("from", range.fromDay);
    pdf.set("to", range.toDay);
  } else pdf.set("range", range.kind);
  const [days, setDays] = useState({
    from: search.get("csvFrom") ?? range.fromDay,
    to: search.get("csvTo") ?? range.toDay,
  });
  const state = rangeFormState(days.from, days.to, view.today);
  return (
    <section className="card mb-3" aria-label="Reports">
      <div className="card-body d-flex flex-wrap gap-3 align-items-end">
        <a href={`/app/PatientProfile/pdf?${pdf}`} className="btn btn-outline-primary">
          Download PDF
        </a>
        <Form
          method="get"
          action="/app/PatientProfile/csv"
          reloadDocument
          className="d-flex gap-2 align-items-end"
        >
          <input type="hidden" name="p" value={p ?? ""} />
          <DateRangeFields
            idPrefix="csv"
            today={view.today}
            days={days}
            live={live}
            onChange={setDays}
            required
          />
          <button
            type="submit"
            className="btn btn-outline-primary"
            disabled={live ? state.applyDisabled : undefined}
          >
            Download CSV
          </button>
        </Form>
      </div>
    </section>
  );
}
