// /availability?username=…&email=…: the as-you-type uniqueness check of the registration form
// (with JavaScript; without it the same check runs on submit). Answers only "taken" messages.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { clientIp } from "~/lib/http.server";
import { consumeForIp, rates, TOO_MANY_REQUESTS } from "~/lib/throttle.server";
import { findTaken } from "~/domain/accounts/registration.server";

export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await consumeForIp(clientIp(request), "availability", rates.availabilityPerIp))) {
    return Response.json({ error: TOO_MANY_REQUESTS }, { status: 429 });
  }
  const params = new URL(request.url).searchParams;
  const username = params.get("username")?.slice(0, 64) ?? undefined;
  const email = params.get("email")?.trim().slice(0, 254) ?? undefined;
  const taken = await findTaken({ username, email });
  return Response.json({ username: taken.username ?? null, email: taken.email ?? null });
}
