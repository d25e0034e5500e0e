// GET /app/chat/stream: the signed-in user's chat events for any portal page (lib/chatStream.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalUser } from "~/lib/auth.server";
import { chatEventStream, expiredStream } from "~/lib/chatStream.server";
import { getSession } from "~/lib/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) return expiredStream();
  const session = await getSession(request);
  return chatEventStream(request, { userId: user.id, sessionId: session.id });
}
