// Password and Security, Edit user profile and User info through the real routes.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { action as security, loader as securityLoader } from "~/routes/app.PasswordAndSecurity";
import { action as settings, loader as settingsLoader } from "~/routes/app.settings";
import { loader as userInfo } from "~/routes/app.userinfo.$id";
import { verifyPassword } from "~/domain/accounts/user.server";
import { accountMessages } from "~/domain/accounts/schema";
import { createCareSite, createUser, PASSWORD, uid } from "../support/factories";
import { bodyOf, locationOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";
import { MALFORMED_EMAILS } from "../support/malformedEmails";

const P = "/app/PasswordAndSecurity";

async function lastCode(to: string) {
  const row = await prisma.outboxMessage.findFirstOrThrow({
    where: { to },
    orderBy: { createdAt: "desc" },
  });
  return row.body.match(/\b(\d{4})\b/)![1];
}

describe("Password and Security", () => {
  it("changes the email: current password, new address, code sent there, Save", async () => {
    const user = await createUser({ role: "clinician" });
    const browser = await signedInBrowser(user.id);
    const wrong = await browser.run(
      security,
      browser.post(P, { panel: "email", intent: "confirm", currentPassword: "Nope-nope1!" }),
    );
    expect(await bodyOf(wrong)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.wrongCurrentPassword,
    });

    await browser.run(
      security,
      browser.post(P, { panel: "email", intent: "confirm", currentPassword: PASSWORD }),
    );
    const step = await bodyOf<{ contactStep: { step: string } }>(
      await browser.run(securityLoader, browser.get(`${P}?panel=email`)),
    );
    expect(step.contactStep.step).toBe("new");

    // Markup and other malformed addresses are refused with the spec's text; nothing is sent.
    for (const bad of MALFORMED_EMAILS) {
      const refused = await browser.run(
        security,
        browser.post(P, { panel: "email", intent: "newValue", newEmail: bad }),
      );
      expect(statusOf(refused), bad).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(await bodyOf(refused)), bad).toContain("Invalid Email");
    }
    expect(await prisma.outboxMessage.count({ where: { to: { contains: "<" } } })).toBe(0);

    const newEmail = `${uid()}@example.test`;
    await browser.run(
      security,
      browser.post(P, { panel: "email", intent: "newValue", newEmail: newEmail.toUpperCase() }),
    );
    const sent = await prisma.outboxMessage.findFirstOrThrow({ where: { to: newEmail } });
    expect(sent.channel).toBe("email");
    const saved = await browser.run(
      security,
      browser.post(P, { panel: "email", intent: "code", code: await lastCode(newEmail) }),
    );
    expect(locationOf(saved)).toBe(`${P}?panel=email`);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(newEmail);
  });

  it("changes the phone with a code texted to the new number, and refuses a taken number", async () => {
    const user = await createUser({ role: "abmadmin" });
    const other = await createUser();
    const browser = await signedInBrowser(user.id);
    await browser.run(
      security,
      browser.post(P, { panel: "phone", intent: "confirm", currentPassword: PASSWORD }),
    );
    const short = await browser.run(
      security,
      browser.post(P, { panel: "phone", intent: "newValue", newPhone: "12345" }),
    );
    expect(await bodyOf(short)).toMatchObject({
      fieldErrors: { newPhone: accountMessages.phoneInvalid },
    });
    const taken = await browser.run(
      security,
      browser.post(P, { panel: "phone", intent: "newValue", newPhone: other.phone }),
    );
    expect(await bodyOf(taken)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.mobileAlreadyRegistered,
    });

    const national = `512${Math.floor(2e6 + Math.random() * 7e6)}`;
    await browser.run(
      security,
      browser.post(P, {
        panel: "phone",
        intent: "newValue",
        newPhone: `(${national.slice(0, 3)}) ${national.slice(3)}`,
      }),
    );
    const code = await lastCode(`1${national}`);
    const wrong = await browser.run(
      security,
      browser.post(P, { panel: "phone", intent: "code", code: code === "0000" ? "1111" : "0000" }),
    );
    expect(await bodyOf(wrong)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.incorrectCodeRetry,
    });
    await browser.run(security, browser.post(P, { panel: "phone", intent: "code", code }));
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).phone).toBe(
      `1${national}`,
    );
  });

  it("changes the password (not to the old one) and ends the other sessions", async () => {
    const user = await createUser();
    const browser = await signedInBrowser(user.id);
    const elsewhere = await prisma.session.create({
      data: { id: uid("s"), userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const same = await browser.run(
      security,
      browser.post(P, {
        panel: "password",
        intent: "password",
        oldPassword: PASSWORD,
        newPassword: PASSWORD,
        confirmPassword: PASSWORD,
      }),
    );
    expect(await bodyOf(same)).toMatchObject({
      fieldErrors: { newPassword: accountMessages.newPasswordSameAsOld },
    });
    const wrongOld = await browser.run(
      security,
      browser.post(P, {
        panel: "password",
        intent: "password",
        oldPassword: "Wrong-pass9!",
        newPassword: "Better-pass2?",
        confirmPassword: "Better-pass2?",
      }),
    );
    expect(await bodyOf(wrongOld)).toMatchObject({
      fieldErrors: {},
      formError: accountMessages.wrongCurrentPassword,
    });
    await browser.run(
      security,
      browser.post(P, {
        panel: "password",
        intent: "password",
        oldPassword: PASSWORD,
        newPassword: "Better-pass2?",
        confirmPassword: "Better-pass2?",
      }),
    );
    const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(row.passwordHash, "Better-pass2?")).toBe(true);
    expect(await prisma.session.findUnique({ where: { id: elsewhere.id } })).toBeNull();
    expect(statusOf(await browser.run(securityLoader, browser.get(P)))).toBe(200);
  });

  it("stores the measuring unit, and hides panels by role", async () => {
    const user = await createUser({ role: "clinicadmin" });
    const browser = await signedInBrowser(user.id);
    await browser.run(security, browser.post(P, { panel: "units", intent: "units", mu: "Metric" }));
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).measuringUnit).toBe(
      "Metric",
    );

    const superadmin = await signedInBrowser((await createUser({ role: "superadmin" })).id);
    expect(
      await bodyOf(await superadmin.run(securityLoader, superadmin.get(`${P}?panel=email`))),
    ).toMatchObject({ panels: ["password"], panel: null });
    expect(
      statusOf(
        await superadmin.run(
          security,
          superadmin.post(P, { panel: "email", intent: "confirm", currentPassword: PASSWORD }),
        ),
      ),
    ).toBe(403);
    const abm = await signedInBrowser((await createUser({ role: "abmadmin" })).id);
    expect(
      statusOf(
        await abm.run(security, abm.post(P, { panel: "units", intent: "units", mu: "Metric" })),
      ),
    ).toBe(403);
  });

  it("never skips the password confirmation", async () => {
    const user = await createUser();
    const browser = await signedInBrowser(user.id);
    await browser.run(
      security,
      browser.post(P, { panel: "email", intent: "newValue", newEmail: `${uid()}@example.test` }),
    );
    expect(
      await prisma.oneTimeCode.count({ where: { userId: user.id, purpose: "email-change" } }),
    ).toBe(0);
  });
});

