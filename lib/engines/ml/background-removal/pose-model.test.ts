import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { loadPoseModel, POSE_MODEL_SIZE, type PoseModel } from "./pose-model";
import { armDistance, armSegments, POSE_KEYPOINT_MIN, POSE_PERSON_MIN } from "./pose-arms";

// The pose model (MoveNet MultiPose) once for the file, on a committed photo of two men each
// waving a raised hand: the person rule's pose cue (person-matte.ts poseArmShare) must find
// both people and put their raised hands along an arm, and nothing along an arm in the sky above.
let model: PoseModel | undefined;
afterAll(() => model?.release());

describe("pose model", () => {
  it("finds two people and their raised arms; the empty backdrop above them is along no arm", async () => {
    model = await loadPoseModel({ threads: 1 });
    const photo = fs.readFileSync(path.join(__dirname, "../../../../test/fixtures/faces/obama_and_biden.jpg"));
    const { width, height } = await sharp(photo).metadata();
    const rgb = await sharp(photo).removeAlpha().resize(POSE_MODEL_SIZE, POSE_MODEL_SIZE, { fit: "contain", background: "#000000" }).raw().toBuffer();
    const poses = await model.run(new Uint8Array(rgb));
    const found = poses.filter((p) => p.score >= POSE_PERSON_MIN);
    expect(found.length).toBe(2);
    const arms = armSegments(found, width!, height!, { personMinScore: POSE_PERSON_MIN, keypointMinScore: POSE_KEYPOINT_MIN });
    // In the photo's pixels (800 × 571): the raised open hands, above the wrists the model finds.
    expect(armDistance(arms, 745, 95)).toBeLessThanOrEqual(0);
    expect(armDistance(arms, 85, 90)).toBeLessThanOrEqual(0);
    // The backdrop beside and between the raised arms, and the flag between the heads.
    for (const [x, y] of [[600, 60], [250, 60], [420, 80], [640, 130]] as const) expect(armDistance(arms, x, y)).toBeGreaterThan(0);
  }, 60_000);
});
