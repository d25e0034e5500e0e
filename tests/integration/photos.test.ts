// Photo uploads end to end: a real multipart Request through Remix's parser, real sharp, files
// under the worker's DATA_DIR, and the /photos/:photoId route's authorisation.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { photoUrl } from "~/lib/photoUrl";
import { sessionStorage } from "~/lib/session.server";
import { MAX_PHOTO_BYTES, PHOTO_MESSAGES, parsePhotoUpload, savePhoto } from "~/lib/uploads.server";
import { canViewPhoto, setCareSitePhoto, setUserPhoto } from "~/domain/accounts/photo.server";
import { loader as photoLoader } from "~/routes/photos.$photoId";
import { actorOf, createCareSite, createUser } from "../support/factories";
import { blankPng, peakRssGrowth } from "../support/imageBombs";
import { Browser, locationOf, statusOf } from "../support/requests";

const RED = { r: 220, g: 20, b: 20 };
const BLUE = { r: 20, g: 20, b: 220 };

function canvas(width: number, height: number, background = RED) {
  return sharp({ create: { width, height, channels: 3, background } });
}

/** 600x300: blue bands left and right of a red centre square, so a 1:1 centre crop is all red. */
function bandedPng() {
  return canvas(600, 300, BLUE)
    .composite([
      {
        input: { create: { width: 300, height: 300, channels: 3, background: RED } },
        left: 150,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
}

function multipart(fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return new Request("http://localhost/app/settings", { method: "POST", body: form });
}

function file(bytes: Buffer, name: string, type: string) {
  return new File([new Uint8Array(bytes)], name, { type });
}

function uploadedFiles() {
  const root = path.join(env.dataDir, "uploads");
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile());
}

/** Uploads through the real parser, then stores; fails the test if the parse did not succeed. */
async function upload(ownerId: string, photo: File) {
  const parsed = await parsePhotoUpload(multipart({ intent: "photo", photo }));
  if (!parsed.ok) throw new Error(parsed.message);
  expect(parsed.photo).not.toBeNull();
  return savePhoto({ ownerId, kind: "photo", file: parsed.photo! });
}

async function pixel(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return { r: data[i], g: data[i + 1], b: data[i + 2] };
}

function isRed(p: { r: number; g: number; b: number }) {
  return p.r > 180 && p.g < 70 && p.b < 70;
}

function isBlue(p: { r: number; g: number; b: number }) {
  return p.b > 180 && p.r < 70 && p.g < 70;
}

async function signIn(user: { id: string }) {
  const session = await sessionStorage.getSession();
  session.set("userId", user.id);
  session.set("authenticatedAt", Date.now());
  const browser = new Browser();
  browser.cookie = (await sessionStorage.commitSession(session)).split(";")[0];
  return browser;
}

function getPhoto(browser: Browser, photoId: string, headers: Record<string, string> = {}) {
  const request = browser.get(`/photos/${photoId}`);
  for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
  return browser.run((args) => photoLoader({ ...args, params: { photoId } }), request);
}

describe("parsePhotoUpload and savePhoto", () => {
  it("crops a 600x300 PNG to its centre and stores a 256x256 WebP with a row", async () => {
    const owner = await createUser();
    const png = await bandedPng();
    const result = await upload(owner.id, file(png, "holiday.png", "image/png"));
    expect(result.ok).toBe(true);
    if (!result.ok) return;

    const row = await prisma.upload.findUniqueOrThrow({ where: { id: result.id } });
    expect(row).toMatchObject({
      ownerId: owner.id,
      kind: "photo",
      fileName: "holiday.png",
      mimeType: "image/webp",
    });
    expect(row.storagePath).toBe(`uploads/${new Date().getUTCFullYear()}/${row.id}.webp`);
    const stored = fs.readFileSync(path.join(env.dataDir, row.storagePath));
    expect(row.sizeBytes).toBe(stored.byteLength);
    expect(row.sha256).toBe(crypto.createHash("sha256").update(stored).digest("hex"));
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 256, 256]);
    // Cropped, not squeezed or letterboxed: the blue bands are gone, corners included.
    for (const [x, y] of [
      [0, 0],
      [255, 0],
      [0, 255],
      [255, 255],
    ]) {
      expect(isRed(await pixel(stored, x, y))).toBe(true);
    }
  });

  it.each([
    ["JPEG", "photo.jpg", "image/jpeg", () => canvas(640, 480).jpeg().toBuffer()],
    ["GIF", "photo.gif", "image/gif", () => canvas(320, 200).gif().toBuffer()],
    ["WebP", "photo.webp", "image/webp", () => canvas(300, 500).webp().toBuffer()],
    // The bytes decide, not the name or the declared type.
    ["PNG posted as text", "notes.txt", "text/plain", () => canvas(100, 100).png().toBuffer()],
  ])("accepts a %s", async (_label, name, type, make) => {
    const owner = await createUser();
    const result = await upload(owner.id, file(await make(), name, type));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = await prisma.upload.findUniqueOrThrow({ where: { id: result.id } });
    const meta = await sharp(path.join(env.dataDir, row.storagePath)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 256, 256]);
  });

  it("turns a JPEG upright by its EXIF orientation before cropping", async () => {
    const owner = await createUser();
    // Stored 400x200, red left and blue right; orientation 6 shows it turned a quarter clockwise,
    // so upright the red half is on top.
    const jpeg = await canvas(400, 200, BLUE)
      .composite([
        {
          input: { create: { width: 200, height: 200, channels: 3, background: RED } },
          left: 0,
          top: 0,
        },
      ])
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const result = await upload(owner.id, file(jpeg, "phone.jpg", "image/jpeg"));
    if (!result.ok) throw new Error(result.message);
    const row = await prisma.upload.findUniqueOrThrow({ where: { id: result.id } });
    const stored = fs.readFileSync(path.join(env.dataDir, row.storagePath));
    expect(isRed(await pixel(stored, 10, 10))).toBe(true);
    expect(isBlue(await pixel(stored, 10, 245))).toBe(true);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
  });

  it.each([
    ["a text file named .png", "photo.png", "image/png", async () => Buffer.from("not an image\n")],
    ["a TIFF named .jpg", "photo.jpg", "image/jpeg", () => canvas(50, 50).tiff().toBuffer()],
    [
      "an SVG",
      "photo.svg",
      "image/svg+xml",
      async () =>
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'),
    ],
    ["a truncated PNG", "photo.png", "image/png", async () => (await bandedPng()).subarray(0, 200)],
  ])("refuses %s, leaving no row and no file", async (_label, name, type, make) => {
    const owner = await createUser();
    const filesBefore = uploadedFiles();
    const result = await upload(owner.id, file(await make(), name, type));
    expect(result).toEqual({ ok: false, message: PHOTO_MESSAGES.wrongType });
    expect(PHOTO_MESSAGES.wrongType).toBe("Please upload a JPEG, PNG, GIF or WebP image.");
    expect(await prisma.upload.count({ where: { ownerId: owner.id } })).toBe(0);
    expect(uploadedFiles()).toEqual(filesBefore);
  });

  it("refuses a 6 MB upload with a message, leaving no row and no file", async () => {
    const owner = await createUser();
    const filesBefore = uploadedFiles();
    const big = Buffer.concat([await bandedPng(), crypto.randomBytes(6 * 1024 * 1024)]);
    const parsed = await parsePhotoUpload(
      multipart({ intent: "photo", photo: file(big, "big.png", "image/png") }),
    );
    expect(parsed).toEqual({ ok: false, message: "The photo must be at most 5 MB." });
    // savePhoto checks too, whoever hands it a file.
    const saved = await savePhoto({
      ownerId: owner.id,
      kind: "photo",
      file: file(big, "big.png", "image/png"),
    });
    expect(saved).toEqual({ ok: false, message: PHOTO_MESSAGES.tooLarge });
    expect(await prisma.upload.count({ where: { ownerId: owner.id } })).toBe(0);
    expect(uploadedFiles()).toEqual(filesBefore);
  });

  it("refuses profile photos and care site pictures of too many pixels before decoding them", async () => {
    const owner = await createUser();
    const filesBefore = uploadedFiles();
    const bomb = await blankPng(16000, 16000);
    for (const kind of ["photo", "caresite"] as const) {
      const { result, growth } = await peakRssGrowth(() =>
        savePhoto({ ownerId: owner.id, kind, file: file(bomb, "bomb.png", "image/png") }),
      );
      expect(result).toEqual({ ok: false, message: PHOTO_MESSAGES.tooManyPixels });
      expect(growth).toBeLessThan(64 * 1024 * 1024);
    }
    expect(await prisma.upload.count({ where: { ownerId: owner.id } })).toBe(0);
    expect(uploadedFiles()).toEqual(filesBefore);
  });

  it("accepts exactly 5 MB and bounds the whole form, not only each part", async () => {
    const exact = Buffer.alloc(MAX_PHOTO_BYTES, 1);
    const parsed = await parsePhotoUpload(
      multipart({ photo: file(exact, "exact.png", "image/png") }),
    );
    expect(parsed.ok && parsed.photo?.size).toBe(MAX_PHOTO_BYTES);

    const part = Buffer.alloc(4 * 1024 * 1024, 1);
    const many = await parsePhotoUpload(
      multipart({
        photo: file(part, "a.png", "image/png"),
        other: file(part, "b.png", "image/png"),
      }),
    );
    expect(many).toEqual({ ok: false, message: PHOTO_MESSAGES.tooLarge });
  });

  it("keeps the other fields, and gives no photo when none was chosen", async () => {
    // A browser posts an empty, nameless part for a file input left empty.
    const parsed = await parsePhotoUpload(
      multipart({
        firstName: "Ada",
        photo: new File([], "", { type: "application/octet-stream" }),
      }),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.photo).toBeNull();
    expect(parsed.formData.get("firstName")).toBe("Ada");
  });

  it("crops the posted square of the upright picture (EXIF orientation applied first)", async () => {
    const owner = await createUser();
    // Stored 200x100, red left and blue right, tagged "turn 90° clockwise": upright it is 100x200,
    // red on top and blue below, as the browser shows it to the user choosing the square.
    const jpeg = await canvas(200, 100, BLUE)
      .composite([
        {
          input: { create: { width: 100, height: 100, channels: 3, background: RED } },
          left: 0,
          top: 0,
        },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const photo = file(jpeg, "turned.jpg", "image/jpeg");
    const parsed = await parsePhotoUpload(
      multipart({ photo, cropX: "0", cropY: "100", cropSize: "100" }),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.crop).toEqual({ x: 0, y: 100, size: 100 });
    const saved = await savePhoto({
      ownerId: owner.id,
      kind: "photo",
      file: photo,
      crop: parsed.crop,
    });
    if (!saved.ok) throw new Error(saved.message);
    const row = await prisma.upload.findUniqueOrThrow({ where: { id: saved.id } });
    const stored = fs.readFileSync(path.join(env.dataDir, row.storagePath));
    expect(isBlue(await pixel(stored, 128, 128))).toBe(true);
    expect(isBlue(await pixel(stored, 5, 5))).toBe(true);

    // Outside the upright picture: refused with the message.
    const outside = await savePhoto({
      ownerId: owner.id,
      kind: "photo",
      file: photo,
      crop: { x: 100, y: 0, size: 50 },
    });
    expect(outside).toEqual({ ok: false, message: PHOTO_MESSAGES.badCrop });
    // Some fields posted, or malformed: refused before anything is decoded.
    const malformed: Record<string, string>[] = [
      { cropX: "0" },
      { cropX: "1.5", cropY: "0", cropSize: "9" },
    ];
    for (const crop of malformed) {
      expect(await parsePhotoUpload(multipart({ photo, ...crop }))).toEqual({
        ok: false,
        message: PHOTO_MESSAGES.badCrop,
      });
    }
  });

  it("answers a body that is not multipart with a message, not an exception", async () => {
    const request = new Request("http://localhost/app/settings", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "photo=x",
    });
    expect(await parsePhotoUpload(request)).toEqual({
      ok: false,
      message: PHOTO_MESSAGES.unreadable,
    });
  });

  it("keeps at most 200 characters of the original name", async () => {
    const owner = await createUser();
    const result = await upload(
      owner.id,
      file(await canvas(40, 40).png().toBuffer(), `${"é".repeat(300)}.png`, "image/png"),
    );
    if (!result.ok) throw new Error(result.message);
    const row = await prisma.upload.findUniqueOrThrow({ where: { id: result.id } });
    expect(row.fileName).toBe("é".repeat(200));
  });
});

