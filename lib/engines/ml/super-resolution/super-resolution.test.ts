import { afterAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { shutDownSuperResolution, superResolve2x } from "./super-resolve";
import { faceFixture } from "@/test/support/face-fixtures";

afterAll(() => shutDownSuperResolution());

/** Mean absolute difference of two same-size RGB buffers. */
const mad = (a: Uint8Array, b: Uint8Array) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length;

describe("ESRGAN-slim 2x in its worker thread", () => {
  it("doubles a small crop across tiles and is closer to the real detail than a Lanczos enlargement", async () => {
    // A 200 x 250 reference, shrunk to 100 x 125 and enlarged back two ways.
    const ref = await sharp(faceFixture("obama.jpg")).extract({ left: 220, top: 60, width: 240, height: 300 }).resize(200, 250).removeAlpha().raw().toBuffer();
    const small = await sharp(ref, { raw: { width: 200, height: 250, channels: 3 } }).resize(100, 125, { kernel: "lanczos3" }).raw().toBuffer();
    const t0 = Date.now();
    const sr = await superResolve2x(new Uint8Array(small), 100, 125);
    expect(sr.length).toBe(200 * 250 * 3);
    const lanczos = await sharp(small, { raw: { width: 100, height: 125, channels: 3 } }).resize(200, 250, { kernel: "lanczos3" }).raw().toBuffer();
    const srError = mad(sr, ref);
    const lanczosError = mad(new Uint8Array(lanczos), ref);
    expect(srError).toBeLessThan(lanczosError * 1.05);
    expect(srError).toBeLessThan(12);
    expect(Date.now() - t0).toBeLessThan(60_000);
  }, 90_000);
});
