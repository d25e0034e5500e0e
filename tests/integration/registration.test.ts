// Registration (spec 1 §2.10, §4.3, §5.3): self-service and invited, through the real routes. The
// code goes by text message only (issue 20 item 2).
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { newInvitationToken } from "~/domain/invitations/token.server";
import { action as signIn } from "~/routes/_index";
import { action, loader } from "~/routes/signup";
import { accountMessages } from "~/domain/accounts/schema";
import { createCareSite, createUser, uid } from "../support/factories";
import { bodyOf, Browser, locationOf, statusOf } from "../support/requests";

const PASSWORD = "Register-1!";

function form(overrides: Record<string, string> = {}) {
  const name = uid("reg");
  return {
    intent: "next",
    username: name,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    firstName: "Dana",
    lastName: "Brooks",
    phoneCountry: "1",
    phone: `512${Math.floor(2e6 + Math.random() * 7e6)}`,
    email: `${name}@example.test`,
    ...overrides,
  };
}

async function smsCode(phone: string) {
  const row = await prisma.outboxMessage.findFirstOrThrow({
    where: { to: phone, channel: "sms" },
    orderBy: { createdAt: "desc" },
  });
  return row.body.match(/\b(\d{4})\b/)![1];
}

async function invitation(role: string, expiresInMs = 3_600_000) {
  const site = await createCareSite();
  const inviter = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
  const email = `${uid("inv")}@example.test`;
  const row = await prisma.invitation.create({
    data: {
      email,
      role,
      careSiteId: site.id,
      invitedById: inviter.id,
      tokenHash: uid("tmp"),
      expiresAt: new Date(Date.now() + expiresInMs),
    },
  });
  const { token, tokenHash } = newInvitationToken(row.id);
  await prisma.invitation.update({ where: { id: row.id }, data: { tokenHash } });
  return { site, email, token, id: row.id };
}

describe("self-registration", () => {
  it("verifies the phone with the code texted to it, and creates a clinician who can sign in", async () => {
    const browser = new Browser();
    const fields = form();
    expect(locationOf(await browser.run(action, browser.post("/signup", fields)))).toBe("/signup");
    const page = await bodyOf(await browser.run(loader, browser.get("/signup")));
    expect(page).toMatchObject({
      state: "code",
      invited: false,
      verified: false,
      username: fields.username,
    });

    expect(await smsCode(`1${fields.phone}`)).toMatch(/^\d{4}$/);
    expect(await prisma.user.count({ where: { username: fields.username } })).toBe(0);
    // Resend: a new code, texted again.
    await browser.run(action, browser.post("/signup", { intent: "resend" }));
    const resent = await smsCode(`1${fields.phone}`);
    expect(
      await prisma.outboxMessage.count({ where: { to: `1${fields.phone}`, channel: "sms" } }),
    ).toBe(2);
    // Nothing by email, neither the first code nor the resent one: the phone must be held.
    expect(await prisma.outboxMessage.count({ where: { to: fields.email } })).toBe(0);

    await browser.run(action, browser.post("/signup", { intent: "register", code: resent }));
    expect(await bodyOf(await browser.run(loader, browser.get("/signup")))).toEqual({
      state: "done",
    });
    const user = await prisma.user.findUniqueOrThrow({ where: { username: fields.username } });
    expect(user).toMatchObject({
      role: "clinician",
      status: "active",
      email: fields.email,
      phone: `1${fields.phone}`,
    });

    const signInBrowser = new Browser();
    const signedIn = await signInBrowser.run(
      signIn,
      signInBrowser.post("/?index", {
        intent: "credentials",
        usernameOrEmail: fields.username,
        password: PASSWORD,
      }),
    );
    expect(locationOf(signedIn)).toBe("/");
  });

  it("says which of username, email and phone are taken, and creates nothing", async () => {
    const existing = await createUser();
    const browser = new Browser();
    const result = await browser.run(
      action,
      browser.post(
        "/signup",
        form({
          username: existing.username,
          email: existing.email.toUpperCase(),
          phone: existing.phone.slice(1),
        }),
      ),
    );
    expect(statusOf(result)).toBe(400);
    expect(await bodyOf(result)).toMatchObject({
      fieldErrors: {
        username: accountMessages.usernameExists,
        email: accountMessages.emailExists,
        phone: accountMessages.mobileAlreadyRegistered,
      },
    });
  });

  it("answers a wrong code without creating the user", async () => {
    const browser = new Browser();
    const fields = form();
    await browser.run(action, browser.post("/signup", fields));
    const code = await smsCode(`1${fields.phone}`);
    const wrong = await browser.run(
      action,
      browser.post("/signup", { intent: "register", code: code === "0000" ? "1111" : "0000" }),
    );
    expect(await bodyOf(wrong)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.incorrectCodeRetry,
    });
    expect(await prisma.user.count({ where: { username: fields.username } })).toBe(0);
  });

  it("creates nothing when the username was taken after the code was sent", async () => {
    const browser = new Browser();
    const fields = form();
    await browser.run(action, browser.post("/signup", fields));
    await createUser().then((u) =>
      prisma.user.update({ where: { id: u.id }, data: { username: fields.username } }),
    );
    const result = await browser.run(
      action,
      browser.post("/signup", { intent: "register", code: await smsCode(`1${fields.phone}`) }),
    );
    expect(await bodyOf(result)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.usernameExists,
    });
    expect(await prisma.user.count({ where: { email: fields.email } })).toBe(0);
  });
});

