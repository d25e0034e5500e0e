// Forgotten password by email and by phone (spec 1 §2.5, §4.2, §8) through the real routes.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { TOO_MANY_REQUESTS } from "~/lib/throttle.server";
import { action as emailAction, loader as emailLoader } from "~/routes/restorepasswordwithemail";
import { action as phoneAction, loader as phoneLoader } from "~/routes/restorepasswordwithphone";
import { action as signIn } from "~/routes/_index";
import { accountMessages } from "~/domain/accounts/schema";
import { createUser, PASSWORD, uid } from "../support/factories";
import { bodyOf, Browser, locationOf, statusOf } from "../support/requests";

async function lastCode(to: string) {
  const row = await prisma.outboxMessage.findFirstOrThrow({
    where: { to },
    orderBy: { createdAt: "desc" },
  });
  return row.body.match(/\b(\d{4})\b/)![1];
}

const NEW_PASSWORD = "Fresh-pass2?";

describe("forgotten password", () => {
  it("resets by email: code by email, new password, everyone signed out, new password works", async () => {
    const user = await createUser({ role: "abmadmin" });
    await prisma.session.create({
      data: { id: uid("s"), userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const browser = new Browser();
    const path = "/restorepasswordwithemail";

    const requested = await browser.run(
      emailAction,
      browser.post(path, { intent: "request", email: `  ${user.email.toUpperCase()} ` }),
    );
    expect(locationOf(requested)).toBe(path);
    const sent = await prisma.outboxMessage.findFirstOrThrow({
      where: { to: user.email },
      orderBy: { createdAt: "desc" },
    });
    expect(sent.channel).toBe("email");
    expect(sent.subject).toBe("Your ARC Connect password reset code");
    expect(await bodyOf(await browser.run(emailLoader, browser.get(path)))).toMatchObject({
      step: "code",
    });

    await browser.run(
      emailAction,
      browser.post(path, { intent: "code", code: await lastCode(user.email) }),
    );
    expect(await bodyOf(await browser.run(emailLoader, browser.get(path)))).toEqual({
      step: "password",
    });

    const mismatch = await browser.run(
      emailAction,
      browser.post(path, {
        intent: "password",
        password: NEW_PASSWORD,
        confirmPassword: "Other-pass2?",
      }),
    );
    expect(await bodyOf(mismatch)).toMatchObject({
      fieldErrors: { confirmPassword: "Passwords must match" },
    });

    await browser.run(
      emailAction,
      browser.post(path, {
        intent: "password",
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      }),
    );
    expect(await bodyOf(await browser.run(emailLoader, browser.get(path)))).toEqual({
      step: "done",
    });
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);

    const fresh = new Browser();
    const oldPassword = await fresh.run(
      signIn,
      fresh.post("/?index", {
        intent: "credentials",
        usernameOrEmail: user.username,
        password: PASSWORD,
      }),
    );
    expect(statusOf(oldPassword)).toBe(400);
    const newPassword = await fresh.run(
      signIn,
      fresh.post("/?index", {
        intent: "credentials",
        usernameOrEmail: user.username,
        password: NEW_PASSWORD,
      }),
    );
    expect(locationOf(newPassword)).toBe("/");
  });

  it("resets by phone, with or without the country code", async () => {
    const user = await createUser();
    const browser = new Browser();
    const path = "/restorepasswordwithphone";
    await browser.run(
      phoneAction,
      browser.post(path, { intent: "request", phonenumber: user.phone.slice(1) }),
    );
    const sms = await prisma.outboxMessage.findFirstOrThrow({
      where: { to: user.phone },
      orderBy: { createdAt: "desc" },
    });
    expect(sms.channel).toBe("sms");
    expect(await bodyOf(await browser.run(phoneLoader, browser.get(path)))).toMatchObject({
      step: "code",
      sentTo: `+${"*".repeat(user.phone.length - 3)}${user.phone.slice(-3)}`,
    });
    await browser.run(
      phoneAction,
      browser.post(path, { intent: "code", code: await lastCode(user.phone) }),
    );
    expect(await bodyOf(await browser.run(phoneLoader, browser.get(path)))).toEqual({
      step: "password",
    });
  });

  it("answers unknown addresses, wrong and expired codes with the spec's messages", async () => {
    const browser = new Browser();
    const unknownEmail = await browser.run(
      emailAction,
      browser.post("/restorepasswordwithemail", {
        intent: "request",
        email: "nobody@example.test",
      }),
    );
    expect(await bodyOf(unknownEmail)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.forgotEmailNotFound,
    });
    const unknownPhone = await browser.run(
      phoneAction,
      browser.post("/restorepasswordwithphone", { intent: "request", phonenumber: "17375550000" }),
    );
    expect(await bodyOf(unknownPhone)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.forgotPhoneNotFound,
    });

    const user = await createUser();
    await browser.run(
      emailAction,
      browser.post("/restorepasswordwithemail", { intent: "request", email: user.email }),
    );
    const code = await lastCode(user.email);
    const wrong = await browser.run(
      emailAction,
      browser.post("/restorepasswordwithemail", {
        intent: "code",
        code: code === "0000" ? "1111" : "0000",
      }),
    );
    expect(await bodyOf(wrong)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.incorrectCode,
    });
    await prisma.oneTimeCode.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const expired = await browser.run(
      emailAction,
      browser.post("/restorepasswordwithemail", { intent: "code", code }),
    );
    expect(await bodyOf(expired)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.codeExpired,
    });
  });

  it("never skips a step: a new password without a verified code changes nothing", async () => {
    const user = await createUser();
    const before = (await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash;
    const browser = new Browser();
    await browser.run(
      emailAction,
      browser.post("/restorepasswordwithemail", { intent: "request", email: user.email }),
    );
    const early = await browser.run(
      emailAction,
      browser.post("/restorepasswordwithemail", {
        intent: "password",
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      }),
    );
    expect(locationOf(early)).toBe("/restorepasswordwithemail");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(
      before,
    );
  });

  it("limits requests per client with a 429 and a clear message", async () => {
    const browser = new Browser(`198.51.100.${Math.floor(Math.random() * 250)}`);
    let last: unknown;
    for (let i = 0; i < 11; i++) {
      last = await browser.run(
        emailAction,
        browser.post("/restorepasswordwithemail", {
          intent: "request",
          email: `${uid()}@example.test`,
        }),
      );
    }
    expect(statusOf(last)).toBe(429);
    expect(await bodyOf(last)).toMatchObject({ fieldErrors: {}, formError: TOO_MANY_REQUESTS });
  });

  it("answers malformed posts with 4xx, never a 500", async () => {
    const browser = new Browser();
    for (const fields of [
      {},
      { intent: "request" },
      { intent: "request", email: ["a@b.co", "c@d.co"] },
      { intent: "request", email: "x".repeat(1_000_000) },
      { intent: "code", code: "12345" },
      { intent: "password" },
      { intent: "bogus" },
    ]) {
      const result = await browser.run(
        emailAction,
        browser.post("/restorepasswordwithemail", fields as Record<string, string>),
      );
      const status = statusOf(result);
      expect(status, JSON.stringify(fields).slice(0, 60)).toBeGreaterThanOrEqual(300);
      expect(status).toBeLessThan(500);
    }
  });
});
