import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { analyzeRaster } from "@/lib/engines/imaging/analyze-raster";
import { applyRasterFixes } from "@/lib/engines/imaging/fixes/raster-fixes";
import { ImageHeaderError, readImageHeader } from "@/lib/engines/imaging/image-input";
import { decodeImage } from "@/lib/engines/ml/background-removal/decode-image";
import { ImageInputError } from "@/lib/engines/ml/background-removal/image-input-error";
import { decodeUpright, probeImage } from "@/lib/engines/ml/faces/decode-upright";
import { FaceInputError } from "@/lib/engines/ml/faces/face-input-error";
import { faceFixture, truncated } from "@/test/support/face-fixtures";

// Real files: a photo of the fixtures written by sharp as a GIF, and as a JPEG whose
// pixels are stored sideways with the EXIF tag that turns them upright (as phones do).
const photo = () => faceFixture("obama.jpg");
const gif = () => sharp(photo()).gif().toBuffer();
/** Stored 1200 wide x 600 high, shown 600 x 1200 (orientation 6: turn a quarter clockwise). */
async function sideways(): Promise<Buffer> {
  const upright = await sharp(photo()).resize(600, 1200, { fit: "cover" }).png().toBuffer();
  return sharp(upright).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 85 }).toBuffer();
}

const failure = async (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe("the image header every engine reads", () => {
  it("takes a real rotated JPEG at its upright size", async () => {
    const bytes = await sideways();
    const stored = await sharp(bytes).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([1200, 600, 6]);
    expect(await readImageHeader(bytes, 10_000_000)).toMatchObject({ format: "jpeg", width: 600, height: 1200, orientation: 6 });
  });

  it("refuses a GIF, and so do both engines (background removal used to accept it)", async () => {
    const bytes = await gif();
    expect((await sharp(bytes).metadata()).format).toBe("gif");
    const header = await failure(readImageHeader(bytes, 10_000_000));
    expect(header).toBeInstanceOf(ImageHeaderError);
    expect(header).toMatchObject({ code: "UNREADABLE_IMAGE", message: expect.stringMatching(/GIF images are not supported: send a JPEG, PNG, WebP, TIFF or AVIF image/) });

    const bg = await failure(decodeImage(bytes, 10_000_000));
    expect(bg).toBeInstanceOf(ImageInputError);
    expect((bg as Error).message).toMatch(/GIF/);
    const face = await failure(probeImage(bytes, 10_000_000));
    expect(face).toBeInstanceOf(FaceInputError);
    expect(face).toMatchObject({ code: "UNREADABLE_IMAGE", message: expect.stringMatching(/GIF/) });
  });

  it("names a rotated photo over the limit by its upright size in both engines (background removal used to give the stored size)", async () => {
    const bytes = await sideways();
    const limit = 700_000; // 720,000 pixels either way up
    const bg = await failure(decodeImage(bytes, limit));
    expect(bg).toBeInstanceOf(ImageInputError);
    expect((bg as Error).message).toMatch(/^The image is 600 × 1200 pixels \(0\.7 megapixels\); the largest accepted is 0\.7 megapixels/);
    const face = await failure(probeImage(bytes, limit));
    expect(face).toMatchObject({ code: "IMAGE_TOO_LARGE", message: (bg as Error).message });
  });

  it("decodes a rotated photo upright in both engines", async () => {
    const bytes = await sideways();
    const bg = await decodeImage(bytes, 10_000_000);
    expect([bg.width, bg.height]).toEqual([600, 1200]);
    const face = await decodeUpright(bytes, { maxPixels: 10_000_000, detectLongEdge: 256 });
    expect([face.width, face.height, face.rgbWidth, face.rgbHeight]).toEqual([600, 1200, 128, 256]);
  });

  it("refuses a truncated JPEG with the same decoder settings and words in both engines", async () => {
    const bytes = truncated(photo());
    const bg = await failure(decodeImage(bytes, 10_000_000));
    const face = await failure(decodeUpright(bytes, { maxPixels: 10_000_000, detectLongEdge: 256 }));
    expect(bg).toBeInstanceOf(ImageInputError);
    expect(face).toMatchObject({ code: "UNREADABLE_IMAGE", message: (bg as Error).message });
    expect((bg as Error).message).toMatch(/damaged or incomplete/);
  });

  it("refuses an empty file, a text file and an SVG before decoding", async () => {
    for (const [bytes, message] of [
      [Buffer.alloc(0), /empty/],
      [Buffer.from("hello, this is not an image\n".repeat(20)), /not an image we can read/],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), /SVG/],
    ] as const) {
      const err = await failure(readImageHeader(bytes, 10_000_000));
      expect(err).toMatchObject({ code: "UNREADABLE_IMAGE", message: expect.stringMatching(message) });
    }
  });

  it("reads a JPEG that carries a decoder warning (not an error) everywhere: the check, AI fixes and both engines", async () => {
    // A restart marker where the entropy data expects none: libjpeg warns and decodes on.
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } }).jpeg().toBuffer();
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    const warned = Buffer.from(jpeg);
    warned[sos + 3000] = 0xff;
    warned[sos + 3001] = 0xd3;
    expect(await failure(sharp(warned, { failOn: "warning" }).raw().toBuffer())).toBeInstanceOf(Error);

    const checked = await analyzeRaster(warned, { maxPixels: 10_000_000 });
    expect(checked).toMatchObject({ kind: "ok", widthPx: 640, heightPx: 480 });
    expect(checked.kind === "ok" && checked.decodeError).toBeFalsy();
    const fixed = await applyRasterFixes(warned, { fixTypes: ["sharpen_edges"], targetDpi: 300, format: "jpeg" });
    expect([fixed.width, fixed.height]).toEqual([640, 480]);
    expect((await decodeImage(warned, 10_000_000)).width).toBe(640);
    expect((await decodeUpright(warned, { maxPixels: 10_000_000, detectLongEdge: 256 })).width).toBe(640);
  });
});
