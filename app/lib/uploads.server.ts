// Photo uploads (DESIGN.md §4 "image upload widget and CDN"): Remix's multipart parser reads the
// form into memory, sharp checks what the bytes really are, crops them 1:1 and stores a 256x256
// WebP under DATA_DIR/uploads/<year>/<upload id>.webp with an Upload row.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { prisma } from "./db.server";
import { env } from "./env.server";
import { decodeImage, inspectImage, MAX_INPUT_PIXELS } from "./images.server";
import { logger } from "./logger.server";

export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** Room for the ordinary fields posted next to a file. */
const FIELDS_ROOM_BYTES = 256 * 1024;
export const PHOTO_PIXELS = 256;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "gif", "webp"]);

export const PHOTO_MESSAGES = {
  tooLarge: "The photo must be at most 5 MB.",
  wrongType: "Please upload a JPEG, PNG, GIF or WebP image.",
  unreadable: "The upload could not be read. Please try again.",
  tooManyPixels: `The photo must be at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
  badCrop: "The chosen square is not inside the picture. Please choose it again.",
} as const;

/**
 * The square the user chose in the upright picture, in its pixels (spec 1 §9 "crop ratio 1:1").
 * Posted as cropX, cropY and cropSize next to the file; without them (no JavaScript) the centre
 * square is kept.
 */
export type CropSquare = { x: number; y: number; size: number };
const CROP_FIELDS = ["cropX", "cropY", "cropSize"] as const;

export type FileForm =
  { ok: true; formData: FormData; file: File | null } | { ok: false; message: string };

export type PhotoUpload =
  | { ok: true; formData: FormData; photo: File | null; crop: CropSquare | null }
  | { ok: false; message: string };

export type SavePhotoResult = { ok: true; id: string } | { ok: false; message: string };

/**
 * Reads a multipart form with one photo field. `photo` is null when no file was chosen (browsers
 * post an empty part then). A photo over 5 MB, or a body that is not a readable multipart form,
 * gives `ok: false` with a message to show, never an exception.
 */
export async function parsePhotoUpload(
  request: Request,
  fieldName = "photo",
): Promise<PhotoUpload> {
  const parsed = await parseFileForm(request, {
    fieldName,
    maxFileBytes: MAX_PHOTO_BYTES,
    tooLarge: PHOTO_MESSAGES.tooLarge,
  });
  if (!parsed.ok) return parsed;
  const crop = readCropSquare(parsed.formData);
  if (crop === "invalid") return { ok: false, message: PHOTO_MESSAGES.badCrop };
  return { ok: true, formData: parsed.formData, photo: parsed.file, crop };
}

/** The posted square: null when none was posted (all three fields empty), "invalid" when malformed. */
export function readCropSquare(formData: FormData): CropSquare | null | "invalid" {
  const values = CROP_FIELDS.map((field) => formData.get(field) ?? "");
  if (values.every((value) => value === "")) return null;
  if (!values.every((value) => typeof value === "string" && /^\d{1,6}$/.test(value))) {
    return "invalid";
  }
  const [x, y, size] = values.map(Number);
  return size > 0 ? { x, y, size } : "invalid";
}

/**
 * The square within an upright image of width x height: a square overhanging the edge (rounding in
 * the browser) is pulled inside; one that starts outside the picture is refused (null).
 */
export function fitCropSquare(crop: CropSquare, width: number, height: number) {
  if (crop.x >= width || crop.y >= height) return null;
  const size = Math.min(crop.size, width, height);
  return {
    left: Math.min(crop.x, width - size),
    top: Math.min(crop.y, height - size),
    width: size,
    height: size,
  };
}

/** Reads a multipart form with one file field, the whole form held within the file limit + 256 KB. */
export async function parseFileForm(
  request: Request,
  options: { fieldName: string; maxFileBytes: number; tooLarge: string },
): Promise<FileForm> {
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(
      request,
      boundedMemoryHandler(options.maxFileBytes),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      return { ok: false, message: options.tooLarge };
    }
    // Not multipart at all, or a malformed body: the sender's fault, so a message, not a 500.
    logger.warn("unreadable multipart form", { reason: (error as Error).message });
    return { ok: false, message: PHOTO_MESSAGES.unreadable };
  }
  const value = formData.get(options.fieldName);
  const file = value instanceof File && value.size > 0 ? value : null;
  return { ok: true, formData, file };
}

// Remix's parser buffers in memory whatever part a handler leaves unread, and its memory handler
// limits each part but not how many there are: counting every byte here keeps the whole form
// within the file limit plus room for the ordinary fields posted next to it.
function boundedMemoryHandler(maxFileBytes: number): UploadHandler {
  const memory = unstable_createMemoryUploadHandler({ maxPartSize: maxFileBytes });
  const maxFormBytes = maxFileBytes + FIELDS_ROOM_BYTES;
  let total = 0;
  async function* counted(name: string, data: AsyncIterable<Uint8Array>) {
    for await (const chunk of data) {
      total += chunk.byteLength;
      if (total > maxFormBytes) throw new MaxPartSizeExceededError(name, maxFormBytes);
      yield chunk;
    }
  }
  return (part) => memory({ ...part, data: counted(part.name, part.data) });
}

/**
 * Stores a photo: whatever its name or declared type says, sharp must read it as JPEG, PNG, GIF or
 * WebP. It is turned upright, cropped to the chosen square (else the centre one) and saved as a 256x256 WebP (metadata
 * such as EXIF location is not carried over). Returns the new Upload id.
 */
export async function savePhoto(input: {
  ownerId: string;
  kind: "photo" | "caresite";
  file: File;
  /** The square the user chose; the centre square when null or left out. */
  crop?: CropSquare | null;
}): Promise<SavePhotoResult> {
  if (input.file.size > MAX_PHOTO_BYTES) return { ok: false, message: PHOTO_MESSAGES.tooLarge };
  const stored = await toSquareWebp(
    Buffer.from(await input.file.arrayBuffer()),
    input.crop ?? null,
  );
  if (typeof stored === "string") return { ok: false, message: stored };

  const id = await storeUpload({
    ownerId: input.ownerId,
    kind: input.kind,
    fileName: input.file.name,
    mimeType: "image/webp",
    extension: "webp",
    bytes: stored,
  });
  return { ok: true, id };
}

/**
 * Writes bytes under DATA_DIR/uploads/<year>/<upload id>.<extension> with their Upload row; the
 * file is in place before the row commits, so a row never names a missing file. Returns the id.
 */
export async function storeUpload(input: {
  ownerId: string;
  kind: string;
  fileName: string;
  mimeType: string;
  extension: string;
  bytes: Buffer;
}) {
  const year = String(new Date().getUTCFullYear());
  const dir = path.join(uploadsRoot(), year);
  await fs.mkdir(dir, { recursive: true });
  // Written under a temporary name and renamed into place, so a crash never leaves a half file
  // under a name a row points to.
  const temp = path.join(dir, `.${crypto.randomUUID()}.tmp`);
  await writeDurably(temp, input.bytes);

  const placed: { path?: string } = {};
  try {
    return await prisma.$transaction(async (tx) => {
      const row = await tx.upload.create({
        data: {
          ownerId: input.ownerId,
          kind: input.kind,
          fileName: Array.from(input.fileName).slice(0, 200).join(""),
          mimeType: input.mimeType,
          sizeBytes: input.bytes.byteLength,
          sha256: crypto.createHash("sha256").update(input.bytes).digest("hex"),
          storagePath: "",
        },
        select: { id: true },
      });
      const storagePath = path.posix.join("uploads", year, `${row.id}.${input.extension}`);
      await tx.upload.update({
        where: { id: row.id },
        data: { storagePath },
        select: { id: true },
      });
      placed.path = resolveStoragePath(storagePath);
      await fs.rename(temp, placed.path);
      return row.id;
    });
  } catch (error) {
    await fs.rm(temp, { force: true });
    if (placed.path) await fs.rm(placed.path, { force: true });
    throw error;
  }
}

/** The photo as a 256x256 WebP, or the message saying why not (lib/images checks it first). */
async function toSquareWebp(original: Buffer, crop: CropSquare | null): Promise<Buffer | string> {
  const image = await inspectImage(original, ACCEPTED_FORMATS);
  if (!image.ok) {
    return image.reason === "tooManyPixels"
      ? PHOTO_MESSAGES.tooManyPixels
      : PHOTO_MESSAGES.wrongType;
  }
  // The browser shows the picture upright, so the square is measured in the upright picture.
  const turned = image.orientation >= 5;
  const [width, height] = turned ? [image.height, image.width] : [image.width, image.height];
  const region = crop ? fitCropSquare(crop, width, height) : null;
  if (crop && !region) return PHOTO_MESSAGES.badCrop;
  try {
    // Only the first frame of an animated GIF or WebP is read (sharp's default). After rotate(),
    // extract() cuts from the upright picture.
    const upright = decodeImage(original);
    return await (region ? upright.extract(region) : upright)
      .resize(PHOTO_PIXELS, PHOTO_PIXELS, { fit: "cover", position: "centre" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    // Not an image sharp can read, or a damaged one.
    return PHOTO_MESSAGES.wrongType;
  }
}

async function writeDurably(file: string, bytes: Buffer) {
  const handle = await fs.open(file, "wx", 0o640);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function uploadsRoot() {
  return path.join(env.dataDir, "uploads");
}

/** The absolute path of a stored file; refuses anything that would leave DATA_DIR/uploads. */
export function resolveStoragePath(storagePath: string) {
  const root = uploadsRoot();
  const absolute = path.resolve(env.dataDir, storagePath);
  if (!absolute.startsWith(root + path.sep)) {
    throw new Error(`Upload path outside ${root}: ${storagePath}`);
  }
  return absolute;
}

/** The stored bytes, or null when the file is missing. */
export async function readStoredFile(storagePath: string) {
  try {
    return await fs.readFile(resolveStoragePath(storagePath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export async function removeStoredFile(storagePath: string) {
  await fs.rm(resolveStoragePath(storagePath), { force: true });
}

/** Deletes an Upload row, then its file (a crash in between leaves a stray file, never a row without one). */
export async function deleteUpload(id: string) {
  const row = await prisma.upload.findUnique({ where: { id }, select: { storagePath: true } });
  if (!row) return;
  await prisma.upload.deleteMany({ where: { id } });
  if (row.storagePath) await removeStoredFile(row.storagePath);
}

/**
 * A stored file as an HTTP answer: 304 when the browser's copy is current, 404 when the file is
 * missing. `private`: uploads are personal data; no shared cache may keep them.
 */
export async function storedFileResponse(
  request: Request,
  upload: { storagePath: string; mimeType: string; sha256: string },
) {
  const etag = `"${upload.sha256}"`;
  const headers = {
    "Content-Type": upload.mimeType,
    "Cache-Control": "private, max-age=86400",
    "X-Content-Type-Options": "nosniff",
    ETag: etag,
  };
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  const bytes = await readStoredFile(upload.storagePath);
  if (!bytes) {
    logger.error("stored file missing", { storagePath: upload.storagePath });
    return new Response("Not Found", { status: 404 });
  }
  return new Response(bytes, {
    headers: { ...headers, "Content-Length": String(bytes.byteLength) },
  });
}

// If-None-Match may list several tags, may be "*", and compares weakly (RFC 9110 §13.1.2).
function matchesEtag(header: string | null, etag: string) {
  if (!header) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}
