// The sign-in steps through the real route module, a real SQLite file and the outbox table.
import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { messages } from "~/domain/accounts/signIn.server";
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
    expect(statusOf(result)).toBe(400);
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
    expect(statusOf(short)).toBe(400);
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

  it("stops wrong passwords from one address without locking the owner out elsewhere", async () => {
    const user = await createUser();
    const stranger = new Browser("198.51.100.7");
    for (let i = 1; i <= 12; i++) {
      const answer = await submitPassword(stranger, user.username, "Wrong-pass1!");
      expect(statusOf(answer)).toBe(400);
      expect(await bodyOf(answer)).toMatchObject({ formError: messages.badCredentials });
    }
    // From the stranger's address even the right password is refused now, with the same answer.
    const guessed = await submitPassword(stranger, user.username);
    expect(statusOf(guessed)).toBe(400);
    expect(await bodyOf(guessed)).toMatchObject({ formError: messages.badCredentials });
    expect(await prisma.outboxMessage.count({ where: { to: user.phone } })).toBe(0);

    // The owner, at home, signs in as always: password, then the code.
    const owner = new Browser("203.0.113.20");
    expect(locationOf(await submitPassword(owner, user.username))).toBe("/");
    expect(locationOf(await submitCode(owner, await lastCodeFor(user.phone)))).toMatch(/^\/app/);

    // An IPv6 client cannot step around the limit by changing the low 64 bits of its address.
    const other = await createUser();
    for (let i = 1; i <= 10; i++) {
      const rotating = new Browser(`2001:db8:1:2::${i.toString(16)}`);
      await submitPassword(rotating, other.username, "Wrong-pass1!");
    }
    const rotated = await submitPassword(new Browser("2001:db8:1:2:ffff::1"), other.username);
    expect(await bodyOf(rotated)).toMatchObject({ formError: messages.badCredentials });
    expect(locationOf(await submitPassword(new Browser("2001:db8:9::1"), other.username))).toBe(
      "/",
    );
  });

  it("answers an unknown login, a wrong password and a throttled account alike", async () => {
    const user = await createUser();
    const throttledUser = await createUser();
    const from = new Browser("198.51.100.44");
    for (let i = 0; i < 10; i++) {
      await submitPassword(from, throttledUser.username, "Wrong-pass1!");
    }
    const attempts = {
      unknown: () => submitPassword(from, "nobody.here", "Wrong-pass1!"),
      unknownEmail: () => submitPassword(from, "nobody@example.test", "Wrong-pass1!"),
      wrongPassword: () => submitPassword(from, user.username, "Wrong-pass1!"),
      throttledWrong: () => submitPassword(from, throttledUser.username, "Wrong-pass1!"),
      throttledRight: () => submitPassword(from, throttledUser.username),
    };
    const answers = [];
    const times: Record<string, number[]> = {};
    // Interleaved rounds, so a busy machine slows every kind alike.
    for (let round = 0; round < 5; round++) {
      for (const [kind, attempt] of Object.entries(attempts)) {
        const started = performance.now();
        const result = await attempt();
        (times[kind] ??= []).push(performance.now() - started);
        if (round === 0) {
          const body = await bodyOf<Record<string, unknown>>(result);
          answers.push({
            status: statusOf(result),
            formError: body.formError,
            // The same fields (the login typed is given back as typed).
            fields: Object.keys(body).sort(),
          });
        }
      }
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 400, formError: messages.badCredentials });
    // The password hash is checked in every case, so no kind is much faster than another.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const medians = Object.values(times).map(median);
    expect(Math.min(...medians)).toBeGreaterThan(Math.max(...medians) / 3);
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
