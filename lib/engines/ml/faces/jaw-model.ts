import path from "node:path";
import * as ort from "onnxruntime-node";
import type { UprightImage } from "./decode-upright";
import { sampleSquare } from "./sample-square";
import type { Box, Point } from "./types";

/**
 * The chin from a jaw-aware landmark net (issue 37): face-api's `faceLandmark68Net`
 * (@vladmandic/face-api, MIT; dense blocks of depthwise-separable convolutions and a fully
 * connected layer, 68 points of iBUG's 300-W markup, 0.35 MB of uint8-quantised weights).
 * The face mesh stops at the skin's lowest point as it sees it and puts it 0.15-0.2 eye
 * distances off the marked chin; this net was trained on the jaw line as people mark it and
 * halves that (bench/README.md, "Face Crop landmarks").
 *
 * It runs as ONNX on onnxruntime-node in the face worker (which already holds onnxruntime for
 * the recognition net): scripts/convert-jaw-model.ts wrote face-api's layers and weights, as
 * shipped, into models/face-landmark-68.onnx (provenance beside it). The same net written on
 * Human's tfjs wasm took 28 ms a pass, this 3.6 ms (same chip, same thread, load 7); its points
 * match face-api's own run within 1.6e-4 of the square (`jaw-model.test.ts`).
 *
 * File read (by path; lib/engines/ml/faces/models/* is listed in lib/engines/workers/engine-files.ts):
 * lib/engines/ml/faces/models/face-landmark-68.onnx
 */
export const JAW_INPUT = 112;
/** The square the net sees, in sides of the box its points take (jawSquareFromMesh): the margin its training crops had. */
export const JAW_CROP = 1.25;
/** The name reported with landmarks from this net (`DetectedFace.landmarkModel`). */
export const JAW_MODEL = "face-api-landmark68" as const;

/** Where the model file is: resolved from the project root (tsx, the worker bundle or the standalone build). */
export function jawModelPath(): string {
  return path.join(/* turbopackIgnore: true */ process.cwd(), "lib/engines/ml/faces/models/face-landmark-68.onnx");
}

/**
 * `input`: JAW_INPUT² RGB values 0-255, row by row; answers 68 points in 0-1 of the square.
 * `mirrored`: the chip and its mirror image in one call, the mirror's points flipped back
 * (left and right swapped) and averaged in.
 */
export type JawModel = { run(input: Float32Array, opts?: { mirrored?: boolean }): Promise<Point[]> };

/** iBUG 68's mirror image: each point's counterpart on the other side of the face (0-based). */
const MIRROR_68 = (() => {
  const pairs: [number, number][] = [[36, 45], [37, 44], [38, 43], [39, 42], [40, 47], [41, 46], [31, 35], [32, 34], [48, 54], [49, 53], [50, 52], [55, 59], [56, 58], [60, 64], [61, 63], [65, 67]];
  for (let i = 0; i < 8; i++) pairs.push([i, 16 - i]);
  for (let i = 0; i < 5; i++) pairs.push([17 + i, 26 - i]);
  const map = Array.from({ length: 68 }, (_, i) => i);
  for (const [a, b] of pairs) [map[a], map[b]] = [b, a];
  return map;
})();

export async function loadJawModel(file = jawModelPath()): Promise<JawModel> {
  // One thread, as the recognition net: the face worker shares the machine's cores with other engines.
  const session = await ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all" });
  const size = JAW_INPUT * JAW_INPUT * 3;
  return {
    async run(input, opts = {}) {
      if (input.length !== size) throw new Error(`The jaw model takes ${JAW_INPUT} × ${JAW_INPUT} RGB.`);
      // The chip and its mirror image as two calls of one chip: the same CPU as one call of two
      // (2.8 ms together, in one thread), without building a batch of both.
      const once = async (chip: Float32Array) => (await session.run({ input: new ort.Tensor("float32", chip, [1, JAW_INPUT, JAW_INPUT, 3]) })).points!.data as Float32Array;
      const v = await once(input);
      if (!opts.mirrored) return Array.from({ length: 68 }, (_, i) => ({ x: v[2 * i]!, y: v[2 * i + 1]! }));
      const mirror = new Float32Array(size);
      const row = JAW_INPUT * 3;
      for (let y = 0; y < JAW_INPUT; y++) {
        for (let x = 0; x < JAW_INPUT; x++) {
          const from = y * row + x * 3;
          const to = y * row + (JAW_INPUT - 1 - x) * 3;
          mirror[to] = input[from]!;
          mirror[to + 1] = input[from + 1]!;
          mirror[to + 2] = input[from + 2]!;
        }
      }
      const w = await once(mirror);
      return Array.from({ length: 68 }, (_, i) => {
        const j = 2 * MIRROR_68[i]!;
        return { x: (v[2 * i]! + 1 - w[j]!) / 2, y: (v[2 * i + 1]! + w[j + 1]!) / 2 };
      });
    },
  };
}