describe("setUserPhoto and setCareSitePhoto", () => {
  it("replace the old photo: the user points at the new one, the old row and file are gone", async () => {
    const user = await createUser();
    const first = await setUserPhoto(user.id, file(await bandedPng(), "a.png", "image/png"));
    if (!first.ok) throw new Error(first.message);
    const firstRow = await prisma.upload.findUniqueOrThrow({ where: { id: first.id } });
    const firstFile = path.join(env.dataDir, firstRow.storagePath);
    expect(fs.existsSync(firstFile)).toBe(true);

    const second = await setUserPhoto(
      user.id,
      file(await canvas(80, 80, BLUE).jpeg().toBuffer(), "b.jpg", "image/jpeg"),
    );
    if (!second.ok) throw new Error(second.message);
    const after = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.photoId).toBe(second.id);
    expect(await prisma.upload.findUnique({ where: { id: first.id } })).toBeNull();
    expect(fs.existsSync(firstFile)).toBe(false);
    const secondRow = await prisma.upload.findUniqueOrThrow({ where: { id: second.id } });
    expect(fs.existsSync(path.join(env.dataDir, secondRow.storagePath))).toBe(true);
  });

  it("keep the current photo when the new one is refused", async () => {
    const user = await createUser();
    const first = await setUserPhoto(user.id, file(await bandedPng(), "a.png", "image/png"));
    if (!first.ok) throw new Error(first.message);
    const refused = await setUserPhoto(user.id, file(Buffer.from("text"), "b.png", "image/png"));
    expect(refused).toEqual({ ok: false, message: PHOTO_MESSAGES.wrongType });
    const after = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.photoId).toBe(first.id);
    expect(await prisma.upload.count({ where: { ownerId: user.id } })).toBe(1);
  });

  it("remove the new upload again when the record does not exist", async () => {
    const filesBefore = uploadedFiles();
    const owner = await createUser();
    await expect(
      setCareSitePhoto("no-such-site", owner.id, file(await bandedPng(), "a.png", "image/png")),
    ).rejects.toThrow();
    expect(await prisma.upload.count({ where: { ownerId: owner.id } })).toBe(0);
    expect(uploadedFiles()).toEqual(filesBefore);
  });
});

