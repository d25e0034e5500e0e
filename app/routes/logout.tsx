import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroySession, getSession } from "~/lib/session.server";

// Log out is a POST (a link or a prefetch must never sign anyone out).
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  return redirect("/", { headers: { "Set-Cookie": await destroySession(session) } });
}

export async function loader() {
  return redirect("/");
}
