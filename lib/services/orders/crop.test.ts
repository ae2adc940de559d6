import { describe, expect, it } from "vitest";
import { cropPpi, faceStartCrop, largestCrop, moveCrop, zoomCrop, type CropPhoto } from "./crop";

// A 4:3 landscape photo of 4000 × 3000 px (previewed at 1200 × 900), an 8×10 print.
const PHOTO: CropPhoto = { width: 1200, height: 900, original_width: 4000, original_height: 3000 };
const SIZE = { width_in: 8, height_in: 10 };

describe("the cart's crop", () => {
  it("starts as the largest box at the print's aspect, in the photo's orientation, centred", () => {
    const c = largestCrop(PHOTO, SIZE);
    // Landscape 10:8 inside 4:3: full height, width 1.25 / 1.333 = 0.9375.
    expect(c.height).toBe(1);
    expect(c.width).toBeCloseTo(0.9375, 6);
    expect(c.x).toBeCloseTo(0.03125, 6);
    expect((c.width * PHOTO.original_width) / (c.height * PHOTO.original_height)).toBeCloseTo(10 / 8, 6);
    const portrait = largestCrop({ ...PHOTO, width: 900, height: 1200 }, SIZE);
    expect(portrait.width).toBe(1);
    expect((portrait.width * 900) / (portrait.height * 1200)).toBeCloseTo(8 / 10, 6);
  });

  it("moves and zooms inside the photo only, keeping the aspect", () => {
    const largest = largestCrop(PHOTO, SIZE);
    expect(moveCrop(largest, 0.5, 0.5)).toMatchObject({ x: 1 - largest.width, y: 0 });
    expect(moveCrop(largest, -1, 0).x).toBe(0);
    const zoomed = zoomCrop(largest, largest, 0.5);
    expect(zoomed.width / zoomed.height).toBeCloseTo(largest.width / largest.height, 9);
    expect(zoomed.x + zoomed.width / 2).toBeCloseTo(0.5, 9);
    const corner = moveCrop(zoomed, 1, 1);
    expect([corner.x + corner.width, corner.y + corner.height].map((n) => Math.round(n * 1e9) / 1e9)).toEqual([1, 1]);
    // Zooming out from a corner stays inside; never past the largest nor below a quarter of it.
    expect(zoomCrop(corner, largest, 2)).toEqual({ ...largest, x: expect.closeTo(1 - largest.width, 9), y: 0 });
    expect(zoomCrop(corner, largest, 0.01).width).toBeCloseTo(largest.width * 0.25, 9);
  });

  it("computes the print's ppi from the original's pixels inside the box", () => {
    const largest = largestCrop(PHOTO, SIZE);
    // 3000 px over 8 in = 375 ppi; 3750 px over 10 in = 375.
    expect(cropPpi(largest, PHOTO, SIZE)).toBe(375);
    expect(cropPpi(zoomCrop(largest, largest, 0.5), PHOTO, SIZE)).toBe(187);
  });

  it("starts from Face Crop's frame on a photo with a face: its centre and height, the print's aspect, at least 300 ppi", () => {
    // A portrait 3000 x 4000 original (previewed 900 x 1200), the face up and left; the 4:5 frame a third of the height.
    const photo: CropPhoto = { width: 900, height: 1200, original_width: 3000, original_height: 4000 };
    const frame = { x: 0.1, y: 0.05, width: 0.355, height: 0.333 };
    const small = { width_in: 2.5, height_in: 3.5 }; // a wallet: 750 x 1050 px at 300 ppi, less than the frame holds
    const c = faceStartCrop(photo, small, frame);
    expect((c.width * photo.original_width) / (c.height * photo.original_height)).toBeCloseTo(2.5 / 3.5, 6);
    expect(c.height).toBeCloseTo(0.333, 6);
    expect(c.x + c.width / 2).toBeCloseTo(frame.x + frame.width / 2, 6);
    expect(c.y + c.height / 2).toBeCloseTo(frame.y + frame.height / 2, 6);
    // 8 x 10 in: that frame would print at 166 ppi; the box grows about the face to 300 ppi (2400 x 3000 px of the original).
    const big = faceStartCrop(photo, SIZE, frame);
    expect(cropPpi(big, photo, SIZE)).toBeGreaterThanOrEqual(299);
    expect(big.height).toBeCloseTo(0.75, 3);
    expect(big.x).toBe(0); // moved inside the photo: the face is near the left edge
    // No face: the centred default.
    expect(faceStartCrop(photo, SIZE, null)).toEqual(largestCrop(photo, SIZE));
  });
});
