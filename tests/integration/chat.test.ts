// Staff messaging against the real database and files: who may talk to whom, conversations,
// sending with images checked by content, statuses, unread counts, the stream, and 404 for
// everyone outside a conversation (its page, its stream, its attachments).
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import type { FormReplyData } from "~/lib/form.server";
import {
  ATTACHMENT_PLACEHOLDER,
  CHAT_MESSAGES,
  countUnreadMessages,
  createGroupDialog,
  GROUP_DEFAULT_NAME,
  listContacts,
  listDialogs,
  loadMessages,
  MAX_ATTACHMENT_BYTES,
  sendMessage,
  startDirectDialog,
} from "~/domain/chat/chat.server";
import { loader as shellLoader } from "~/routes/app";
import { loader as attachmentLoader } from "~/routes/app.chat.$dialogId.attachments.$attachmentId";
import { loader as streamLoader } from "~/routes/app.chat.stream";
import { action as sendAction, loader as dialogLoader } from "~/routes/app.chat.$dialogId";
import { action as newAction } from "~/routes/app.chat";
import { actorOf, createCareSite, createUser } from "../support/factories";
import { blankPng, peakRssGrowth } from "../support/imageBombs";
import { bodyOf, locationOf, statusOf, type Browser } from "../support/requests";
import { signedInBrowser } from "../support/session";

type User = Awaited<ReturnType<typeof createUser>>;

let siteA: { id: string };
let siteB: { id: string };
let adminA: User;
let clinicianA: User;
let clinicianA2: User;
let adminB: User;
let clinicianB: User;
let superadmin: User;
let abmadmin: User;
let patientA: User;

beforeAll(async () => {
  siteA = await createCareSite();
  siteB = await createCareSite();
  adminA = await createUser({ role: "clinicadmin", careSites: [{ id: siteA.id }] });
  clinicianA = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
  clinicianA2 = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
  adminB = await createUser({ role: "clinicadmin", careSites: [{ id: siteB.id }] });
  clinicianB = await createUser({ role: "clinician", careSites: [{ id: siteB.id }] });
  superadmin = await createUser({ role: "superadmin" });
  abmadmin = await createUser({ role: "abmadmin" });
  patientA = await createUser({ role: "patient", careSites: [{ id: siteA.id }] });
});

async function contactIds(user: User) {
  return new Set((await listContacts(await actorOf(user))).map((c) => c.id));
}

function png(width = 8, height = 8) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 0, b: 0 } } })
    .png()
    .toBuffer();
}

function file(bytes: Buffer, name: string, type: string) {
  return new File([new Uint8Array(bytes)], name, { type });
}

async function direct(a: User, b: User) {
  const opened = await startDirectDialog(await actorOf(a), b.id);
  if (!opened.ok) throw new Error(opened.message);
  return opened.dialogId;
}

async function open(browser: Browser, dialogId: string, search = "") {
  return browser.run(dialogLoader, browser.get(`/app/chat/${dialogId}${search}`), { dialogId });
}

describe("contacts (accepted sharing, both ways)", () => {
  it("are the staff who share an accepted care site", async () => {
    const contacts = await contactIds(clinicianA);
    expect(contacts.has(adminA.id)).toBe(true);
    expect(contacts.has(clinicianA2.id)).toBe(true);
    expect(contacts.has(clinicianB.id)).toBe(false);
    expect(contacts.has(adminB.id)).toBe(false);
    expect(contacts.has(patientA.id)).toBe(false);
    // A clinician is not a contact of the provider's staff.
    expect(contacts.has(superadmin.id)).toBe(false);
    expect((await contactIds(clinicianB)).has(clinicianA.id)).toBe(false);
  });

  it("join the provider's staff with every care site admin, and among themselves", async () => {
    const admin = await contactIds(adminA);
    expect(admin.has(superadmin.id)).toBe(true);
    expect(admin.has(abmadmin.id)).toBe(true);
    expect(admin.has(clinicianA.id)).toBe(true);
    expect(admin.has(adminB.id)).toBe(false);

    const provider = await contactIds(superadmin);
    expect(provider.has(abmadmin.id)).toBe(true);
    expect(provider.has(adminA.id)).toBe(true);
    expect(provider.has(adminB.id)).toBe(true);
    expect(provider.has(clinicianA.id)).toBe(false);
    expect(provider.has(patientA.id)).toBe(false);
  });

  it("leave out pending memberships and searches by name", async () => {
    const pending = await createUser({
      role: "clinician",
      careSites: [{ id: siteA.id, status: "pending" }],
    });
    expect((await contactIds(clinicianA)).has(pending.id)).toBe(false);
    expect((await contactIds(pending)).size).toBe(0);
    const found = await listContacts(await actorOf(clinicianA), adminA.lastName);
    expect(found.map((c) => c.id)).toEqual([adminA.id]);
  });
});

