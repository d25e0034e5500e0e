// The signed-in shell (spec 1 §2.3): side bar, top bar, footer around every /app page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches } from "@remix-run/react";
import { AppShell } from "~/ui/AppShell";
import { Flash } from "~/ui/Flash";
import { requireUser } from "~/domain/accounts/auth.server";
import { photoUrl } from "~/lib/photoUrl";
import { APP_VERSION } from "~/lib/version.server";
import { env } from "~/lib/env.server";
import { countUnreadMessages, markDelivered } from "~/domain/chat/chat.server";
import { countPendingInvitations } from "~/domain/invitations/invitation.server";
import { useChatStream } from "~/domain/chat/ui/useChatStream";
import { shellNav } from "~/domain/roles";
import { useRootFlash, type RouteHandle } from "~/ui/rootData";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // Whatever was sent to the user has now reached their page (the sender sees "delivered").
  await markDelivered(user.id);
  const [unreadMessages, pendingInvitations] = await Promise.all([
    countUnreadMessages(user.id),
    countPendingInvitations(user.email),
  ]);
  return {
    shell: {
      user: {
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        role: user.role,
        isAssociatedClinic: user.isAssociatedClinic,
        photoUrl: user.photoId ? photoUrl(user.photoId) : null,
      },
      badges: { unreadMessages, pendingInvitations },
      version: APP_VERSION,
      year: new Date().getFullYear(),
    },
    /** The staff dashboards' announcement cards (app/ui/AnnouncementCards.tsx). */
    announcements: env.announcements,
  };
}

export default function AppLayout() {
  const { shell } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const flash = useRootFlash();
  const heading = [...matches]
    .reverse()
    .map((m) => (m.handle as RouteHandle | undefined)?.heading)
    .find((h) => h !== undefined);
  const text = typeof heading === "function" ? heading(shell.user.role) : (heading ?? "");
  if (matches.some((m) => (m.handle as RouteHandle | undefined)?.bare)) {
    return (
      <main className="app-content bg-light min-vh-100 p-3 p-lg-4">
        <Outlet />
      </main>
    );
  }
  return (
    <AppShell
      shell={shell}
      nav={shellNav(shell.user.role, shell.user.isAssociatedClinic)}
      heading={text}
    >
      <ChatStream />
      <Flash flash={flash} />
      <Outlet />
    </AppShell>
  );
}

/** With JavaScript, every page of the shell follows the chat stream (new messages, badges). */
function ChatStream() {
  useChatStream();
  return null;
}