/**
 * The 68 points the net puts on a face, in source pixels: one pass on a square of JAW_CROP sides
 * of the box its own points take (the frame its training crops had), placed from the mesh's box
 * by JAW_SQUARE_FROM_MESH, that chip and its mirror image averaged (one call of two chips). On
 * 144 HELEN training faces (the tuning split; bench/README.md) a pass on the mesh's box gave eye
 * 0.051 and chin 0.084 of the eye distance, a second pass on the first's points 0.046 and 0.080,
 * mirrored 0.039 and 0.075, and this one mirrored pass 0.038 and 0.075 (p90 0.061 and 0.165
 * against 0.060 and 0.149) for one call fewer: ~5 ms of CPU on onnxruntime.
 */
export async function jawPoints(model: JawModel, img: UprightImage, box: Box): Promise<Point[]> {
  const square = jawSquareFromMesh(box);
  return correctJawPoints(await jawPass(model, img, square, { mirrored: true }), Math.max(square.w, square.h) * JAW_CROP);
}

/**
 * The net's systematic errors on the square it is given, measured against human markup and
 * corrected (issue 37). Fitted on every HELEN training face of 300-W (868 of 870 found; HELEN test
 * and AFW held out; scripts/evaluate-jaw-passes.ts prints the offsets, scripts/evaluate-jaw-chin.ts
 * fits them), in the face's own frame (along the net's eye line, and down across it), so a
 * rolled head gets the correction turned with it:
 * - `chin.along`, `chin.down`: the net's chin sits up and to the image-left of the marked one by about
 *   a pixel of its 112 px input (median, marked minus net, input pixels) on every kind of face: a
 *   convention of its training crops (the same in the mirror image, so the mirrored mean cancels none).
 * - `chinTurn`: on a turned face the net keeps the chin too close to the middle of the face (a pull
 *   to its mean shape): the marked chin lies further towards the turn, in proportion to how far the
 *   nose tip (point 31) sits beside the eyes' mid-point along the eye line (in eye distances); the
 *   chin moves along the eye line by `chinTurn` times that offset.
 * - `chinLength`, `chinPitch`: the same pull on the face's length. Where the net puts the chin far below
 *   the eye line (in eye distances; `lengthAt` is the tuning faces' median) the marked one is further
 *   still, and where the nose tip hangs low under the eye line (a face tipped forward or seen from
 *   above: `pitchAt` the median) the chin is less low than the net's. Each clamped to the tuning
 *   faces' 1-99 % range (`lengthRange`, `pitchRange`) so a misread face is not moved further.
 *   Chin error on the 868 faces 0.0607 → 0.0572 of the eye distance (two-fold: 0.0577); by turn alone
 *   0.061, with neither term 0.068.
 * - `eyes`: not corrected. The net's eyes, blended with the mesh's, sit 0.4 input pixels image-left
 *   and 0.6 up of the 68 scheme's eye centres (the mean of each eye's six contour points): shifted so,
 *   they score 0.023 against 0.031 on that markup (0.029 for the sideways part alone). But the height
 *   is the two definitions' gap, not the net's error: the contour mean lies ~0.02 eye distances below
 *   the pupil, and a preset's eye line runs through the pupils (types.ts `FaceLandmarks.leftEye`).
 */
export const JAW_BIAS = {
  eyes: { dx: 0, dy: 0 },
  chin: { along: 0.74, down: 0.7 },
  chinTurn: 0.26,
  chinLength: 0.1,
  lengthAt: 1.8,
  lengthRange: [1.4, 2.3],
  chinPitch: -0.1,
  pitchAt: 0.6,
  pitchRange: [0.25, 0.85],
} as const;

const clamp = (v: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, v));

/** `pts` of one pass (source pixels) on a square of `side` source pixels, with JAW_BIAS taken out: eyes (36-47) and chin (8) only. */
export function correctJawPoints(pts: Point[], side: number): Point[] {
  const px = side / JAW_INPUT;
  const out = pts.map((p, i) => (i >= 36 && i < 48 ? { x: p.x + JAW_BIAS.eyes.dx * px, y: p.y + JAW_BIAS.eyes.dy * px } : p));
  const mean = (from: number): Point => ({ x: pts.slice(from, from + 6).reduce((s, p) => s + p.x, 0) / 6, y: pts.slice(from, from + 6).reduce((s, p) => s + p.y, 0) / 6 });
  const [l, r] = [mean(36), mean(42)];
  const iod = Math.hypot(r.x - l.x, r.y - l.y);
  if (!(iod > 0)) return out;
  // The face's frame: u along the eye line (image-left eye to image-right eye), v down across it.
  const u = { x: (r.x - l.x) / iod, y: (r.y - l.y) / iod };
  const v = { x: -u.y, y: u.x };
  const mid = { x: (l.x + r.x) / 2, y: (l.y + r.y) / 2 };
  // The nose tip's offset from the eyes' mid-point (along and down) and the chin's depth below the eye line, in eye distances.
  const turn = ((pts[30]!.x - mid.x) * u.x + (pts[30]!.y - mid.y) * u.y) / iod;
  const pitch = clamp(((pts[30]!.x - mid.x) * v.x + (pts[30]!.y - mid.y) * v.y) / iod, JAW_BIAS.pitchRange);
  const length = clamp(((pts[8]!.x - mid.x) * v.x + (pts[8]!.y - mid.y) * v.y) / iod, JAW_BIAS.lengthRange);
  const along = JAW_BIAS.chin.along * px + JAW_BIAS.chinTurn * turn * iod;
  const down = JAW_BIAS.chin.down * px + (JAW_BIAS.chinLength * (length - JAW_BIAS.lengthAt) + JAW_BIAS.chinPitch * (pitch - JAW_BIAS.pitchAt)) * iod;
  out[8] = { x: pts[8]!.x + along * u.x + down * v.x, y: pts[8]!.y + along * u.y + down * v.y };
  return out;
}

