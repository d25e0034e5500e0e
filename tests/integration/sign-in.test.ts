// The sign-in steps through the real route module, a real SQLite file and the outbox table.
import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { messages } from "~/models/signIn.server";
import { action, loader } from "~/routes/_index";
import { loader as appLoader } from "~/routes/app";
import { createCareSite, createUser, PASSWORD } from "../support/factories";
import { bodyOf, Browser, locationOf, statusOf } from "../support/requests";

async function lastCodeFor(phone: string) {
  const message = await prisma.outboxMessage.findFirstOrThrow({
    where: { to: phone, channel: "sms" },
    orderBy: { createdAt: "desc" },
  });
  return message.body.match(/\b(\d{4})\b/)![1];
}

async function submitPassword(browser: Browser, login: string, password = PASSWORD) {
  return browser.run(
    action,
    browser.post("/?index", { intent: "credentials", usernameOrEmail: login, password }),
  );
}

async function submitCode(browser: Browser, code: string) {
  return browser.run(action, browser.post("/?index", { intent: "code", code }));
}

function wrongCode(right: string) {
  return right === "0000" ? "1111" : "0000";
}

describe("sign in with a password and a 4-digit code", () => {
  let browser: Browser;
  beforeEach(() => {
    browser = new Browser();
  });

  it("sends a code by text message and signs in with it, on a new session id", async () => {
    const site = await createCareSite();
    const user = await createUser({ role: "clinician", careSites: [{ id: site.id }] });

    const first = await submitPassword(browser, user.username);
    expect(locationOf(first)).toBe("/");
    const preSignIn = browser.cookie;

    const page = await bodyOf(await browser.run(loader, browser.get("/")));
    expect(page).toMatchObject({
      step: "code",
      maskedPhone: `+${"*".repeat(user.phone.length - 3)}${user.phone.slice(-3)}`,
    });

    const code = await lastCodeFor(user.phone);
    const done = await submitCode(browser, code);
    expect(locationOf(done)).toBe("/app");
    expect(browser.cookie).not.toBe(preSignIn);

    const shell = await bodyOf<{ shell: { user: { role: string } } }>(
      await browser.run(appLoader, browser.get("/app")),
    );
    expect(shell.shell.user.role).toBe("clinician");
    // The code works once.
    expect(await prisma.oneTimeCode.count({ where: { userId: user.id, consumedAt: null } })).toBe(
      0,
    );
  });

  it("accepts the email address as the login, in any case", async () => {
    const user = await createUser({ role: "superadmin" });
    expect(locationOf(await submitPassword(browser, user.email.toUpperCase()))).toBe("/");
    expect(locationOf(await submitCode(browser, await lastCodeFor(user.phone)))).toBe("/app");
  });

  it("sends care site staff without an accepted care site to their invitations", async () => {
    const site = await createCareSite();
    const clinician = await createUser({
      role: "clinician",
      careSites: [{ id: site.id, status: "pending" }],
    });
    await submitPassword(browser, clinician.username);
    expect(locationOf(await submitCode(browser, await lastCodeFor(clinician.phone)))).toBe(
      "/app/cliniciantable",
    );

    const admin = await createUser({ role: "clinicadmin" });
    const other = new Browser();
    await submitPassword(other, admin.username);
    expect(locationOf(await submitCode(other, await lastCodeFor(admin.phone)))).toBe(
      "/app/clinicadmin",
    );
  });

  it("answers a wrong password with the spec's message, never a 500", async () => {
    const user = await createUser();
    const result = await submitPassword(browser, user.username, "Wrong-pass1!");
    expect(statusOf(result)).toBe(400);
    expect(await bodyOf(result)).toMatchObject({ formError: messages.badCredentials });
    const unknown = await submitPassword(browser, "nobody.here", "Wrong-pass1!");
    expect(await bodyOf(unknown)).toMatchObject({ formError: messages.badCredentials });
  });

  it("validates the fields before checking anything", async () => {
    const result = await submitPassword(browser, "", "123");
    expect(statusOf(result)).toBe(422);
    const body = await bodyOf<{ fieldErrors: Record<string, string> }>(result);
    expect(body.fieldErrors).toEqual({
      usernameOrEmail: "Required",
      password: "Must be at least 6 characters",
    });
  });

  it("gives each wrong-code case its message", async () => {
    const user = await createUser();
    await submitPassword(browser, user.username);
    const code = await lastCodeFor(user.phone);

    const short = await submitCode(browser, "12");
    expect(statusOf(short)).toBe(422);
    expect(await bodyOf(short)).toMatchObject({
      fieldErrors: { code: "Incorrect code! Please try again." },
    });

    const wrong = await submitCode(browser, wrongCode(code));
    expect(statusOf(wrong)).toBe(400);
    expect(await bodyOf(wrong)).toMatchObject({ formError: messages.codeIncorrect });

    await prisma.oneTimeCode.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await submitCode(browser, code);
    expect(await bodyOf(expired)).toMatchObject({ formError: messages.codeExpired });
  });

  it("resend issues a new code and the old one stops working", async () => {
    const user = await createUser({ role: "abmadmin" });
    await submitPassword(browser, user.username);
    const oldCode = await lastCodeFor(user.phone);
    const resent = await browser.run(action, browser.post("/?index", { intent: "resend" }));
    expect(locationOf(resent)).toBe("/");
    const messagesSent = await prisma.outboxMessage.count({ where: { to: user.phone } });
    expect(messagesSent).toBe(2);
    const newCode = await lastCodeFor(user.phone);
    if (newCode !== oldCode) {
      expect(await bodyOf(await submitCode(browser, oldCode))).toMatchObject({
        formError: messages.codeIncorrect,
      });
    }
    expect(locationOf(await submitCode(browser, newCode))).toBe("/app");
  });

  it("locks the code step after 10 wrong codes, across sign-in attempts", async () => {
    const user = await createUser();
    await submitPassword(browser, user.username);
    const code = await lastCodeFor(user.phone);
    for (let i = 1; i <= 9; i++) {
      expect(await bodyOf(await submitCode(browser, wrongCode(code)))).toMatchObject({
        formError: messages.codeIncorrect,
      });
    }
    const tenth = await submitCode(browser, wrongCode(code));
    expect(locationOf(tenth)).toBe("/");
    // The challenge is gone: the page is back at the password step with the lock message.
    expect(await bodyOf(await browser.run(loader, browser.get("/")))).toEqual({
      step: "credentials",
      decrypt: null,
    });
    // Even the right code of a new sign-in is refused while locked.
    const again = await submitPassword(browser, user.username);
    expect(await bodyOf(again)).toMatchObject({ formError: messages.codeLocked });
  });

  it("locks the password step after 10 wrong passwords", async () => {
    const user = await createUser();
    for (let i = 1; i <= 9; i++) {
      expect(
        await bodyOf(await submitPassword(browser, user.username, "Wrong-pass1!")),
      ).toMatchObject({
        formError: messages.badCredentials,
      });
    }
    expect(
      await bodyOf(await submitPassword(browser, user.username, "Wrong-pass1!")),
    ).toMatchObject({
      formError: messages.passwordLocked,
    });
    expect(await bodyOf(await submitPassword(browser, user.username))).toMatchObject({
      formError: messages.passwordLocked,
    });
  });

  it("refuses patients: the staff screens do not serve them", async () => {
    const patient = await createUser({ role: "patient" });
    expect(await bodyOf(await submitPassword(browser, patient.username))).toMatchObject({
      formError: messages.notStaff,
    });
  });

  it("answers an unknown intent with 400", async () => {
    const result = await browser.run(action, browser.post("/?index", { intent: "nonsense" }));
    expect(statusOf(result)).toBe(400);
  });
});
