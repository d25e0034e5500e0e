// A report of the notification summary archive (spec 2 "Notification summary", §8; issue 21 item
// 9). Without JavaScript it is a plain download link to the CSV route. With JavaScript a click
// fetches the file, the link reads "Loading data..." until it is ready, and the file is saved
// through a temporary link; a failed fetch saves the spec's text "No notifications for this date"
// (what the server answers for a day without a summary), under the report's name.
import { useState, type MouseEvent } from "react";
import { notificationMessages } from "~/domain/notifications/schema";

export const LOADING_TEXT = "Loading data...";

/** Saves `blob` as `fileName` (an object URL on a temporary link, released afterwards). */
function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Released once the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The report's file, or null when the session has ended (the fetch was redirected). */
async function fetchReport(href: string): Promise<Blob | null> {
  try {
    const response = await fetch(href, { redirect: "manual" });
    if (response.type === "opaqueredirect") return null;
    if (!response.ok) throw new Error(`status ${response.status}`);
    return await response.blob();
  } catch {
    return new Blob([notificationMessages.noNotifications], { type: "text/csv" });
  }
}

export function ArchiveReportLink({ href, reportName }: { href: string; reportName: string }) {
  const [loading, setLoading] = useState(false);

  async function download(event: MouseEvent<HTMLAnchorElement>) {
    // A new tab or window, or a save-as, is the browser's own business.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    if (loading) return;
    setLoading(true);
    const blob = await fetchReport(href);
    // A signed-out session: the plain link takes the user to the sign-in page, which says why.
    if (blob === null) window.location.assign(href);
    else saveBlob(blob, `${reportName}.csv`);
    setLoading(false);
  }

  return (
    <a href={href} download onClick={download} aria-busy={loading || undefined}>
      {loading ? LOADING_TEXT : reportName}
    </a>
  );
}
