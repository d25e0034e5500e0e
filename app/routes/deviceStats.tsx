// /deviceStats (spec 3 §2.9): the devices' performance records, for the provider's own engineers.
// Public in routing, shut behind the internal password (domain/deviceStats/gate.server.ts). Works
// without JavaScript: the range picker, the column chooser, the profile data and the delete
// confirmation are URL states (?dialog=range|columns|profile|delete); searching, paging and the
// page size are GET forms; exports are downloads of /deviceStats/export.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  closeDeviceStats,
  DEVICE_STATS_PATH,
  deviceStatsConfigured,
  hasDeviceStatsAccess,
  keepChosenColumns,
  openDeviceStats,
  readChosenColumns,
} from "~/domain/deviceStats/gate.server";
import { formReply, parseForm } from "~/lib/form.server";
import { clientIp } from "~/lib/http.server";
import { withParams } from "~/lib/listParams";
import {
  chosenColumns,
  deleteAllDeviceStats,
  loadDeviceStatsPage,
  readStatsQuery,
} from "~/domain/deviceStats/deviceStats.server";
import { deviceStatsActionSchema } from "~/domain/deviceStats/schema";
import { PasswordBox } from "~/domain/deviceStats/ui/PasswordBox";
import { StatsView } from "~/domain/deviceStats/ui/StatsView";
import type { RouteHandle } from "~/ui/rootData";

export const handle: RouteHandle = { hydrate: false };

export async function loader({ request }: LoaderFunctionArgs) {
  const cookie = request.headers.get("Cookie");
  if (!(await hasDeviceStatsAccess(cookie))) {
    return { gate: { configured: deviceStatsConfigured() }, stats: null };
  }
  const search = new URL(request.url).searchParams;
  const stats = await loadDeviceStatsPage({
    query: readStatsQuery(search),
    columns: chosenColumns((await readChosenColumns(cookie)) ?? []),
    profileId: search.get("dialog") === "profile" ? Number(search.get("id")) : null,
    deleted: search.get("deleted"),
  });
  return { gate: null, stats };
}

/** Where a post goes back to: the page with the query it was sent from, without a dialog. */
function backTo(from: string, changes: Record<string, string | null> = {}) {
  const search = from.startsWith("?") ? from : "";
  return `${DEVICE_STATS_PATH}${withParams(search, { dialog: null, id: null, ...changes })}`;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await parseForm(request, deviceStatsActionSchema);
  if (form.ok && form.data.intent === "password") {
    const opened = await openDeviceStats(form.data.password, clientIp(request));
    // 401 with the gate's message; the reply never holds the password.
    if (!opened.ok) return formReply({ password: opened.message }, {}, { status: 401 });
    return redirect(DEVICE_STATS_PATH, { headers: { "Set-Cookie": opened.setCookie } });
  }
  if (!(await hasDeviceStatsAccess(request.headers.get("Cookie")))) {
    return redirect(DEVICE_STATS_PATH);
  }
  if (!form.ok) return form.reply;
  const post = form.data;
  switch (post.intent) {
    case "columns": {
      const columns = chosenColumns(post.column, Boolean(post.reset));
      return redirect(backTo(post.from), {
        headers: { "Set-Cookie": await keepChosenColumns(columns) },
      });
    }
    case "deleteAll": {
      const count = await deleteAllDeviceStats({ ip: clientIp(request) });
      return redirect(backTo(post.from, { deleted: String(count), page: null }));
    }
    case "lock":
      return redirect(DEVICE_STATS_PATH, { headers: { "Set-Cookie": await closeDeviceStats() } });
  }
}

export default function DeviceStatsPage() {
  const { gate, stats } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <main className="device-stats p-3 p-lg-4">
      <header className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h4 mb-0">
          <Link to="/" className="text-decoration-none fw-bold me-2">
            ARC Connect
          </Link>
          Device Statistics
        </h1>
        {stats ? (
          <Form method="post">
            <input type="hidden" name="intent" value="lock" />
            <button type="submit" className="btn btn-outline-secondary btn-sm">
              Lock
            </button>
          </Form>
        ) : null}
      </header>
      {stats ? (
        <StatsView stats={stats} />
      ) : (
        <PasswordBox configured={gate!.configured} error={refused?.fieldErrors.password} />
      )}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Device Statistics | ARC Connect" }];