describe("Edit user profile", () => {
  const valid = {
    intent: "profile",
    firstName: "Avery",
    lastName: "Stone",
    addressLine1: "12 Main St",
    addressLine2: "Suite 4",
    country: "United States",
    state: "Texas",
    city: "Austin",
    zip: "78701",
  };

  it("saves the fields, says when nothing changed, and checks the US state list", async () => {
    const user = await createUser();
    const browser = await signedInBrowser(user.id);
    expect(locationOf(await browser.run(settings, browser.post("/app/settings", valid)))).toBe(
      "/app/settings",
    );
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      city: "Austin",
      state: "Texas",
    });
    const again = await browser.run(settings, browser.post("/app/settings", valid));
    expect(statusOf(again)).toBe(400);
    expect(await bodyOf(again)).toEqual({ formInfo: "Nothing to save: the profile is unchanged." });
    const badState = await browser.run(
      settings,
      browser.post("/app/settings", { ...valid, state: "Ontario" }),
    );
    expect(await bodyOf(badState)).toMatchObject({
      fieldErrors: { state: "Please select an appropriate state from the dropdown" },
    });
    const canada = await browser.run(
      settings,
      browser.post("/app/settings", { ...valid, country: "Canada", state: "Ontario" }),
    );
    expect(locationOf(canada)).toBe("/app/settings");
    const profile = await bodyOf<{ profile: { photoUrl: string } }>(
      await browser.run(settingsLoader, browser.get("/app/settings")),
    );
    expect(profile.profile.photoUrl).toBe("/img/default-avatar.svg");
  });

  it("uploads a photo through the form and answers bad uploads with a message", async () => {
    const sharp = (await import("sharp")).default;
    const user = await createUser();
    const browser = await signedInBrowser(user.id);
    const png = await sharp({
      create: { width: 300, height: 200, channels: 3, background: "#0b5c8c" },
    })
      .png()
      .toBuffer();
    const upload = (file: Blob, name: string) => {
      const body = new FormData();
      body.append("photo", file, name);
      return new Request("http://localhost/app/settings", {
        method: "POST",
        body,
        headers: { Cookie: browser.cookie },
      });
    };
    expect(
      locationOf(
        await browser.run(settings, upload(new Blob([png], { type: "image/png" }), "me.png")),
      ),
    ).toBe("/app/settings");
    expect(
      (await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).photoId,
    ).not.toBeNull();
    const text = await browser.run(
      settings,
      upload(new Blob(["hello"], { type: "image/png" }), "fake.png"),
    );
    expect(statusOf(text)).toBe(400);
    expect(await bodyOf(text)).toEqual({
      photoError: "Please upload a JPEG, PNG, GIF or WebP image.",
    });
  });
});

