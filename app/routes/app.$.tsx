// Unknown paths inside the signed-in area: "OPPS! Page not found" inside the shell.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/domain/accounts/auth.server";
import { notFound } from "~/lib/http.server";

export { AppErrorBoundary as ErrorBoundary } from "~/ui/ErrorPage";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  notFound();
}

export default function NotFound() {
  return null;
}
