import type { IsnetModel } from "@/lib/engines/ml/background-removal/isnet-model";
import type { UprightImage } from "./decode-upright";
import { CROWN_RULE, type HeadMatte } from "./person-crown";
import { sampleSquare } from "./sample-square";

/**
 * ISNet's look at the head's top (issue 37, crop13): the background-removal engine's salient matte
 * (ISNet, DIS; the any-size graph of scripts/isnet-any-size.ts at `model.size`) on a square of
 * `ISNET_TOP.side` D whose top is the photo's top edge, centred on the eyes (D: eye line to chin, from
 * the head's matte `m`). Read in the matte's first row (the photo's first detection-pixel row):
 * - `w`: the width, in D, of the columns within `chordHalf` D of the eyes where the matte is >= 0.5;
 * - `level`: the matte's mean there over `halfWidth` D either side of the eyes;
 * - `head`: the width, in D, at `headBelow` D under the edge (the head's width there).
 */
export const ISNET_TOP = { side: 2.2 } as const;

export async function isnetTop(model: IsnetModel, img: UprightImage, m: HeadMatte): Promise<{ w: number; level: number; head: number }> {
  const n = model.size;
  const side = ISNET_TOP.side * m.D;
  const left = m.eye.x - side / 2;
  const hwc = sampleSquare(img, left, 0, side, n, 1 / 1020);
  const plane = n * n;
  const chw = new Float32Array(plane * 3);
  for (let j = 0, i = 0; j < plane; j++, i += 3) {
    chw[j] = hwc[i]! - 0.5;
    chw[j + plane] = hwc[i + 1]! - 0.5;
    chw[j + 2 * plane] = hwc[i + 2]! - 0.5;
  }
  const matte = await model.run(chw);
  const cell = side / n;
  const rowAt = (y: number) => Math.min(n - 1, Math.floor(y / cell));
  const widthAt = (v: number, half: number, min = 0.5) => {
    let k = 0;
    for (let u = 0; u < n; u++) if (Math.abs(left + (u + 0.5) * cell - m.eye.x) <= half * m.D && matte[v * n + u]! >= min) k++;
    return (k * cell) / m.D;
  };
  let sum = 0;
  let cols = 0;
  for (let u = 0; u < n; u++) {
    if (Math.abs(left + (u + 0.5) * cell - m.eye.x) > CROWN_RULE.halfWidth * m.D) continue;
    sum += matte[u]!;
    cols++;
  }
  return { w: +widthAt(0, CROWN_RULE.chordHalf).toFixed(3), level: +(cols ? sum / cols : 0).toFixed(3), head: +widthAt(rowAt(CROWN_RULE.headBelow * m.D), CROWN_RULE.headHalf).toFixed(3) };
}
