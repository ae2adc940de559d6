import { describe, expect, it } from "vitest";
import type { DescribedFace } from "@/lib/engines/ml/faces";
import { matchPhoto } from "./match-photo";
import { MAX_OUTSIDE_SHARE, MAX_YAW_DEGREES, MIN_EYE_DISTANCE_PX, MIN_FACE_SCORE, MIN_SHARPNESS } from "./quality-gates";

// The decision per face, from embeddings made up for the purpose: a face whose
// embedding equals a reference scores 1.0 against it, so only the gates and the
// photo-level rules can keep it from `matched`.
const unit = (i: number) => Float32Array.from({ length: 128 }, (_, k) => (k === i ? 1 : 0));
const refs = [
  { subjectId: "ada", embedding: unit(0) },
  { subjectId: "ben", embedding: unit(1) },
];

type FaceOpts = { eyeGap?: number; touchesEdge?: boolean; x?: number; score?: number; yaw?: number; outsideShare?: number; sharpness?: number };
function face(embedding: Float32Array, opts: FaceOpts = {}): DescribedFace {
  const x = opts.x ?? 400;
  const gap = opts.eyeGap ?? 60;
  return {
    box: { x: x - 60, y: 200, w: 120, h: 150 },
    score: opts.score ?? 0.99,
    roll: 0,
    yaw: opts.yaw ?? 5,
    outsideShare: opts.outsideShare ?? 0,
    sharpness: opts.sharpness ?? 300,
    landmarks: { leftEye: { x: x - gap / 2, y: 250 }, rightEye: { x: x + gap / 2, y: 250 }, eyeMid: { x, y: 250 }, chin: { x, y: 340 }, crown: { x, y: 160 } },
    headHeight: 180,
    touchesEdge: opts.touchesEdge ?? false,
    embedding,
  };
}

describe("matchPhoto: quality gates and review reasons", () => {
  it("matches a clear, whole face with no reason", () => {
    const [p] = matchPhoto([face(unit(0))], refs, 0.85);
    expect(p).toMatchObject({ decision: "matched", subjectId: "ada", reviewReason: null });
  });

  it("sends a face too small to be sure to review, however high its score", () => {
    const [p] = matchPhoto([face(unit(0), { eyeGap: MIN_EYE_DISTANCE_PX - 1 })], refs, 0.85);
    expect(p!.best!.similarity).toBe(1);
    expect(p).toMatchObject({ decision: "needs_review", subjectId: "ada", reviewReason: "small_face" });
  });

  it.each([
    ["blurred", { sharpness: MIN_SHARPNESS - 1 }, "blurred_face"],
    ["turned away to the left", { yaw: -(MAX_YAW_DEGREES + 1) }, "turned_away"],
    ["turned away to the right", { yaw: MAX_YAW_DEGREES + 1 }, "turned_away"],
    ["half hidden (the detector unsure of it)", { score: MIN_FACE_SCORE - 0.01 }, "face_hidden"],
    ["half outside the photo", { outsideShare: MAX_OUTSIDE_SHARE + 0.01 }, "face_hidden"],
  ] as const)("sends a face %s to review with its reason, though its score is 1.0", (_label, opts: FaceOpts, reason) => {
    const [p] = matchPhoto([face(unit(0), opts)], refs, 0.85);
    expect(p!.best!.similarity).toBe(1);
    expect(p).toMatchObject({ decision: "needs_review", subjectId: "ada", reviewReason: reason });
  });

  it("matches a face just inside every gate", () => {
    const [p] = matchPhoto([face(unit(0), { sharpness: MIN_SHARPNESS, yaw: MAX_YAW_DEGREES, score: MIN_FACE_SCORE, outsideShare: MAX_OUTSIDE_SHARE })], refs, 0.85);
    expect(p).toMatchObject({ decision: "matched", reviewReason: null });
  });

  it("matches a whole face whose box touches the photo's edge (a tight headshot)", () => {
    const [p] = matchPhoto([face(unit(1), { touchesEdge: true })], refs, 0.85);
    expect(p).toMatchObject({ decision: "matched", subjectId: "ben", reviewReason: null });
  });

  it("leaves a face of nobody on the roster unmatched, without a reason", () => {
    const [p] = matchPhoto([face(unit(5), { eyeGap: 5 })], refs, 0.85);
    expect(p).toMatchObject({ decision: "unmatched", subjectId: null, reviewReason: null });
  });

  it("one child twice in a photo: the weaker face goes to review, saying so", () => {
    const weaker = Float32Array.from(unit(0), (v, k) => (k === 2 ? 0.1 : v));
    const [a, b] = matchPhoto([face(unit(0), { x: 200 }), face(weaker, { x: 600 })], refs, 0.85);
    expect(a).toMatchObject({ decision: "matched", reviewReason: null });
    expect(b).toMatchObject({ decision: "needs_review", subjectId: "ada", reviewReason: "same_child_twice" });
  });
});