describe("invited registration", () => {
  it("takes role and care site from the invitation, after Verify Phone Number and Verify", async () => {
    const invite = await invitation("clinicadmin");
    const path = `/signup?param1=${encodeURIComponent(invite.token)}`;
    const browser = new Browser();
    expect(await bodyOf(await browser.run(loader, browser.get(path)))).toEqual({
      state: "form",
      invitation: { email: invite.email, role: "clinicadmin", careSiteName: invite.site.name },
    });

    const empty = await browser.run(
      action,
      browser.post(path, form({ phone: "", email: invite.email })),
    );
    expect(await bodyOf(empty)).toMatchObject({
      fieldErrors: { phone: accountMessages.mobileMissing },
    });

    const fields = form({ email: "someone.else@example.test" });
    await browser.run(action, browser.post(path, fields));
    const code = await smsCode(`1${fields.phone}`);

    const early = await browser.run(
      action,
      browser.post(path, { intent: "register", phone: `1${fields.phone}` }),
    );
    expect(await bodyOf(early)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.mobileNotVerified,
    });

    await browser.run(action, browser.post(path, { intent: "verify", code }));
    expect(await bodyOf(await browser.run(loader, browser.get(path)))).toMatchObject({
      state: "code",
      verified: true,
    });

    const other = await browser.run(
      action,
      browser.post(path, { intent: "register", phone: "15125550000" }),
    );
    expect(await bodyOf(other)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.mobileDiffersFromVerified,
    });

    // The verified number, written as a person would type it.
    await browser.run(
      action,
      browser.post(path, {
        intent: "register",
        phone: `+1 (${fields.phone.slice(0, 3)}) ${fields.phone.slice(3)}`,
      }),
    );
    expect(await bodyOf(await browser.run(loader, browser.get(path)))).toEqual({ state: "done" });

    const user = await prisma.user.findUniqueOrThrow({
      where: { username: fields.username },
      include: { memberships: true },
    });
    expect(user.email).toBe(invite.email); // the invitation's, not what was typed
    expect(user.role).toBe("clinicadmin");
    expect(user.memberships).toMatchObject([
      { careSiteId: invite.site.id, role: "clinicadmin", status: "accepted" },
    ]);
    expect(await prisma.invitation.findUniqueOrThrow({ where: { id: invite.id } })).toMatchObject({
      status: "accepted",
      membershipId: user.memberships[0].id,
    });

    // The link is single use.
    expect(await bodyOf(await new Browser().run(loader, new Browser().get(path)))).toEqual({
      state: "expired",
    });
  });

  it("shows Link Expired !!! for an expired, forged or unknown link", async () => {
    const expired = await invitation("clinician", -1000);
    const browser = new Browser();
    for (const token of [expired.token, `${expired.token}x`, "garbage", "a.b.c"]) {
      const page = await bodyOf(
        await browser.run(loader, browser.get(`/signup?param1=${encodeURIComponent(token)}`)),
      );
      expect(page, token).toEqual({ state: "expired" });
    }
  });
});

describe("malformed registration posts", () => {
  it("answer 4xx, never 500", async () => {
    const browser = new Browser();
    for (const fields of [
      {},
      { intent: "next" },
      { intent: "next", username: ["a", "b"] },
      { ...form(), firstName: "x".repeat(1_000_000) },
      { intent: "register" },
      { intent: "verify", code: "abcd" },
      { intent: "nope" },
    ]) {
      const status = statusOf(
        await browser.run(action, browser.post("/signup", fields as Record<string, string>)),
      );
      expect(status).toBeGreaterThanOrEqual(300);
      expect(status).toBeLessThan(500);
    }
  });
});
