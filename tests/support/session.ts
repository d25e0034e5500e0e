// A signed-in Browser for route tests: the session row is made directly, as after the code step.
import crypto from "node:crypto";
import { sessionStorage } from "~/lib/session.server";
import { Browser } from "./requests";

export async function signedInBrowser(userId: string) {
  const session = await sessionStorage.getSession();
  session.set("userId", userId);
  session.set("authenticatedAt", Date.now());
  const setCookie = await sessionStorage.commitSession(session);
  const browser = new Browser(`203.0.113.${crypto.randomInt(1, 250)}`);
  browser.cookie = setCookie.split(";")[0];
  return browser;
}
