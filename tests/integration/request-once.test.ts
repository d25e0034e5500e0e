// The reads every signed-in page makes happen once per request: the root, the shell's layout and
// the page each ask for the session and the user, and they share one answer (session.server.ts
// getSession, accounts/auth.server.ts requireUser).
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { commitSession, getSession } from "~/lib/session.server";
import { requireUser } from "~/domain/accounts/auth.server";
import { requireActor } from "~/domain/actor.server";
import { loader as rootLoader } from "~/root";
import { loader as shellLoader } from "~/routes/app";
import { createCareSite, createUser } from "../support/factories";
import { signedInBrowser } from "../support/session";
import { Browser, locationOf } from "../support/requests";

describe("one read of the session and the user per request", () => {
  it("gives a request's loaders the same session and user, and a new request reads again", async () => {
    const site = await createCareSite();
    const user = await createUser({ careSites: [{ id: site.id }] });
    const browser = await signedInBrowser(user.id);
    const request = browser.get("/app");

    const session = await getSession(request);
    expect(await getSession(request)).toBe(session);
    const shellUser = await requireUser(request);
    expect(await requireUser(request)).toBe(shellUser);
    expect((await requireActor(request)).id).toBe(user.id);

    // What one loader changes in the request's session the others see, and a commit keeps it.
    session.set("careSiteId", site.id);
    expect((await getSession(request)).get("careSiteId")).toBe(site.id);
    await commitSession(session);

    // The next request reads the row and the user afresh.
    await prisma.user.update({ where: { id: user.id }, data: { firstName: "Renamed" } });
    const next = browser.get("/app");
    expect(await getSession(next)).not.toBe(session);
    expect((await getSession(next)).get("careSiteId")).toBe(site.id);
    expect((await requireUser(next)).firstName).toBe("Renamed");
  });

  it("consumes a flash once for the whole page: the root shows it, the layout sees it gone", async () => {
    const site = await createCareSite();
    const user = await createUser({ careSites: [{ id: site.id }] });
    const browser = await signedInBrowser(user.id);
    const before = browser.get("/app");
    const session = await getSession(before);
    session.flash("flash", { kind: "success", message: "Saved" });
    await commitSession(session);

    const request = browser.get("/app");
    const root = (await rootLoader({ request, params: {}, context: {} })) as unknown as {
      data: { flash: { message: string } | null };
    };
    expect(root.data.flash?.message).toBe("Saved");
    expect((await getSession(request)).get("flash")).toBeUndefined();
    await shellLoader({ request, params: {}, context: {} });
    expect((await getSession(browser.get("/app"))).get("flash")).toBeUndefined();
  });

  it("answers every guard of a signed-out request with the same redirect to /", async () => {
    const browser = new Browser();
    const request = browser.get("/app");
    const first = await requireUser(request).catch((r: unknown) => r);
    const second = await requireUser(request).catch((r: unknown) => r);
    expect(locationOf(first)).toBe("/");
    expect(second).toBe(first);
  });
});