describe("conversations", () => {
  it("reuses the one-to-one conversation from either side", async () => {
    const first = await direct(clinicianA, clinicianA2);
    expect(await direct(clinicianA2, clinicianA)).toBe(first);
    const dialog = await prisma.chatDialog.findUniqueOrThrow({
      where: { id: first },
      include: { participants: true },
    });
    expect(dialog.type).toBe(3);
    expect(dialog.participants.map((p) => p.userId).sort()).toEqual(
      [clinicianA.id, clinicianA2.id].sort(),
    );
  });

  it("names a group 'Group dialog' unless named, and lists it with the last message", async () => {
    const made = await createGroupDialog(await actorOf(adminA), {
      memberIds: [clinicianA.id, clinicianA2.id, clinicianA.id],
      name: "  ",
    });
    expect(made.ok).toBe(true);
    const id = (made as { dialogId: string }).dialogId;
    expect((await prisma.chatDialog.findUniqueOrThrow({ where: { id } })).name).toBe(
      GROUP_DEFAULT_NAME,
    );
    expect(await prisma.chatParticipant.count({ where: { dialogId: id } })).toBe(3);

    await sendMessage(await actorOf(clinicianA2), id, { text: "Hello group", file: null });
    const listed = (await listDialogs(await actorOf(adminA))).find((d) => d.id === id)!;
    expect(listed).toMatchObject({
      name: GROUP_DEFAULT_NAME,
      lastMessage: "Hello group",
      unread: 1,
    });
    expect(listed.lastMessageTime).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{1,2}:\d{2}:\d{1,2}$/);
    expect((await listDialogs(await actorOf(adminA), "group dia")).map((d) => d.id)).toContain(id);
    expect((await listDialogs(await actorOf(adminA), "nobody by that name")).length).toBe(0);
  });

  it("refuses a non-contact in a crafted New Message or New group form, and creates nothing", async () => {
    const browser = await signedInBrowser(clinicianA.id);
    const before = await prisma.chatDialog.count();
    for (const fields of [
      { intent: "group", userId: [clinicianA2.id, clinicianB.id], name: "Sneaky" },
      { intent: "direct", userId: clinicianB.id, name: "" },
      { intent: "group", userId: [patientA.id], name: "" },
    ]) {
      const result = await browser.run(newAction, browser.post("/app/chat?dialog=new", fields));
      // Answered inside the open dialog (400 with the message), never a redirect elsewhere.
      expect(statusOf(result)).toBe(400);
      expect(Object.values((await bodyOf<FormReplyData>(result)).fieldErrors)).toEqual([
        fields.intent === "direct" ? CHAT_MESSAGES.notContactDirect : CHAT_MESSAGES.notContact,
      ]);
    }
    expect(await prisma.chatDialog.count()).toBe(before);
    const shell = await bodyOf<{ flash?: unknown }>(
      await browser.run(shellLoader, browser.get("/app/chat")),
    );
    expect(JSON.stringify(shell)).not.toContain("Sneaky");

    const ok = await browser.run(
      newAction,
      browser.post("/app/chat?dialog=group", {
        intent: "group",
        userId: [clinicianA2.id, adminA.id],
        name: "Huddle",
      }),
    );
    expect(locationOf(ok)).toMatch(/^\/app\/chat\/[a-z0-9]+$/);
    expect(await prisma.chatDialog.count()).toBe(before + 1);
  });
});

