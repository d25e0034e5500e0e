// The Invitations screens through their routes: the dialog's steps, sending, the row actions, and
// who may see and do what.
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { getShellUser } from "~/domain/accounts/user.server";
import { action as clinicianAction, loader as clinicianLoader } from "~/routes/app.cliniciantable";
import { action as adminAction, loader as adminLoader } from "~/routes/app.clinicadmin";
import { action as saAction, loader as saLoader } from "~/routes/app.satable";
import { createCareSite, createUser, uid } from "../support/factories";
import { bodyOf, locationOf, statusOf } from "../support/requests";
import { signedInBrowser } from "../support/session";
import { MALFORMED_EMAILS } from "../support/malformedEmails";

type Page = Awaited<ReturnType<typeof clinicianLoader>>;

describe("Invitations screens", () => {
  it("a care site admin invites a clinician who accepts; revoking ends the access at once", async () => {
    const site = await createCareSite();
    const admin = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
    const clinician = await createUser({ role: "clinician" });
    const adminBrowser = await signedInBrowser(admin.id);

    // Next: the email's existing role is the only option.
    const next = await adminBrowser.run(
      adminAction,
      adminBrowser.post("/app/clinicadmin", { intent: "lookup", email: clinician.email }),
    );
    expect(locationOf(next)).toBe(
      `/app/clinicadmin?dialog=invite&email=${encodeURIComponent(clinician.email)}`,
    );
    const dialog = await bodyOf<Page>(
      await adminBrowser.run(adminLoader, adminBrowser.get(locationOf(next)!)),
    );
    expect(dialog.invite).toMatchObject({
      existingRole: "clinician",
      roleOptions: ["clinician"],
      role: "clinician",
    });
    expect(dialog.invite?.careSites?.rows.map((c) => c.id)).toEqual([site.id]);

    const sent = await adminBrowser.run(
      adminAction,
      adminBrowser.post("/app/clinicadmin", {
        intent: "send",
        email: clinician.email,
        role: "clinician",
        careSiteId: site.id,
      }),
    );
    expect(locationOf(sent)).toBe("/app/clinicadmin?list=sent&dialog=sent");
    const mail = await prisma.outboxMessage.findFirstOrThrow({
      where: { to: clinician.email, channel: "email" },
    });
    expect(mail.body).toContain("/acceptinvite?param1=");

    const clinicianBrowser = await signedInBrowser(clinician.id);
    const received = await bodyOf<Page>(
      await clinicianBrowser.run(
        clinicianLoader,
        clinicianBrowser.get("/app/cliniciantable?list=received"),
      ),
    );
    expect(received.received?.rows).toMatchObject([
      { careSiteName: site.name, status: "pending", actions: ["accept", "reject"] },
    ]);
    const id = received.received!.rows[0].id;
    const confirm = await bodyOf<Page>(
      await clinicianBrowser.run(
        clinicianLoader,
        clinicianBrowser.get(
          `/app/cliniciantable?list=received&dialog=confirm&id=${id}&act=accept`,
        ),
      ),
    );
    expect(confirm.confirm?.question).toBe(`Accept the invitation from ${site.name}?`);
    await clinicianBrowser.run(
      clinicianAction,
      clinicianBrowser.post("/app/cliniciantable", { intent: "act", id, act: "accept" }),
    );
    expect((await getShellUser(clinician.id))?.careSites.map((c) => c.id)).toEqual([site.id]);

    await adminBrowser.run(
      adminAction,
      adminBrowser.post("/app/clinicadmin", { intent: "act", id, act: "revoke" }),
    );
    expect((await getShellUser(clinician.id))?.careSites).toEqual([]);
  });

  it("answers 404 for an invitation the user neither sent nor received, and 403 on another role's screen", async () => {
    const site = await createCareSite();
    const admin = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
    const invitee = await createUser({ role: "clinician" });
    const outsider = await createUser({
      role: "clinicadmin",
      careSites: [{ id: (await createCareSite()).id }],
    });
    const adminBrowser = await signedInBrowser(admin.id);
    await adminBrowser.run(
      adminAction,
      adminBrowser.post("/app/clinicadmin", {
        intent: "send",
        email: invitee.email,
        role: "clinician",
        careSiteId: site.id,
      }),
    );
    const invitation = await prisma.invitation.findFirstOrThrow({
      where: { email: invitee.email },
    });

    const outsiderBrowser = await signedInBrowser(outsider.id);
    const act = await outsiderBrowser.run(
      adminAction,
      outsiderBrowser.post("/app/clinicadmin", { intent: "act", id: invitation.id, act: "remove" }),
    );
    expect(statusOf(act)).toBe(404);
    const peek = await outsiderBrowser.run(
      adminLoader,
      outsiderBrowser.get(`/app/clinicadmin?dialog=confirm&id=${invitation.id}&act=remove`),
    );
    expect(statusOf(peek)).toBe(404);
    // A care site the sender is not at cannot be used.
    const foreign = await outsiderBrowser.run(
      adminAction,
      outsiderBrowser.post("/app/clinicadmin", {
        intent: "send",
        email: `${uid()}@example.test`,
        role: "clinician",
        careSiteId: site.id,
      }),
    );
    expect(statusOf(foreign)).toBe(400);
    expect(statusOf(await adminBrowser.run(saLoader, adminBrowser.get("/app/satable")))).toBe(403);
  });

  it("shows the spec's messages for existing roles and sends a superadmin's ABM admin invitation without a care site", async () => {
    const superadmin = await createUser({ role: "superadmin" });
    const clinician = await createUser({ role: "clinician" });
    const browser = await signedInBrowser(superadmin.id);
    const page = await bodyOf<Page>(
      await browser.run(
        saLoader,
        browser.get(`/app/satable?dialog=invite&email=${encodeURIComponent(clinician.email)}`),
      ),
    );
    expect(page.invite).toMatchObject({
      roleOptions: [],
      roleMessage:
        "User email already registered with the above role! As a Super-admin, you can invite only ABM Admin or Care site Admin roles.",
    });
    const email = `${uid()}@example.test`;
    const fresh = await bodyOf<Page>(
      await browser.run(saLoader, browser.get(`/app/satable?dialog=invite&email=${email}`)),
    );
    expect(fresh.invite?.roleOptions).toEqual(["abmadmin", "clinicadmin"]);
    await browser.run(
      saAction,
      browser.post("/app/satable", { intent: "send", email, role: "abmadmin" }),
    );
    expect(await prisma.invitation.findFirst({ where: { email } })).toMatchObject({
      role: "abmadmin",
      careSiteId: null,
      status: "pending",
    });
    const bad = await bodyOf<Page>(
      await browser.run(saLoader, browser.get(`/app/satable?dialog=invite&email=not-an-email`)),
    );
    expect(bad.invite?.emailError).toBe("Invalid Email");
    for (const malformed of MALFORMED_EMAILS) {
      const page = await bodyOf<Page>(
        await browser.run(
          saLoader,
          browser.get(`/app/satable?dialog=invite&email=${encodeURIComponent(malformed)}`),
        ),
      );
      expect(page.invite?.emailError, malformed).toBe("Invalid Email");
    }
  });

  it("answers malformed posts with 4xx, never 500", async () => {
    const admin = await createUser({
      role: "clinicadmin",
      careSites: [{ id: (await createCareSite()).id }],
    });
    const browser = await signedInBrowser(admin.id);
    for (const fields of [
      {},
      { intent: "send" },
      { intent: "act" },
      { intent: "act", id: "x", act: "explode" },
      { intent: "send", email: "x".repeat(100_000), role: "clinician" },
      { intent: "lookup", email: ["a", "b"] },
    ]) {
      const status = statusOf(
        await browser.run(
          adminAction,
          browser.post("/app/clinicadmin", fields as Record<string, string>),
        ),
      );
      expect(status, JSON.stringify(fields).slice(0, 60)).toBeLessThan(500);
    }
  });
});
