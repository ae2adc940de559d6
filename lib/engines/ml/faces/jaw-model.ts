import fs from "node:fs";
import path from "node:path";
import { humanPaths } from "./human-model";
import type { UprightImage } from "./decode-upright";
import { sampleSquare } from "./sample-square";
import type { Point } from "./types";

/**
 * The chin from a jaw-aware landmark net (issue 37): face-api's `faceLandmark68Net`
 * (@vladmandic/face-api, MIT; dense blocks of depthwise-separable convolutions and a fully
 * connected layer, 68 points of iBUG's 300-W markup, 0.35 MB of uint8-quantised weights).
 * The face mesh stops at the skin's lowest point as it sees it and puts it 0.15-0.2 eye
 * distances off the marked chin; this net was trained on the jaw line as people mark it and
 * halves that (bench/README.md, "Face Crop landmarks").
 *
 * Its forward pass is written here against Human's tfjs (the face worker's one tfjs): face-api's
 * bundle brings a second tfjs, which must not share a thread with Human's. The layers follow
 * face-api's FaceLandmark68Net (denseBlock4 ×4, average pool 7/2, fully connected), checked
 * against face-api's own run in `jaw-model.test.ts`.
 *
 * Files read (by path; listed in lib/engines/workers/engine-files.ts):
 * node_modules/@vladmandic/face-api/model/face_landmark_68_model-weights_manifest.json and .bin
 */
export const JAW_INPUT = 112;
/** The square the net sees, in sides of the mesh's tight box: face-api's own detector boxes are looser than the mesh's. */
export const JAW_CROP = 1.25;
/** The name reported with landmarks from this net (`DetectedFace.landmarkModel`). */
export const JAW_MODEL = "face-api-landmark68" as const;
/** face-api's mean RGB, subtracted before its division by 256. */
const MEAN_RGB = [122.782, 117.001, 104.298] as const;

type T = { dispose(): void; data(): Promise<Float32Array>; shape: number[] };
type Tf = {
  tidy<R>(fn: () => R): R;
  tensor4d(values: Float32Array, shape: [number, number, number, number]): T;
  io: { decodeWeights(buffer: ArrayBuffer, specs: unknown[]): Record<string, T> };
  conv2d(x: T, f: T, strides: [number, number], pad: "same"): T;
  separableConv2d(x: T, d: T, p: T, strides: [number, number], pad: "same"): T;
  add(a: T, b: T): T;
  relu(x: T): T;
  avgPool(x: T, size: [number, number], strides: [number, number], pad: "valid"): T;
  reshape(x: T, shape: number[]): T;
  matMul(a: T, b: T): T;
};

export function jawModelFiles(): { manifest: string; bin: string } {
  const fromRoot = humanPaths().require;
  const dir = path.join(path.dirname(fromRoot.resolve("@vladmandic/face-api/package.json")), "model");
  return { manifest: path.join(dir, "face_landmark_68_model-weights_manifest.json"), bin: path.join(dir, "face_landmark_68_model.bin") };
}

/** `input`: JAW_INPUT² RGB values 0-255, row by row; answers 68 points in 0-1 of the square. */
export type JawModel = { run(input: Float32Array): Promise<Point[]> };

export async function loadJawModel(tfAny: unknown): Promise<JawModel> {
  const tf = tfAny as Tf;
  const files = jawModelFiles();
  const manifest = JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ files.manifest, "utf8")) as { weights: unknown[] }[];
  const bin = fs.readFileSync(/* turbopackIgnore: true */ files.bin);
  const w = tf.io.decodeWeights(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength), manifest.flatMap((m) => m.weights));
  const p = (name: string) => {
    const t = w[name];
    if (!t) throw new Error(`face_landmark_68_model: no weight ${name}`);
    return t;
  };
  const separable = (x: T, name: string, stride: number) => tf.add(tf.separableConv2d(x, p(`${name}/depthwise_filter`), p(`${name}/pointwise_filter`), [stride, stride], "same"), p(`${name}/bias`));
  // face-api's denseBlock4: each convolution adds onto the sum of the ones before it.
  const dense = (x: T, block: string, first: boolean) => {
    const out1 = tf.relu(first ? tf.add(tf.conv2d(x, p(`${block}/conv0/filters`), [2, 2], "same"), p(`${block}/conv0/bias`)) : separable(x, `${block}/conv0`, 2));
    const out2 = separable(out1, `${block}/conv1`, 1);
    const out3 = separable(tf.relu(tf.add(out1, out2)), `${block}/conv2`, 1);
    const out4 = separable(tf.relu(tf.add(out1, tf.add(out2, out3))), `${block}/conv3`, 1);
    return tf.relu(tf.add(out1, tf.add(out2, tf.add(out3, out4))));
  };
  const plane = JAW_INPUT * JAW_INPUT;
  return {
    async run(input) {
      if (input.length !== plane * 3) throw new Error(`The jaw model takes ${JAW_INPUT} × ${JAW_INPUT} RGB.`);
      const norm = new Float32Array(input.length);
      for (let i = 0; i < input.length; i++) norm[i] = (input[i]! - MEAN_RGB[i % 3]!) / 256;
      const y = tf.tidy(() => {
        let out = dense(tf.tensor4d(norm, [1, JAW_INPUT, JAW_INPUT, 3]), "dense0", true);
        out = dense(out, "dense1", false);
        out = dense(out, "dense2", false);
        out = dense(out, "dense3", false);
        out = tf.avgPool(out, [7, 7], [2, 2], "valid");
        return tf.add(tf.matMul(tf.reshape(out, [1, -1]), p("fc/weights")), p("fc/bias"));
      });
      const v = await y.data();
      y.dispose();
      return Array.from({ length: 68 }, (_, i) => ({ x: v[2 * i]!, y: v[2 * i + 1]! }));
    },
  };
}

/**
 * The 68 points the net puts on a face, in source pixels: a first pass on a square of JAW_CROP
 * sides of the mesh's box, then a second on the same share of its own points' box (the frame
 * the net's training crops had, closer than the mesh's box): on 17 public faces of human
 * markup the chin's error along the face's axis went 0.058 → 0.033 of the eye distance, and on
 * the committed subset the eyes' 0.040 → 0.025 (bench/README.md). Each pass ~25 ms.
 */
export async function jawPoints(model: JawModel, img: UprightImage, box: { x: number; y: number; w: number; h: number }): Promise<Point[]> {
  const first = await onSquare(model, img, box);
  const xs = first.map((p) => p.x);
  const ys = first.map((p) => p.y);
  return onSquare(model, img, { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) });
}

/** One pass: the square of JAW_CROP sides of `box` (source pixels), sampled from the detection copy. */
async function onSquare(model: JawModel, img: UprightImage, box: { x: number; y: number; w: number; h: number }): Promise<Point[]> {
  const k = 1 / img.scale; // source → detection pixels
  const side = Math.max(box.w, box.h) * JAW_CROP * k;
  const left = (box.x + box.w / 2) * k - side / 2;
  const top = (box.y + box.h / 2) * k - side / 2;
  const unit = await model.run(sampleSquare(img, left, top, side, JAW_INPUT, 1 / 4));
  return unit.map((q) => ({ x: (left + q.x * side) * img.scale, y: (top + q.y * side) * img.scale }));
}
