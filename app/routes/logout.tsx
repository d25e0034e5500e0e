import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { readForm } from "~/lib/formBody.server";
import { destroySession, getSession } from "~/lib/session.server";

// Log out is a POST (a link or a prefetch must never sign anyone out). The post is the Log Out
// form's (no fields): a body that is not a form is refused like on every other screen (415, 400,
// 413 with a message) and signs no one out.
export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const session = await getSession(request);
  return redirect("/", { headers: { "Set-Cookie": await destroySession(session) } });
}

export async function loader() {
  return redirect("/");
}