describe("User info", () => {
  it("shows users who share a care site, anyone to the provider's admins, and 404 otherwise", async () => {
    const site = await createCareSite();
    const other = await createCareSite();
    const viewer = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const colleague = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
    const stranger = await createUser({ role: "clinician", careSites: [{ id: other.id }] });
    const pending = await createUser({
      role: "clinician",
      careSites: [{ id: site.id, status: "pending" }],
    });
    const browser = await signedInBrowser(viewer.id);
    const call = async (id: string) => {
      try {
        return await userInfo({
          request: browser.get(`/app/userinfo/${id}`),
          params: { id },
          context: {},
        });
      } catch (thrown) {
        return thrown;
      }
    };
    expect(statusOf(await call(colleague.id))).toBe(200);
    expect(statusOf(await call(viewer.id))).toBe(200);
    expect(statusOf(await call(stranger.id))).toBe(404);
    expect(statusOf(await call(pending.id))).toBe(404);
    expect(statusOf(await call("nope"))).toBe(404);

    const admin = await signedInBrowser((await createUser({ role: "abmadmin" })).id);
    const seen = await userInfo({
      request: admin.get(`/app/userinfo/${stranger.id}`),
      params: { id: stranger.id },
      context: {},
    });
    expect(statusOf(seen)).toBe(200);
  });
});

describe("malformed posts to the account screens", () => {
  it("answer 4xx, never 500", async () => {
    const user = await createUser({ role: "clinicadmin" });
    const browser = await signedInBrowser(user.id);
    const bodies: Record<string, string | string[]>[] = [
      {},
      { intent: "confirm" },
      { panel: "email" },
      { panel: "email", intent: "confirm", currentPassword: ["a", "b"] },
      { panel: "email", intent: "newValue", newEmail: "x".repeat(1_000_000) },
      { panel: "phone", intent: "code", code: "abcd" },
      { panel: "password", intent: "password", oldPassword: "x".repeat(200_000) },
      { panel: "units", intent: "units", mu: "Cubits" },
      { panel: "nonsense", intent: "units" },
    ];
    for (const fields of bodies) {
      const status = statusOf(await browser.run(security, browser.post(P, fields)));
      expect(status, JSON.stringify(fields).slice(0, 80)).toBeGreaterThanOrEqual(300);
      expect(status).toBeLessThan(500);
    }
    for (const fields of [
      {},
      { intent: "profile" },
      { intent: "profile", firstName: ["a", "b"], zip: "x".repeat(500_000) },
      { intent: "x" },
    ]) {
      const status = statusOf(
        await browser.run(
          settings,
          browser.post("/app/settings", fields as Record<string, string | string[]>),
        ),
      );
      expect(status).toBeGreaterThanOrEqual(300);
      expect(status).toBeLessThan(500);
    }
    const broken = new Request("http://localhost/app/settings", {
      method: "POST",
      headers: { Cookie: browser.cookie, "Content-Type": "multipart/form-data; boundary=nope" },
      body: "this is not multipart",
    });
    expect(statusOf(await browser.run(settings, broken))).toBe(400);
  });
});
