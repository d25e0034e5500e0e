// /dev/outbox: the newest emails and text messages, for development and demos (404 in production
// unless EXPOSE_OUTBOX=1).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { env } from "~/lib/env.server";
import { notFound } from "~/lib/http.server";
import { listRecentMessages } from "~/lib/outbox.server";
import type { RouteHandle } from "~/ui/rootData";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Outbox | ARC Connect" }];

export async function loader(_: LoaderFunctionArgs) {
  if (!env.outboxPageEnabled) notFound();
  const messages = await listRecentMessages(50);
  return { messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) };
}

export default function DevOutbox() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <main className="container py-4">
      <h1 className="h3">Outbox</h1>
      <p className="text-muted">
        The 50 newest messages, newest first. Not available in production.
      </p>
      <table className="table table-sm table-striped">
        <thead>
          <tr>
            <th>Time (UTC)</th>
            <th>Channel</th>
            <th>To</th>
            <th>Subject</th>
            <th>Message</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {messages.length === 0 ? (
            <tr>
              <td colSpan={6}>No data found</td>
            </tr>
          ) : (
            messages.map((m) => (
              <tr key={m.id} data-testid="outbox-row">
                <td>{m.createdAt.replace("T", " ").slice(0, 19)}</td>
                <td>{m.channel}</td>
                <td>{m.to}</td>
                <td>{m.subject ?? ""}</td>
                <td>{m.body}</td>
                <td>{m.status}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </main>
  );
}
