import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { faceFixture } from "@/test/support/face-fixtures";
import { cropFace } from "./crop-face";

afterAll(() => shutDownFaces());

describe("a photo with a decoder warning", () => {
  it("is cropped, as the face engine read it (the crop used to decode more strictly than detection)", async () => {
    const jpeg = faceFixture("obama.jpg");
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    // A restart marker where the entropy data expects none: libjpeg warns and decodes on.
    const warned = Buffer.from(jpeg);
    const at = sos + Math.floor((jpeg.length - sos) * 0.5);
    warned[at] = 0xff;
    warned[at + 1] = 0xd3;
    const strict = await sharp(warned, { failOn: "warning" }).raw().toBuffer().then(() => null, (e: unknown) => e);
    expect(strict).toBeInstanceOf(Error);

    const { rendered } = await cropFace(warned, "school", false);
    const meta = await sharp(rendered.original).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.width! / meta.height!).toBeCloseTo(4 / 5, 2);
  });
});
