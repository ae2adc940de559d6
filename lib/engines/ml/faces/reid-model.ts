import path from "node:path";
import * as ort from "onnxruntime-node";
import type { Point } from "./types";

/**
 * Intel Open Model Zoo's `face-reidentification-retail-0095` (Apache-2.0; MobileNetV2 with
 * squeeze-excitation and PReLU, 1.1 M parameters, LFW 99.47% by Intel), converted once from
 * its OpenVINO IR FP16 to ONNX by scripts/convert-face-reid.ts and committed beside this file
 * (models/, with the licence, NOTICE and provenance). Runs on onnxruntime-node in the face
 * worker thread.
 *
 * Input N × 3 × 128 × 128, BGR, 0-255 (the IR folded its scale and channel swap into the
 * net); output N × 256 × 1 × 1, compared by cosine.
 */
export const REID_INPUT = 128;

/**
 * The model README's alignment template (normalised to [0, 1]: left eye, right eye, nose
 * tip, left and right mouth corner, "left" being the image's left), in chip pixels.
 */
const TEMPLATE_01: readonly (readonly [number, number])[] = [
  [0.31556875, 0.4615741071428571],
  [0.6826229166666667, 0.4615741071428571],
  [0.5002624999999999, 0.6405053571428571],
  [0.349471875, 0.8246919642857142],
  [0.6534364583333333, 0.8246919642857142],
];
export const REID_TEMPLATE: readonly Point[] = TEMPLATE_01.map(([x, y]) => ({ x: x * REID_INPUT, y: y * REID_INPUT }));

/** Where the model file is: resolved from the project root (the worker runs from tsx, the worker bundle or the standalone build). */
export function reidModelPath(): string {
  return path.join(/* turbopackIgnore: true */ process.cwd(), "lib/engines/ml/faces/models/face-reidentification-retail-0095.onnx");
}

export type ReidNet = {
  /** Embeds aligned 128 × 128 RGB chips (bytes 0-255, row-major, as extractChip cuts them); one raw 256-d vector each. */
  embed(chips: Uint8Array[]): Promise<Float32Array[]>;
};

export async function loadReidNet(file = reidModelPath()): Promise<ReidNet> {
  // One thread: the face worker is one of several engines sharing the machine's cores, and a
  // 128 px MobileNet gains little from more (a face and its mirror take ~30 ms on one).
  const session = await ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all" });
  const plane = REID_INPUT * REID_INPUT;
  return {
    async embed(chips) {
      if (chips.length === 0) return [];
      const n = chips.length;
      const input = new Float32Array(n * 3 * plane);
      chips.forEach((c, i) => {
        if (c.length !== plane * 3) throw new Error(`face chip ${i} has ${c.length} values, expected ${plane * 3}`);
        const o = i * 3 * plane;
        // RGB interleaved → BGR planes, 0-255 as the model takes them.
        for (let p = 0; p < plane; p++) {
          input[o + p] = c[p * 3 + 2]!;
          input[o + plane + p] = c[p * 3 + 1]!;
          input[o + 2 * plane + p] = c[p * 3]!;
        }
      });
      const out = await session.run({ input: new ort.Tensor("float32", input, [n, 3, REID_INPUT, REID_INPUT]) });
      const flat = out.embedding!.data as Float32Array;
      const dim = flat.length / n;
      return Array.from({ length: n }, (_, i) => flat.slice(i * dim, (i + 1) * dim));
    },
  };
}