describe("/photos/:photoId", () => {
  async function world() {
    const site = await createCareSite();
    const otherSite = await createCareSite();
    const patient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    const saved = await setUserPhoto(patient.id, file(await bandedPng(), "p.png", "image/png"));
    if (!saved.ok) throw new Error(saved.message);
    return { site, otherSite, patient, photoId: saved.id };
  }

  it("serves the owner their photo as WebP with caching headers", async () => {
    const { patient, photoId } = await world();
    const row = await prisma.upload.findUniqueOrThrow({ where: { id: photoId } });
    const response = (await getPhoto(await signIn(patient), photoId)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=86400");
    expect(response.headers.get("ETag")).toBe(`"${row.sha256}"`);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(fs.readFileSync(path.join(env.dataDir, row.storagePath)))).toBe(true);
  });

  it("lets a clinician of the patient's care site see the patient's photo", async () => {
    const { site, photoId } = await world();
    const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    expect(statusOf(await getPhoto(await signIn(clinician), photoId))).toBe(200);
  });

  it("answers 404 to a clinician of another care site, or with only a pending membership", async () => {
    const { site, otherSite, photoId } = await world();
    const outsider = await createUser({ role: "clinician", careSites: [{ id: otherSite.id }] });
    expect(statusOf(await getPhoto(await signIn(outsider), photoId))).toBe(404);
    const pending = await createUser({
      role: "clinicadmin",
      careSites: [{ id: site.id, status: "pending" }],
    });
    expect(statusOf(await getPhoto(await signIn(pending), photoId))).toBe(404);
  });

  it("lets superadmin and abmadmin see any patient's photo", async () => {
    const { photoId } = await world();
    for (const role of ["superadmin", "abmadmin"]) {
      const admin = await createUser({ role });
      expect(statusOf(await getPhoto(await signIn(admin), photoId))).toBe(200);
    }
  });

  it("does not let a patient see another patient's photo at the same care site", async () => {
    const { site, photoId } = await world();
    const otherPatient = await createUser({ role: "patient", careSites: [{ id: site.id }] });
    expect(statusOf(await getPhoto(await signIn(otherPatient), photoId))).toBe(404);
  });

  it("lets any staff member see a staff photo", async () => {
    const { otherSite } = await world();
    const site = await createCareSite();
    const clinician = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const saved = await setUserPhoto(clinician.id, file(await bandedPng(), "c.png", "image/png"));
    if (!saved.ok) throw new Error(saved.message);
    const elsewhere = await createUser({ role: "clinician", careSites: [{ id: otherSite.id }] });
    expect(statusOf(await getPhoto(await signIn(elsewhere), saved.id))).toBe(200);
  });

  it("shows a care site picture to its members and the provider's admins only", async () => {
    const { site, otherSite } = await world();
    const admin = await createUser({ role: "clinicadmin", careSites: [{ id: site.id }] });
    const saved = await setCareSitePhoto(
      site.id,
      admin.id,
      file(await bandedPng(), "site.png", "image/png"),
    );
    if (!saved.ok) throw new Error(saved.message);
    const member = await createUser({ role: "clinician", careSites: [{ id: site.id }] });
    const outsider = await createUser({ role: "clinician", careSites: [{ id: otherSite.id }] });
    const abmadmin = await createUser({ role: "abmadmin" });
    expect(statusOf(await getPhoto(await signIn(member), saved.id))).toBe(200);
    expect(statusOf(await getPhoto(await signIn(abmadmin), saved.id))).toBe(200);
    expect(statusOf(await getPhoto(await signIn(outsider), saved.id))).toBe(404);
    expect(await canViewPhoto(await actorOf(outsider), saved.id)).toBe(false);
    expect(await canViewPhoto(await actorOf(member), saved.id)).toBe(true);
  });

  it("sends a signed-out visitor to /", async () => {
    const { photoId } = await world();
    expect(locationOf(await getPhoto(new Browser(), photoId))).toBe("/");
  });

  it("answers 404 to an unknown id", async () => {
    const admin = await createUser({ role: "superadmin" });
    expect(statusOf(await getPhoto(await signIn(admin), "no-such-photo"))).toBe(404);
  });

  it("answers 304 when If-None-Match holds the current ETag", async () => {
    const { patient, photoId } = await world();
    const browser = await signIn(patient);
    const first = (await getPhoto(browser, photoId)) as Response;
    const etag = first.headers.get("ETag")!;
    const again = (await getPhoto(browser, photoId, { "If-None-Match": etag })) as Response;
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get("ETag")).toBe(etag);
    const weak = (await getPhoto(browser, photoId, {
      "If-None-Match": `"x", W/${etag}`,
    })) as Response;
    expect(weak.status).toBe(304);
    const stale = (await getPhoto(browser, photoId, { "If-None-Match": '"old"' })) as Response;
    expect(stale.status).toBe(200);
  });

  it("photoUrl points at this route, or the default avatar when there is no photo", () => {
    expect(photoUrl("abc")).toBe("/photos/abc");
    expect(photoUrl(null)).toBe("/img/default-avatar.svg");
    const svg = fs.readFileSync(path.resolve(__dirname, "../../public/img/default-avatar.svg"));
    expect(svg.byteLength).toBeLessThan(1024);
    expect(svg.toString()).toContain('viewBox="0 0 256 256"');
  });
});
