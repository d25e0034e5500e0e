// The one guard every uploaded image passes (chat attachments, profile photos, care site
// pictures): the header is read first (sharp's metadata() decodes no pixels), an image over the
// pixel budget is refused before anything is decoded, and what is kept is a fresh encoding by
// sharp, never the uploaded bytes: no metadata (EXIF location, comments) is carried over and a
// file crafted to be two things at once does not survive.
import sharp, { type Metadata } from "sharp";

/**
 * Pixels an upload may have, every frame of an animation counted: 25 megapixels (a 6000x4000
 * camera picture fits). Decoding costs about 4 bytes a pixel, so one upload stays near 100 MB
 * where a 16000x16000 PNG of a few kilobytes would need 1 GB.
 */
export const MAX_INPUT_PIXELS = 25_000_000;

export type ImageFormat = "jpeg" | "png" | "gif" | "webp" | "tiff";

export type InspectedImage =
  | {
      ok: true;
      format: ImageFormat;
      width: number;
      height: number;
      frames: number;
      /** The EXIF orientation (1 to 8; 5 to 8 turn the picture a quarter). */
      orientation: number;
    }
  | { ok: false; reason: "unreadable" | "format" | "tooManyPixels" };

/**
 * What the bytes are, from their header alone; refuses formats not in `accepted` and images over
 * the pixel budget (every frame counted with `allFrames`, for an animation that is kept whole).
 */
export async function inspectImage(
  bytes: Buffer,
  accepted: ReadonlySet<string>,
  options: { allFrames?: boolean } = {},
): Promise<InspectedImage> {
  let meta: Metadata;
  try {
    // limitInputPixels: false here only because nothing is decoded; the budget is checked below
    // with every frame counted, and again by libvips on decoding.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  if (!meta.format || !accepted.has(meta.format)) return { ok: false, reason: "format" };
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const frames = meta.format === "gif" || meta.format === "webp" ? (meta.pages ?? 1) : 1;
  if (width < 1 || height < 1) return { ok: false, reason: "unreadable" };
  const decoded = options.allFrames ? frames : 1;
  if (width * height * decoded > MAX_INPUT_PIXELS) return { ok: false, reason: "tooManyPixels" };
  return {
    ok: true,
    format: meta.format as ImageFormat,
    width,
    height,
    frames,
    orientation: meta.orientation ?? 1,
  };
}

/**
 * A fresh sharp pipeline over checked bytes: turned upright by its EXIF orientation, every frame
 * of an animation kept when `animated`, libvips itself refusing more than the pixel budget.
 */
export function decodeImage(bytes: Buffer, options: { animated?: boolean } = {}) {
  return sharp(bytes, {
    limitInputPixels: MAX_INPUT_PIXELS,
    animated: options.animated ?? false,
    sequentialRead: true,
  }).rotate();
}

/** The image re-encoded in `format`, its longest side at most `maxSide` (never enlarged). */
export async function reencodeImage(
  bytes: Buffer,
  options: { format: "jpeg" | "png" | "gif"; maxSide: number; animated?: boolean },
): Promise<Buffer> {
  const pipeline = decodeImage(bytes, { animated: options.animated }).resize(
    options.maxSide,
    options.maxSide,
    { fit: "inside", withoutEnlargement: true },
  );
  switch (options.format) {
    case "jpeg":
      return pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    case "png":
      return pipeline.png({ compressionLevel: 9 }).toBuffer();
    case "gif":
      return pipeline.gif().toBuffer();
  }
}