describe("sending and statuses", () => {
  it("goes sent, delivered (the other's page loaded), read (they opened it); counts unread", async () => {
    const a = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const b = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const id = await direct(a, b);
    expect(
      await sendMessage(await actorOf(a), id, { text: "  Are you in today?  ", file: null }),
    ).toEqual({
      ok: true,
    });

    const statusOfOwn = async () =>
      (await loadMessages(await actorOf(a), id)).messages.at(-1)!.status;
    expect(await statusOfOwn()).toBe("sent");
    expect(await countUnreadMessages(b.id)).toBe(1);

    // Any portal page of b (the shell's loader) receives it.
    const browserB = await signedInBrowser(b.id);
    const shell = await bodyOf<{ shell: { badges: { unreadMessages: number } } }>(
      await browserB.run(shellLoader, browserB.get("/app")),
    );
    expect(shell.shell.badges.unreadMessages).toBe(1);
    expect(await statusOfOwn()).toBe("delivered");

    const page = await bodyOf<{
      messages: { body: string; own: boolean; status: string | null }[];
    }>(await open(browserB, id));
    expect(page.messages.at(-1)).toMatchObject({
      body: "Are you in today?",
      own: false,
      status: null,
    });
    expect(await statusOfOwn()).toBe("read");
    expect(await countUnreadMessages(b.id)).toBe(0);
  });

  it("does not send an empty body, and says so", async () => {
    const id = await direct(adminA, clinicianA);
    const browser = await signedInBrowser(adminA.id);
    const before = await prisma.chatMessage.count({ where: { dialogId: id } });
    const result = await browser.run(
      sendAction,
      browser.postMultipart(`/app/chat/${id}`, { text: "   " }),
      { dialogId: id },
    );
    expect(statusOf(result)).toBe(400);
    expect((await bodyOf<FormReplyData>(result)).fieldErrors[""]).toBe(CHAT_MESSAGES.missing);
    expect(CHAT_MESSAGES.missing).toBe("Some required parameters are missing.");
    expect(await prisma.chatMessage.count({ where: { dialogId: id } })).toBe(before);
  });

  it("takes an image checked by its content, serves it to participants only", async () => {
    const id = await direct(adminA, clinicianA);
    const browser = await signedInBrowser(adminA.id);
    const image = await png();
    const sent = await browser.run(
      sendAction,
      browser.postMultipart(`/app/chat/${id}`, {
        text: "",
        image: file(image, "scan.png", "image/png"),
      }),
      { dialogId: id },
    );
    expect(locationOf(sent)).toBe(`/app/chat/${id}`);
    const last = (await loadMessages(await actorOf(adminA), id)).messages.at(-1)!;
    expect(last.body).toBe(ATTACHMENT_PLACEHOLDER);
    expect(last.attachments).toHaveLength(1);
    const attachmentId = last.attachments[0].id;
    const params = { dialogId: id, attachmentId };
    const path = `/app/chat/${id}/attachments/${attachmentId}`;

    const reader = await signedInBrowser(clinicianA.id);
    const served = (await reader.run(attachmentLoader, reader.get(path), params)) as Response;
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    // Stored as a fresh encoding of the same picture (lib/images), not the uploaded bytes.
    const servedBytes = Buffer.from(await served.arrayBuffer());
    expect(await sharp(servedBytes).metadata()).toMatchObject({
      format: "png",
      width: 8,
      height: 8,
    });
    expect(
      (await sharp(servedBytes).raw().toBuffer()).equals(await sharp(image).raw().toBuffer()),
    ).toBe(true);

    for (const outsider of [clinicianA2, clinicianB, superadmin]) {
      const b = await signedInBrowser(outsider.id);
      expect(statusOf(await b.run(attachmentLoader, b.get(path), params))).toBe(404);
    }
    // The right attachment id under another conversation's id is not found either.
    const otherId = await direct(clinicianA2, clinicianA);
    const b = await signedInBrowser(clinicianA2.id);
    expect(
      statusOf(await b.run(attachmentLoader, b.get(path), { dialogId: otherId, attachmentId })),
    ).toBe(404);
  });

  it("refuses a non-image whatever its name, and an image of 2,000,000 bytes or more", async () => {
    const id = await direct(adminA, clinicianA);
    const browser = await signedInBrowser(adminA.id);
    const post = (image: File, text = "see attached") =>
      browser.run(sendAction, browser.postMultipart(`/app/chat/${id}`, { text, image }), {
        dialogId: id,
      });
    const before = await prisma.chatMessage.count({ where: { dialogId: id } });
    const uploadsBefore = await prisma.upload.count({ where: { kind: "attachment" } });

    const fake = await post(file(Buffer.from("%PDF-1.4 not an image"), "scan.png", "image/png"));
    expect(statusOf(fake)).toBe(400);
    expect(await bodyOf(fake)).toEqual({
      fieldErrors: { "": CHAT_MESSAGES.notImage },
      repopulateFields: { text: "see attached" },
    });

    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .webp()
      .toBuffer();
    expect(
      (await bodyOf<FormReplyData>(await post(file(webp, "a.webp", "image/webp")))).fieldErrors[""],
    ).toBe(CHAT_MESSAGES.notImage);

    // Exactly the limit: refused ("under 2,000,000 bytes"); the check is on size before content.
    const atLimit = Buffer.concat([await png(), Buffer.alloc(MAX_ATTACHMENT_BYTES)]).subarray(
      0,
      MAX_ATTACHMENT_BYTES,
    );
    const big = await post(file(atLimit, "big.png", "image/png"));
    expect((await bodyOf<FormReplyData>(big)).fieldErrors[""]).toBe(
      "Image is too large. Max size is 2 mb.",
    );
    const bigger = await post(
      file(Buffer.alloc(MAX_ATTACHMENT_BYTES + 5000), "huge.png", "image/png"),
    );
    expect(statusOf(bigger)).toBe(400);
    expect((await bodyOf<FormReplyData>(bigger)).fieldErrors[""]).toBe(CHAT_MESSAGES.tooLarge);

    expect(await prisma.chatMessage.count({ where: { dialogId: id } })).toBe(before);
    expect(await prisma.upload.count({ where: { kind: "attachment" } })).toBe(uploadsBefore);
  });

  it("stores a TIFF as PNG, which browsers can show", async () => {
    const id = await direct(adminA, clinicianA);
    const tiff = await sharp({ create: { width: 5, height: 5, channels: 3, background: "#0a0" } })
      .tiff()
      .toBuffer();
    expect(
      await sendMessage(await actorOf(adminA), id, {
        text: "tiff",
        file: file(tiff, "x.tif", "image/tiff"),
      }),
    ).toEqual({
      ok: true,
    });
    const last = (await loadMessages(await actorOf(adminA), id)).messages.at(-1)!;
    const upload = await prisma.chatAttachment.findUniqueOrThrow({
      where: { id: last.attachments[0].id },
      include: { upload: true },
    });
    expect(upload.upload.mimeType).toBe("image/png");
    expect(upload.upload.storagePath).toMatch(/\.png$/);
  });

  it("refuses a 16000x16000 PNG and a decompression bomb from their header, decoding nothing", async () => {
    const id = await direct(adminA, clinicianA);
    const uploadsBefore = await prisma.upload.count({ where: { kind: "attachment" } });
    for (const [width, height] of [
      [16000, 16000],
      [40000, 40000],
    ]) {
      const bomb = await blankPng(width, height);
      expect(bomb.length).toBeLessThan(MAX_ATTACHMENT_BYTES);
      // A full decode would take 1 byte (grey) to 4 bytes a pixel: 256 MB to 6.4 GB.
      const actor = await actorOf(adminA);
      const { result, growth } = await peakRssGrowth(() =>
        sendMessage(actor, id, { text: "", file: file(bomb, "bomb.png", "image/png") }),
      );
      expect(result).toEqual({ ok: false, message: CHAT_MESSAGES.tooManyPixels });
      expect(growth).toBeLessThan(64 * 1024 * 1024);
    }
    expect(await prisma.upload.count({ where: { kind: "attachment" } })).toBe(uploadsBefore);
  });

  it("stores images re-encoded, the longest side at most 2048 pixels, without metadata", async () => {
    const id = await direct(adminA, clinicianA);
    const photo = await sharp({
      create: { width: 3000, height: 1500, channels: 3, background: "#336699" },
    })
      .jpeg()
      .withExif({ IFD0: { Copyright: "GPS 30.2672 N 97.7431 W" } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const wide = await sharp({
      create: { width: 2100, height: 300, channels: 4, background: "#0000" },
    })
      .png()
      .toBuffer();
    for (const [bytes, name, format, width, height] of [
      [photo, "photo.jpg", "jpeg", 2048, 1024],
      [wide, "wide.png", "png", 2048, 293],
      [await png(), "small.png", "png", 8, 8],
    ] as const) {
      expect(
        await sendMessage(await actorOf(adminA), id, {
          text: name,
          file: file(bytes, name, "image/x"),
        }),
      ).toEqual({
        ok: true,
      });
      const last = (await loadMessages(await actorOf(adminA), id)).messages.at(-1)!;
      const { upload } = await prisma.chatAttachment.findUniqueOrThrow({
        where: { id: last.attachments[0].id },
        include: { upload: true },
      });
      const stored = await fs.readFile(path.join(env.dataDir, upload.storagePath));
      expect(stored.equals(bytes)).toBe(false);
      const meta = await sharp(stored).metadata();
      expect(meta, name).toMatchObject({ format, width, height });
      expect(meta.exif, name).toBeUndefined();
      expect(upload.sizeBytes).toBe(stored.length);
    }
  });

  it("lets a user removed from the shared care site read the past, not post", async () => {
    const leaving = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const id = await direct(adminA, leaving);
    await sendMessage(await actorOf(adminA), id, { text: "Before you go", file: null });
    await prisma.membership.updateMany({
      where: { userId: leaving.id },
      data: { status: "blocked" },
    });

    const browser = await signedInBrowser(leaving.id);
    const page = await bodyOf<{ dialog: { canPost: boolean }; messages: { body: string }[] }>(
      await open(browser, id),
    );
    expect(page.dialog.canPost).toBe(false);
    expect(page.messages.map((m) => m.body)).toContain("Before you go");
    const refused = await browser.run(
      sendAction,
      browser.postMultipart(`/app/chat/${id}`, { text: "still here?" }),
      { dialogId: id },
    );
    expect((await bodyOf<FormReplyData>(refused)).fieldErrors[""]).toBe(CHAT_MESSAGES.cannotPost);
    // Nor may the admin post to someone who is no longer a contact.
    expect(await sendMessage(await actorOf(adminA), id, { text: "hello?", file: null })).toEqual({
      ok: false,
      message: CHAT_MESSAGES.cannotPost,
    });
  });

  it("pages 50 messages at a time, newest at the bottom", async () => {
    const id = await direct(superadmin, abmadmin);
    const start = Date.now() - 200_000;
    await prisma.chatMessage.createMany({
      data: Array.from({ length: 120 }, (_, k) => ({
        dialogId: id,
        senderId: k % 2 ? superadmin.id : abmadmin.id,
        body: `message ${k + 1}`,
        createdAt: new Date(start + k * 1000),
      })),
    });
    const first = await loadMessages(await actorOf(superadmin), id);
    expect(first.messages).toHaveLength(50);
    expect(first.messages[0].body).toBe("message 71");
    expect(first.messages.at(-1)!.body).toBe("message 120");
    expect(first.hasOlder).toBe(true);
    const three = await loadMessages(await actorOf(superadmin), id, 3);
    expect(three.messages).toHaveLength(120);
    expect(three.messages[0].body).toBe("message 1");
    expect(three.hasOlder).toBe(false);
  });
});

describe("outsiders", () => {
  it("get 404 for the conversation and its post", async () => {
    const id = await direct(adminA, clinicianA);
    for (const outsider of [clinicianA2, adminB, superadmin]) {
      const browser = await signedInBrowser(outsider.id);
      expect(statusOf(await open(browser, id))).toBe(404);
      const post = await browser.run(
        sendAction,
        browser.postMultipart(`/app/chat/${id}`, { text: "hi" }),
        { dialogId: id },
      );
      expect(statusOf(post)).toBe(404);
    }
    expect(await prisma.chatMessage.count({ where: { dialogId: id, body: "hi" } })).toBe(0);
  });
});

describe("the stream", () => {
  async function nextEvent(reader: ReadableStreamDefaultReader<Uint8Array>, name: string) {
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before ${name}`);
      buffer += decoder.decode(value);
      const match = buffer.match(new RegExp(`event: ${name}\\ndata: (.*)\\n\\n`));
      if (match) return JSON.parse(match[1]) as Record<string, unknown>;
    }
  }

  it("tells a participant of a new message and marks it delivered, never read", async () => {
    const a = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const b = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const id = await direct(a, b);
    const browserB = await signedInBrowser(b.id);
    const abort = new AbortController();
    const response = (await browserB.run(
      streamLoader,
      browserB.get("/app/chat/stream", { signal: abort.signal }),
    )) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    await nextEvent(reader, "ready");

    await sendMessage(await actorOf(a), id, { text: "ping", file: null });
    const change = await nextEvent(reader, "change");
    // Received by b's page, not read: only b's own conversation page reads it.
    expect(change.unread).toBe(1);
    expect((await loadMessages(await actorOf(a), id)).messages.at(-1)!.status).toBe("delivered");
    // Then b opens the conversation: read, and b's stream hears of it.
    await open(browserB, id);
    expect((await nextEvent(reader, "change")).unread).toBe(0);
    expect((await loadMessages(await actorOf(a), id)).messages.at(-1)!.status).toBe("read");
    abort.abort();
  });

  it("a prefetch of the conversation does not read it", async () => {
    const a = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const b = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const id = await direct(a, b);
    await sendMessage(await actorOf(a), id, { text: "later", file: null });
    const browserB = await signedInBrowser(b.id);
    for (const header of [{ "Sec-Purpose": "prefetch" }, { Purpose: "prefetch" }]) {
      const request = browserB.get(`/app/chat/${id}`);
      for (const [k, v] of Object.entries(header)) request.headers.set(k, v);
      expect(statusOf(await browserB.run(dialogLoader, request, { dialogId: id }))).toBe(200);
    }
    expect(await countUnreadMessages(b.id)).toBe(1);
    await open(browserB, id);
    expect(await countUnreadMessages(b.id)).toBe(0);
  });

  it("says when the session is over", async () => {
    const user = await createUser({ role: "clinician", careSites: [{ id: siteA.id }] });
    const browser = await signedInBrowser(user.id);
    const { loader: anyPageStream } = await import("~/routes/app.chat.stream");
    const response = (await browser.run(
      anyPageStream,
      browser.get("/app/chat/stream"),
    )) as Response;
    const reader = response.body!.getReader();
    await nextEvent(reader, "ready");
    await prisma.session.updateMany({
      where: { userId: user.id },
      data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) },
    });
    await nextEvent(reader, "expired");
    // The look did not count as activity.
    const row = await prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(Date.now() - row.lastSeenAt.getTime()).toBeGreaterThan(30 * 60_000);

    const signedOut = (await anyPageStream({
      request: new Request("http://localhost/app/chat/stream"),
      params: {},
      context: {},
    })) as Response;
    expect(await signedOut.text()).toContain("event: expired");
  }, 15_000);
});
