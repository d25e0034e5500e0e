import { redirect } from "@remix-run/node";

// /login is a public route of the spec whose content is not shown: it is the sign-in at /.
export function loader() {
  return redirect("/");
}
