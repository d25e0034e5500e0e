// The patient profile page (spec 3 §2.2–§2.4): header, Adherence Score, Therapy Details, Therapy
// Trends with the HMR graph, Therapy Goal and its history, and the PDF and CSV downloads. Charts
// arrive as SVG strings drawn on the server; everything else is links and forms. A refused form
// comes back as the action's { fieldErrors, repopulateFields } (lib/form.server.ts).
import { Link, useLocation } from "@remix-run/react";
import { useCloseHref, useDialogHref } from "~/ui/Dialog";
import type { FormReplyData } from "~/lib/form.server";
import type { ProfileView } from "~/domain/patients/profileView.server";
import {
  GOAL_WEEKDAYS,
  goalDraftOf,
  therapiesText,
  WEEKDAY_LABELS,
} from "~/domain/patients/schema";
import { HealthSummaryDialog, NoteDialog, PersonalInfoDialog } from "./ProfileDialogs";
import { AccountDialog, MoveDeviceDialog, UnpairDialog } from "./ProfileConfirmations";
import { GoalDialog, type GoalFormState } from "./GoalDialog";
import { ReportDownloads } from "./ReportDownloads";
import { ProfileHeader, type FieldReply } from "./ProfileHeader";
import { Chart, Section } from "./ProfileSection";
import { TherapyDetails, TherapyTrends, type ProfileParams } from "./TherapySections";

export type { GoalFormState };

export type ProfileActionData =
  | FormReplyData
  /** Pairing a device that is paired with another patient of the care site: confirm first. */
  | { form: "pairMove"; serial: string; pairingId: string; fromName: string };

const GOAL_INTENTS = new Set(["goal", "goal-minus", "goal-plus"]);

/** What a refused form sent back: per field, the value to show again and its message. */
function readReply(actionData: ProfileActionData | undefined) {
  const reply = actionData && "fieldErrors" in actionData ? actionData : null;
  const errors = reply?.fieldErrors ?? {};
  const values = reply?.repopulateFields ?? {};
  const field = (name: string): FieldReply => {
    const value = values[name];
    return { value: typeof value === "string" ? value : undefined, error: errors[name] };
  };
  const goal: GoalFormState | null = GOAL_INTENTS.has(String(values.intent))
    ? { ...goalDraftOf(values), error: Object.values(errors)[0] ?? null }
    : null;
  return { field, goal };
}

export function PatientProfilePage({
  view,
  canPair,
  canUnpair,
  actionData,
}: {
  view: ProfileView;
  canPair: boolean;
  /** The patient's device was paired where the viewer is staff (or the patient has none). */
  canUnpair: boolean;
  actionData?: ProfileActionData;
}) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const dialog = search.get("dialog");
  const closeHref = useCloseHref();
  const dialogHref = useDialogHref();
  const p = view.patient;
  const keep: ProfileParams = {
    p: search.get("p"),
    range: search.get("range"),
    from: search.get("from"),
    to: search.get("to"),
    day: search.get("day"),
    therapy: search.get("therapy"),
    trendDay: search.get("trendDay"),
  };
  const reply = readReply(actionData);
  const goalState: GoalFormState = reply.goal ?? {
    days: [...GOAL_WEEKDAYS],
    count: "0",
    error: null,
  };
  const note = reply.field("note");
  const move = actionData && "form" in actionData ? actionData : null;

  return (
    <>
      <ProfileHeader
        view={view}
        canPair={canPair}
        canUnpair={canUnpair}
        tag={reply.field("patientTag")}
        pair={reply.field("serial")}
      />

      <Section title="Adherence Score" id="adherence">
        <div className="d-flex flex-wrap gap-4 align-items-center">
          <div className="text-center">
            <Chart svg={view.adherence.gaugeSvg} />
            <p className="small text-muted mb-0">
              As of {view.asOf}:{" "}
              <strong data-testid="adherence-score">
                {view.adherence.percent === null ? "-" : `${view.adherence.percent}%`}
              </strong>
            </p>
          </div>
          <div>
            <Chart svg={view.adherence.calendarSvg} />
            <ul
              className="list-inline small mb-0"
              aria-label="Last 7 days"
              data-testid="adherence-days"
            >
              {view.adherence.calendar.map((c) => (
                <li key={c.day} className="list-inline-item">
                  {c.day}: {c.text}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Section>

      <TherapyDetails view={view} keep={keep} />

      <TherapyTrends view={view} keep={keep} />

      <Section title="Therapy Goal" id="goals">
        {view.goals[0] ? (
          <p data-testid="active-goal">
            {therapiesText(view.goals[0].timesPerDay)} a day on{" "}
            {view.goals[0].days
              .map((d) => WEEKDAY_LABELS[d as keyof typeof WEEKDAY_LABELS] ?? d)
              .join(", ")}
          </p>
        ) : (
          <p className="text-muted">No therapy goal set.</p>
        )}
        {view.pairId ? (
          <Link to={dialogHref("goal")} className="btn btn-primary mb-3" preventScrollReset>
            Set new therapy goals
          </Link>
        ) : (
          <button type="button" className="btn btn-primary mb-3" disabled style={{ opacity: 0.5 }}>
            Set new therapy goals
          </button>
        )}
        <h3 className="h6">Therapy Goal History</h3>
        {view.goals.length === 0 ? (
          <p className="text-muted">No data found</p>
        ) : (
          <table className="table table-sm" aria-label="Therapy Goal History">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Therapies per day</th>
                <th scope="col">Days</th>
                <th scope="col">Set by</th>
                <th scope="col">Set on</th>
              </tr>
            </thead>
            <tbody>
              {view.goals.map((g) => (
                <tr key={g.id}>
                  <td>{g.status}</td>
                  <td>{g.timesPerDay}</td>
                  <td>
                    {g.days
                      .map((d) => WEEKDAY_LABELS[d as keyof typeof WEEKDAY_LABELS] ?? d)
                      .join(", ")}
                  </td>
                  <td>{g.createdBy}</td>
                  <td>{g.createdOn}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <ReportDownloads view={view} p={keep.p} />

      {dialog === "health" ? <HealthSummaryDialog view={view} closeHref={closeHref} /> : null}
      {dialog === "personal" ? <PersonalInfoDialog view={view} closeHref={closeHref} /> : null}
      {dialog === "note" ? (
        <NoteDialog view={view} closeHref={closeHref} value={note.value} error={note.error} />
      ) : null}
      {dialog === "goal" && view.pairId ? (
        <GoalDialog key={JSON.stringify(goalState)} closeHref={closeHref} state={goalState} />
      ) : null}
      {dialog === "activate" && !p.accepted ? (
        <AccountDialog intent="activate" closeHref={closeHref} />
      ) : null}
      {dialog === "deactivate" && p.accepted ? (
        <AccountDialog intent="deactivate" closeHref={closeHref} />
      ) : null}
      {dialog === "unpair" && canPair && canUnpair && p.deviceSerial && view.pairId ? (
        <UnpairDialog
          closeHref={closeHref}
          serial={p.deviceSerial}
          pairingId={view.pairId}
          patientName={`${p.firstName} ${p.lastName}`}
        />
      ) : null}
      {move && canPair ? (
        <MoveDeviceDialog
          closeHref={closeHref}
          serial={move.serial}
          pairingId={move.pairingId}
          fromName={move.fromName}
          toName={`${p.firstName} ${p.lastName}`}
        />
      ) : null}
    </>
  );
}
