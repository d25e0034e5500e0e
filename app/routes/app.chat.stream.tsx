// GET /app/chat/stream: the signed-in user's chat events for any portal page (domain/chat/stream.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalUser } from "~/domain/accounts/auth.server";
import { chatEventStream, expiredStream } from "~/domain/chat/stream.server";
import { getSession } from "~/lib/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) return expiredStream();
  const session = await getSession(request);
  return chatEventStream(request.signal, { userId: user.id, sessionId: session.id });
}
