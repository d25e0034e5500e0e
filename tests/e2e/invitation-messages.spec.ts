// Every timed message of the Invitations screens (spec 2 §2, §4, §8, §9; app/ui/delays.ts): with
// JavaScript each hides at its time on Playwright's paused clock (shown 50 ms before, gone 50 ms
// after); without JavaScript it stays until its close box (or OK) closes it.
import type { Page } from "@playwright/test";
import { expectHiddenAfter, pauseClock } from "./support/clock";
import { anyCareSiteId, createInvitation, createUser } from "./support/db";
import { expect, test } from "./support/fixtures";

type Case = {
  name: string;
  delay: number;
  /** Makes the invitation, signs in and opens the screen; returns the message. */
  open: (page: Page, signInAs: (userId: string) => Promise<void>) => Promise<string>;
  /** What shows the message (a click, a confirmed post). */
  show: (page: Page) => Promise<void>;
  /** Without JavaScript: "box" (a snackbar's close box) or "OK" (a success dialog's button). */
  close: "box" | "OK";
};

/** The sender (a new super admin) on their Sent list with one invitation in `status`. */
async function sentInvitation(
  page: Page,
  signInAs: (userId: string) => Promise<void>,
  status: string,
) {
  const invitation = await createInvitation({
    role: "clinicadmin",
    careSiteId: anyCareSiteId(),
    status,
  });
  await signInAs(invitation.inviterId);
  await page.goto("/app/satable?list=sent");
  await expect(page.getByRole("cell", { name: invitation.email })).toBeVisible();
  return invitation;
}

/** The invitee (a clinician) on their Received list with one invitation in `status`. */
async function receivedInvitation(
  page: Page,
  signInAs: (userId: string) => Promise<void>,
  status: string,
  expiresInMs?: number,
) {
  const invitee = await createUser("clinician");
  const invitation = await createInvitation({
    role: "clinician",
    careSiteId: anyCareSiteId(),
    status,
    email: invitee.email,
    expiresInMs,
  });
  await signInAs(invitee.id);
  await page.goto("/app/cliniciantable?list=received");
  return invitation;
}

const confirm = (action: string) => async (page: Page) => {
  await page.getByRole("link", { name: action, exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Confirmation" })).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
};

const cases: Case[] = [
  {
    name: "link popup of a pending row",
    delay: 5000,
    open: async (page, signInAs) => {
      const { email } = await sentInvitation(page, signInAs, "pending");
      return `${email} has not accepted the invitation`;
    },
    show: (page) => page.getByRole("link", { name: /@example\.test$/ }).click(),
    close: "box",
  },
  {
    name: "link popup of a rejected row",
    delay: 5000,
    open: async (page, signInAs) => {
      const { email } = await sentInvitation(page, signInAs, "rejected");
      return `${email} has rejected the invitation`;
    },
    show: (page) => page.getByRole("link", { name: /@example\.test$/ }).click(),
    close: "box",
  },
  {
    name: "invitation resent success popup",
    delay: 5000,
    open: async (page, signInAs) => {
      await sentInvitation(page, signInAs, "pending");
      return "Successfully resend invitation";
    },
    show: confirm("Resend"),
    close: "OK",
  },
  {
    name: "Remove success message",
    delay: 5000,
    open: async (page, signInAs) => {
      await sentInvitation(page, signInAs, "pending");
      return "The invitation is now blocked.";
    },
    show: confirm("Remove"),
    close: "box",
  },
  {
    name: "Revoke success message",
    delay: 5000,
    open: async (page, signInAs) => {
      await sentInvitation(page, signInAs, "accepted");
      return "The invitation is now blocked.";
    },
    show: confirm("Revoke"),
    close: "box",
  },
  {
    name: "Accept success message",
    delay: 5000,
    open: async (page, signInAs) => {
      await receivedInvitation(page, signInAs, "pending");
      return "The invitation is now accepted.";
    },
    show: confirm("Accept"),
    close: "box",
  },
  {
    name: "Reject success message",
    delay: 5000,
    open: async (page, signInAs) => {
      await receivedInvitation(page, signInAs, "pending");
      return "The invitation is now rejected.";
    },
    show: confirm("Reject"),
    close: "box",
  },
  {
    name: "Deactivate success message",
    delay: 5000,
    open: async (page, signInAs) => {
      await receivedInvitation(page, signInAs, "accepted");
      return "The invitation is now blocked.";
    },
    show: confirm("Deactivate"),
    close: "box",
  },
  {
    name: "Reactivate success message",
    delay: 5000,
    open: async (page, signInAs) => {
      await receivedInvitation(page, signInAs, "accepted");
      // Reactivate undoes the invitee's own Deactivate only.
      await confirm("Deactivate")(page);
      await expect(page.getByRole("link", { name: "Reactivate" })).toBeVisible();
      // A fresh page: the Deactivate message's timer (real time, set before the fake clock)
      // would otherwise hide the next message.
      await page.reload();
      return "The invitation is now accepted.";
    },
    show: confirm("Reactivate"),
    close: "box",
  },
  {
    name: "error snackbar (accepting an expired invitation)",
    delay: 6000,
    open: async (page, signInAs) => {
      await receivedInvitation(page, signInAs, "pending", -60_000);
      return "Link Expired !!!";
    },
    show: confirm("Accept"),
    close: "box",
  },
];

for (const c of cases) {
  test(`Invitations: the ${c.name} hides after ${c.delay} ms, or by its ${c.close === "OK" ? "OK button" : "close box"}`, async ({
    page,
    signInAs,
    javaScriptEnabled,
  }) => {
    const text = await c.open(page, signInAs);
    const message = page.getByRole("status").filter({ hasText: text });
    if (!javaScriptEnabled) {
      await c.show(page);
      await expect(message).toBeVisible();
      if (c.close === "OK") await page.getByRole("link", { name: "OK" }).click();
      else await message.getByRole("button", { name: "Close" }).click();
      await expect(message).toBeHidden();
      return;
    }
    await pauseClock(page);
    await c.show(page);
    await expectHiddenAfter(page, message, c.delay);
  });
}

test("Invitations: clicking a pending row's link again shows its popup again", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "without JavaScript the popup stays until closed");
  const { email } = await sentInvitation(page, signInAs, "pending");
  const message = page
    .getByRole("status")
    .filter({ hasText: `${email} has not accepted the invitation` });
  await pauseClock(page);
  await page.getByRole("link", { name: email }).click();
  await expectHiddenAfter(page, message, 5000);
  await page.getByRole("link", { name: email }).click();
  await expect(message).toBeVisible();
});
