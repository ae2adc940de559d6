import { KEYPOINT, type Pose } from "./pose-model";

/**
 * Where the pose model says arms and hands are, at the working resolution (person-matte.ts
 * `alongAnArm`, `growAlongArms`): each arm a chain of segments, shoulder → elbow → wrist → the hand's end (the wrist
 * carried on past itself by HAND_REACH of the forearm), with a radius (ARM_RADIUS of the forearm's
 * length, at least MIN_RADIUS of the long side) within which a pixel lies "along the arm".
 */
export type ArmSegment = { x0: number; y0: number; x1: number; y1: number; radius: number };

/** The hand ends about this share of the forearm past the wrist (fingers of an open hand). */
const HAND_REACH = 0.5;
/** An arm's half-width as a share of its forearm (a forearm is ~0.25 of its length wide; the hand and the keypoints' own error need more). */
const ARM_RADIUS = 0.4;
const MIN_RADIUS = 0.02;

/** A person the pose model is at least this sure of gives arms (MoveNet's own demos draw from 0.2). */
export const POSE_PERSON_MIN = 0.2;
/** ...and a keypoint at least this sure is used (v261's back-lit left wrist: 0.23). */
export const POSE_KEYPOINT_MIN = 0.2;

export type ArmOptions = { personMinScore: number; keypointMinScore: number };

/**
 * The arm segments of the people found (poses on the photo letterboxed into the model's square,
 * centred, as pipeline.ts `posesIn` makes it), in working pixels of a w × h frame. A keypoint under
 * `keypointMinScore` is not used; an elbow without its wrist still gives the upper arm.
 */
export function armSegments(poses: Pose[], w: number, h: number, opts: ArmOptions): ArmSegment[] {
  const side = Math.max(w, h);
  const toFrame = fromSquare(w, h);
  const out: ArmSegment[] = [];
  for (const pose of poses) {
    if (pose.score < opts.personMinScore) continue;
    const at = (k: number) => {
      const p = pose.keypoints[k]!;
      return p.score >= opts.keypointMinScore ? toFrame(p) : null;
    };
    for (const [s, e, wr] of [
      [KEYPOINT.leftShoulder, KEYPOINT.leftElbow, KEYPOINT.leftWrist],
      [KEYPOINT.rightShoulder, KEYPOINT.rightElbow, KEYPOINT.rightWrist],
    ] as const) {
      const shoulder = at(s), elbow = at(e), wrist = at(wr);
      const upper = shoulder && elbow ? Math.hypot(elbow.x - shoulder.x, elbow.y - shoulder.y) : 0;
      const fore = elbow && wrist ? Math.hypot(wrist.x - elbow.x, wrist.y - elbow.y) : 0;
      // A forearm is about 0.8 of the upper arm: either gives the arm's scale.
      const scale = fore || 0.8 * upper;
      if (!scale) continue;
      const radius = Math.max(ARM_RADIUS * scale, MIN_RADIUS * side);
      const seg = (a: { x: number; y: number }, b: { x: number; y: number }) => out.push({ x0: a.x, y0: a.y, x1: b.x, y1: b.y, radius });
      if (shoulder && elbow) seg(shoulder, elbow);
      if (elbow && wrist) {
        seg(elbow, wrist);
        seg(wrist, { x: wrist.x + (wrist.x - elbow.x) * HAND_REACH, y: wrist.y + (wrist.y - elbow.y) * HAND_REACH });
      }
    }
  }
  return out;
}

/** Distance from (x, y) to the nearest segment, less its radius (≤ 0: along that arm). */
export function armDistance(segments: ArmSegment[], x: number, y: number): number {
  let best = Infinity;
  for (const s of segments) {
    const vx = s.x1 - s.x0, vy = s.y1 - s.y0;
    const len2 = vx * vx + vy * vy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - s.x0) * vx + (y - s.y0) * vy) / len2)) : 0;
    const d = Math.hypot(x - s.x0 - t * vx, y - s.y0 - t * vy) - s.radius;
    if (d < best) best = d;
  }
  return best;
}


/**
 * A keypoint of a person the pose model found, in working pixels: its COCO index (pose-model.ts KEYPOINT) and score;
 * `who`, which of the people found it belongs to (their order in bodyPoints' input), for person-matte.ts `farBehindPeople`.
 */
export type BodyPoint = { x: number; y: number; part: number; score: number; who?: number };

/**
 * Every keypoint of the people found with at least `personMinScore` (the photo letterboxed into the
 * model's square, as armSegments), in working pixels of a w × h frame: person-matte.ts `clearHeadless`.
 */
export function bodyPoints(poses: Pose[], w: number, h: number, personMinScore: number): BodyPoint[] {
  const toFrame = fromSquare(w, h);
  return poses.filter((p) => p.score >= personMinScore).flatMap((p, who) => p.keypoints.map((k, part) => ({ ...toFrame(k), part, score: k.score, who })));
}

/** A keypoint of the model's square (0-1, the w × h frame letterboxed into it, centred) in working pixels. */
function fromSquare(w: number, h: number): (p: { x: number; y: number }) => { x: number; y: number } {
  const side = Math.max(w, h);
  const dx = (side - w) / 2, dy = (side - h) / 2;
  return (p) => ({ x: p.x * side - dx, y: p.y * side - dy });
}
