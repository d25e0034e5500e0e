// /decrypt?uuid=&id=&startDate=&endDate=: the therapy dashboard of an uploaded cough log (spec 3
// §2.7, §4, §5). Public: the upload's uuid is the only key. Every part is a link or a form that
// posts and redirects (selections, annotations and the report list live on the server), so it
// works without JavaScript; public/js/therapy-dashboard.js adds the right-click annotation, the
// 'Adding Graph ....' indicator and the guided tour. The page does not hydrate.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { formReply, parseForm } from "~/lib/form.server";
import { notFound } from "~/lib/http.server";
import { withParams } from "~/lib/listParams";
import { redirectWithFlash } from "~/lib/session.server";
import {
  findCoughLog,
  loadDashboardPage,
  loadDecryptTool,
  positiveInt,
  readDashboardQuery,
} from "~/domain/deviceLogs/dashboardPage.server";
import { ANNOTATION_FORM, dashboardActionSchema } from "~/domain/deviceLogs/schema";
import {
  addAnnotation,
  addReportItem,
  clearSelection,
  countReportItems,
  deleteReportItem,
  readDashboardRange,
  saveSelection,
} from "~/domain/deviceLogs/therapyDashboard.server";
import { DecryptLogDialog } from "~/domain/deviceLogs/ui/DecryptLogDialog";
import { TherapyDashboard } from "~/domain/deviceLogs/ui/TherapyDashboard";
import { useRootFlash, type RouteHandle } from "~/ui/rootData";

export const handle: RouteHandle = { hydrate: false };

async function requireCoughLog(search: URLSearchParams) {
  const found = await findCoughLog(search.get("uuid"), search.get("id"));
  if ("missing" in found) notFound("This log file is not available.");
  if ("wrongDevice" in found) notFound();
  return found.file;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  // Without a uuid: the tool's own page, the decrypt dialog for any visitor, signed in or not.
  if (!search.has("uuid")) return { tool: await loadDecryptTool(search), dashboard: null };
  const file = await requireCoughLog(search);
  return { tool: null, dashboard: await loadDashboardPage(file, readDashboardQuery(search)) };
}

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const search = url.searchParams;
  const file = await requireCoughLog(search);
  const form = await parseForm(request, dashboardActionSchema);
  if (!form.ok) return form.reply;
  const back = (changes: Record<string, string | null> = {}) =>
    `${url.pathname}${withParams(url.search, changes)}`;
  const dates = readDashboardRange(search.get("startDate"), search.get("endDate"), file);
  const graphPage = positiveInt(search.get("gp"));
  const post = form.data;

  switch (post.intent) {
    case "range": {
      const { startDate, endDate } = post;
      // Applying a range clears the selection (spec 3 §4); a refused one changes nothing.
      if (readDashboardRange(startDate, endDate, file).valid) await clearSelection(file);
      return redirect(back({ startDate, endDate, tp: null, gp: null, q: null }));
    }
    case "select":
      await saveSelection(file, post.shown, post.eventId);
      return redirect(back({ gp: null }));
    case "clearSelection":
      await clearSelection(file);
      return redirect(back({ gp: null }));
    case "addGraph":
      await addReportItem(file, dates.range, graphPage);
      return redirectWithFlash(request, back(), "success", "Graph added to the report.");
    case "generate":
      if ((await countReportItems(file)) === 0) await addReportItem(file, dates.range, graphPage);
      return redirect(back({ drawer: "report", dialog: null }));
    case "deleteItem":
      await deleteReportItem(file, post.item);
      return redirect(back({ dialog: null, item: null, zoom: null }));
    case "annotate": {
      const { x, y, text } = post;
      const result = await addAnnotation(file, dates.range, { x: Number(x), y: Number(y), text });
      // The message shows under the text, whichever rule refused it.
      if (!result.ok) {
        return formReply({ text: result.message }, { x, y, text }, { formId: ANNOTATION_FORM });
      }
      return redirect(back({ dialog: null, x: null, y: null }));
    }
  }
}

export default function DecryptPage() {
  const { tool, dashboard } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const flash = useRootFlash();
  if (tool) {
    return (
      <main className="public-page py-5">
        <DecryptLogDialog data={tool} origin="/decrypt" closeHref="/" />
      </main>
    );
  }
  return <TherapyDashboard view={dashboard!} flash={flash} reply={reply} />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data?.dashboard
      ? `${data.dashboard.file.serial} Therapy Dashboard | ARC Connect`
      : "Decrypt Log Files | ARC Connect",
  },
];
