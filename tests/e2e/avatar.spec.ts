// The top bar's avatar (spec 1 §2.3): the user's photo when they have one, else their initials;
// the avatar menu closes on Escape (focus back on its button) and on a click outside with
// JavaScript, and still opens and closes without it (issue 20 items 12b and 12d).
import sharp from "sharp";
import { createUser, db } from "./support/db";
import { expect, test } from "./support/fixtures";

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

test("the avatar shows the user's initials, then their photo once uploaded", async ({
  page,
  signInAs,
}) => {
  const user = await createUser("clinician");
  await signInAs(user.id);
  await page.goto("/app/settings");
  const menuButton = page.getByLabel("Account menu");
  await expect(menuButton.locator(".avatar")).toHaveText(`E${user.username[0].toUpperCase()}`);

  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#0b5c8c" } })
    .png()
    .toBuffer();
  await page
    .getByLabel(/^Photo/)
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("Profile photo was updated successfully")).toBeVisible();
  const database = db();
  const { photoId } = database.prepare(`SELECT photoId FROM "User" WHERE id = ?`).get(user.id) as {
    photoId: string;
  };
  database.close();
  const avatar = menuButton.locator("img.avatar");
  await expect(avatar).toHaveAttribute("src", `/photos/${photoId}`);
  // Loaded, not a broken image.
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
});

test("the avatar menu: Escape and a click outside close it; it works without JavaScript", async ({
  page,
  signInAs,
}) => {
  const user = await createUser("abmadmin");
  await signInAs(user.id);
  await page.goto("/app");
  const menuButton = page.getByLabel("Account menu");
  const entry = page.getByRole("link", { name: "Edit user profile" });

  await menuButton.click();
  await expect(entry).toBeVisible();
  if (!jsOn()) {
    await menuButton.click();
    await expect(entry).toBeHidden();
    await menuButton.click();
    await entry.click();
    await expect(page).toHaveURL(/\/app\/settings$/);
    return;
  }
  await page.keyboard.press("Escape");
  await expect(entry).toBeHidden();
  await expect(menuButton).toBeFocused();

  await menuButton.click();
  await expect(entry).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(entry).toBeHidden();

  // Following an entry closes it too (the shell stays on a client navigation).
  await menuButton.click();
  await entry.click();
  await expect(page).toHaveURL(/\/app\/settings$/);
  await expect(entry).toBeHidden();
});
