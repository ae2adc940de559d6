import sharp from "sharp";

/** JPEG bytes as a lab takes them: a JPEG original as it is (no second compression), anything else upright as JPEG. */
export async function asLabJpeg(bytes: Buffer, contentType: string): Promise<Uint8Array> {
  if (contentType === "image/jpeg") return bytes;
  return sharp(bytes).rotate().jpeg({ quality: 95 }).toBuffer();
}
