// Session guards: signed out, idle and absolute expiry, public routes for signed-in users, logout.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { action as logout } from "~/routes/logout";
import { loader as landing } from "~/routes/_index";
import { loader as appLoader } from "~/routes/app";
import { loader as home } from "~/routes/app._index";
import { createCareSite, createUser, PASSWORD } from "../support/factories";
import { Browser, locationOf, statusOf } from "../support/requests";
import { action } from "~/routes/_index";

async function signedIn(role = "clinician") {
  const site = await createCareSite();
  const user = await createUser({ role, careSites: [{ id: site.id }] });
  const browser = new Browser();
  await browser.run(
    action,
    browser.post("/?index", {
      intent: "credentials",
      usernameOrEmail: user.username,
      password: PASSWORD,
    }),
  );
  const sms = await prisma.outboxMessage.findFirstOrThrow({
    where: { to: user.phone },
    orderBy: { createdAt: "desc" },
  });
  await browser.run(
    action,
    browser.post("/?index", { intent: "code", code: sms.body.match(/\d{4}/)![0] }),
  );
  const sessionId = (await prisma.session.findFirstOrThrow({ where: { userId: user.id } })).id;
  return { browser, user, sessionId };
}

describe("sessions", () => {
  it("sends a signed-out visit to /app to /", async () => {
    const browser = new Browser();
    expect(locationOf(await browser.run(appLoader, browser.get("/app")))).toBe("/");
  });

  it("sends a signed-in visit to a public route to /app", async () => {
    const { browser } = await signedIn();
    expect(locationOf(await browser.run(landing, browser.get("/")))).toBe("/app");
  });

  it("expires after 30 idle minutes with the session-expired screen", async () => {
    const { browser, sessionId } = await signedIn();
    expect(statusOf(await browser.run(appLoader, browser.get("/app")))).toBe(200);
    await prisma.session.update({
      where: { id: sessionId },
      data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) },
    });
    expect(locationOf(await browser.run(appLoader, browser.get("/app")))).toBe("/expired");
    expect(await prisma.session.findUnique({ where: { id: sessionId } })).toBeNull();
    // After that the visitor is simply signed out.
    expect(locationOf(await browser.run(appLoader, browser.get("/app")))).toBe("/");
  });

  it("expires 12 hours after sign-in however active the user is", async () => {
    const { browser, sessionId } = await signedIn();
    await prisma.session.update({
      where: { id: sessionId },
      data: {
        authenticatedAt: new Date(Date.now() - 12 * 3_600_000 - 1000),
        lastSeenAt: new Date(),
      },
    });
    expect(locationOf(await browser.run(appLoader, browser.get("/app")))).toBe("/expired");
  });

  it("logs out by POST and the session cannot be reused", async () => {
    const { browser, sessionId } = await signedIn();
    const cookie = browser.cookie;
    expect(locationOf(await browser.run(logout, browser.post("/logout", {})))).toBe("/");
    expect(await prisma.session.findUnique({ where: { id: sessionId } })).toBeNull();
    const replay = new Browser();
    replay.cookie = cookie;
    expect(locationOf(await replay.run(appLoader, replay.get("/app")))).toBe("/");
  });

  it("only lets a user choose one of their own care sites", async () => {
    const { browser } = await signedIn();
    const foreign = await createCareSite();
    const { action: chooseSite } = await import("~/routes/app._index");
    const result = await browser.run(
      chooseSite,
      browser.post("/app?index", { intent: "chooseCareSite", careSiteId: foreign.id }),
    );
    expect(statusOf(result)).toBe(404);
    expect(statusOf(await browser.run(home, browser.get("/app")))).toBe(200);
  });
});
