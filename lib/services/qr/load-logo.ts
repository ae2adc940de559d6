import sharp from "sharp";
import { config } from "@/lib/foundation/config";
import { fetchSource } from "@/lib/domain/sources/fetch-source";
import type { CardLogo } from "./render-cards";
import { DECODE_FAIL_ON } from "@/lib/engines/imaging/image-input";

/** Printed at most ~1 inch wide on a single card: 600 px is 600 ppi there, and keeps the PDF small. */
const LOGO_MAX_EDGE = 600;

export class LogoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LogoError";
  }
}

/**
 * Fetches the caller's logo (safe fetcher, or straight from storage for our
 * own signed URLs) and proves it is an image by decoding it with sharp, then
 * re-encodes it as a PNG no larger than needed. Anything that fails here is the
 * logo's fault and is reported as a LogoError with a message for people.
 */
export async function loadLogo(url: string): Promise<CardLogo> {
  let bytes: Buffer;
  try {
    bytes = (await fetchSource(url, { maxBytes: config().MAX_IMAGE_BYTES })).bytes;
  } catch (err) {
    throw new LogoError(`The logo could not be fetched: ${(err as Error).message}`);
  }
  try {
    const { data, info } = await sharp(bytes, { failOn: DECODE_FAIL_ON })
      .rotate()
      .resize(LOGO_MAX_EDGE, LOGO_MAX_EDGE, { fit: "inside", withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch {
    throw new LogoError("The logo is not a readable image (JPEG, PNG, WebP, TIFF, GIF or SVG): it could not be decoded.");
  }
}
