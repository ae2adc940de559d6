import { describe, expect, it } from "vitest";
import { CROWN_RULE, HEAD_SQUARE, SELFIE_SIZE, TOP_SQUARE, headCutAtTop, headMatte, topWidth, type HeadMatte, type MatteSquare, type SelfieModel } from "./person-crown";
import type { UprightImage } from "./decode-upright";

// The cut-head decision at the photo's top edge on drawn mattes (no model): a stand-in for the selfie
// model answers each square with a matte drawn in the photo's own pixels, so headCutAtTop runs as in
// Face Crop (the head's square, then the finer square of the head's top) on a known outline. Issue 37,
// crop11: a head whose apex just touches the edge (person in the photo's first row over a few pixels,
// soft beside it) with a broad head right below: the finer matte's level (≥ 0.38) and the hair's chord (≥ 0.3
// of the head's width, read half a pixel down) both said "cut"; the chord's own width in the first row is
// 0.2 D, under CROWN_RULE.topWidth, so it is whole. The same head with the first row crossed over 0.8 D is cut.
const D = 50; // eye line to chin, detection pixels (the sets' portraits: 45-60)
const EYE = { x: 200, y: 60 }; // 1.2 D below the photo's top: both squares reach above it
const img: UprightImage = { width: 400, height: 400, rgb: Buffer.alloc(400 * 400 * 3, 128), rgbWidth: 400, rgbHeight: 400, scale: 1 };
const face = { eyeMid: EYE, chin: { x: EYE.x, y: EYE.y + D } };

/** The person in the photo: a flat-topped head 0.8 D wide from the second row down; in the first row 0.9 over `firstRowHalf` D of the axis, 0.45 (under the threshold) elsewhere within 0.4 D. */
const person = (firstRowHalf: number) => (x: number, y: number, cell: number) => {
  if (y < 0) return 0;
  const o = Math.abs(x - EYE.x) / D;
  if (o > 0.4) return 0;
  if (y < cell) return o <= firstRowHalf ? 0.9 : 0.45;
  return 0.9;
};

/** A stand-in for the selfie model: each run returns `draw` sampled at the cells of the square it was asked for (the squares come in the order headCutAtTop asks for them). */
async function modelFor(draw: (x: number, y: number, cell: number) => number): Promise<{ model: SelfieModel; coarse: HeadMatte }> {
  const zero: SelfieModel = { run: async () => new Float32Array(SELFIE_SIZE * SELFIE_SIZE) };
  const geometry = async (square: MatteSquare) => (await headMatte(zero, img, face, square))!;
  const paint = (g: HeadMatte) => {
    const out = new Float32Array(SELFIE_SIZE * SELFIE_SIZE);
    for (let v = 0; v < SELFIE_SIZE; v++) for (let u = 0; u < SELFIE_SIZE; u++) out[v * SELFIE_SIZE + u] = draw(g.left + (u + 0.5) * g.cell, g.top + (v + 0.5) * g.cell, g.cell);
    return out;
  };
  const squares = [paint(await geometry(HEAD_SQUARE)), paint(await geometry(TOP_SQUARE))];
  let call = 0;
  const model: SelfieModel = { run: async () => squares[call++ % 2]! };
  const coarse = (await headMatte(model, img, face, HEAD_SQUARE))!;
  return { model, coarse };
}

describe("the cut head at the photo's top edge, on drawn mattes", () => {
  it("keeps a head whose apex just touches the edge whole: the person in the first row is narrower than CROWN_RULE.topWidth", async () => {
    const { model, coarse } = await modelFor(person(0.1));
    expect(await headCutAtTop(model, img, face, coarse)).toBe(false);
    // What the finer square read: under half a pixel a cell (the chord's half pixel lies in the second cell row), 0.2 D in the first.
    const look = await modelFor(person(0.1));
    const fine = (await headMatte(look.model, img, face, TOP_SQUARE))!;
    expect(fine.cell).toBeLessThan(0.5);
    expect(topWidth(fine)).toBeLessThan(CROWN_RULE.topWidth);
  });

  it("still cuts the same head when the person crosses the first row over 0.8 D", async () => {
    const { model, coarse } = await modelFor(person(0.4));
    expect(await headCutAtTop(model, img, face, coarse)).toBe(true);
  });
});