/**
 * Each eye is a blend of the net's and the face mesh's contour centre (both as the 68 scheme
 * defines an eye's centre); the mesh's share grows with the face's size in pixels (issue 37). The
 * mesh's eyes fall apart on small faces where the net's hold: on the tuning split (every sixth HELEN
 * training face, each photo also downscaled to eye distances of 48, 32, 22, 16 and 12 detection
 * pixels; scripts/evaluate-jaw-scale.ts) at an eye distance under 18 px the mesh's contour centres
 * scored 0.073 of the eye distance, the net's 0.038, half of each 0.052; at full size 0.031, 0.036
 * and 0.029. The share: `top` × q / `fullAt`, at most `top`, where q is the detection pixels per
 * pixel of the net's input (jawInputScale; about 4 on HELEN's large faces, 0.4 at 16 px between the
 * eyes). Chosen by a grid over 754 such faces (median eye error: half the mesh everywhere 0.037,
 * the net alone 0.035, this 0.033).
 */
export const MESH_EYE_SHARE = { top: 0.4, fullAt: 1.6 } as const;

/** The mesh's share in each eye (MESH_EYE_SHARE) for a face whose net input has `q` detection pixels a pixel. */
export function meshEyeShare(q: number): number {
  return MESH_EYE_SHARE.top * Math.min(1, Math.max(0, q / MESH_EYE_SHARE.fullAt));
}

/** Detection pixels per pixel of the net's input on the square jawPoints samples for a face of mesh box `box`. */
export function jawInputScale(img: Pick<UprightImage, "scale">, box: Box): number {
  const square = jawSquareFromMesh(box);
  return (Math.max(square.w, square.h) * JAW_CROP) / img.scale / JAW_INPUT;
}

/** The eyes Face Crop uses: the net's 68-scheme eye centres (`pts`, jawPoints) blended with the mesh's (`contour`) by meshEyeShare. */
export function blendEyes(pts: Point[], contour: [Point, Point] | undefined, q: number): [Point, Point] {
  const mean = (from: number): Point => ({ x: pts.slice(from, from + 6).reduce((s, p) => s + p.x, 0) / 6, y: pts.slice(from, from + 6).reduce((s, p) => s + p.y, 0) / 6 });
  const net: [Point, Point] = [mean(36), mean(42)];
  if (!contour) return net;
  const w = meshEyeShare(q);
  return [0, 1].map((i) => ({ x: (1 - w) * net[i]!.x + w * contour[i]!.x, y: (1 - w) * net[i]!.y + w * contour[i]!.y })) as [Point, Point];
}

/**
 * Where the net's own points' box lies against the mesh's box (centre shift and side, in the
 * mesh box's sides; the mesh's box reaches up to the hairline, the 68 points stop at the brows):
 * medians over the tuning split's 144 faces (scripts/evaluate-jaw-passes.ts prints them).
 */
export const JAW_SQUARE_FROM_MESH = { dx: 0, dy: 0.076, side: 0.912 };

/** The box the net's first pass would put its points in, from the mesh's box alone. */
export function jawSquareFromMesh(box: Box): Box {
  const s = Math.max(box.w, box.h);
  const side = s * JAW_SQUARE_FROM_MESH.side;
  const cx = box.x + box.w / 2 + JAW_SQUARE_FROM_MESH.dx * s;
  const cy = box.y + box.h / 2 + JAW_SQUARE_FROM_MESH.dy * s;
  return { x: cx - side / 2, y: cy - side / 2, w: side, h: side };
}

/** One pass: the square of JAW_CROP sides of `box` (source pixels), sampled from the detection copy. */
export async function jawPass(model: JawModel, img: UprightImage, box: Box, opts: { mirrored?: boolean } = {}): Promise<Point[]> {
  const k = 1 / img.scale; // source → detection pixels
  const side = Math.max(box.w, box.h) * JAW_CROP * k;
  const left = (box.x + box.w / 2) * k - side / 2;
  const top = (box.y + box.h / 2) * k - side / 2;
  const unit = await model.run(sampleSquare(img, left, top, side, JAW_INPUT, 1 / 4), opts);
  return unit.map((q) => ({ x: (left + q.x * side) * img.scale, y: (top + q.y * side) * img.scale }));
}
