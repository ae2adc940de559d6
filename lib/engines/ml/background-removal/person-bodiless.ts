import { components } from "./matte-ops";
import { armDistance } from "./pose-arms";
import type { Skeleton } from "./person-floating";

/**
 * A large fill with no body in it (issue 38, rule.bodilessFill): a piece the rule's fills made opaque over ISNet's sure
 * background that holds none of the pose model's keypoints and lies apart from every skeleton.
 *
 * Unseen6 v181 (a woman leaning over a counter, shot sideways) shows the case: the 256 px person model calls the big white
 * board below her a person, and the solid fill (ISNet's person above it in those columns) and the sure fill paint a block
 * larger than the woman herself where ISNet is sure of background (ISNet alone 0.945, the rule 0.275). The pose model finds
 * the woman, and every keypoint it gives lies on her, none on the board. A body ISNet missed that the fills rightly add (a
 * dark jacket under a head, a second person's body, a shoulder leaving the frame) carries the keypoints of its shoulders,
 * elbows, hips or knees, or lies along the bones between them.
 *
 * Only large pieces are judged (a hand or a strip along an edge is the other steps' business), and only when the pose model
 * finds someone to measure from: without a skeleton nothing says where the bodies are, and nothing is cleared. The caller
 * (person-matte.ts `clearBodiless`) judges only whole bodies, people with a knee or an ankle found: a portrait cut at the chest
 * has a skeleton of a head and shoulders, and the white shirt ISNet missed below it (seen v99, unseen v32) lies apart from it.
 */

export type BodilessOptions = {
  /** A keypoint within this many pixels of a piece is in it (the model's own error, ISNet's edge). */
  margin: number;
  /** A pixel within this many times a person's scale of their skeleton is near that person. */
  reach: number;
  /** A piece is apart when at most this share of its pixels is near anyone. */
  nearShare: number;
};

/**
 * The pieces (8-connected) of `added` (1: the fills made it opaque where ISNet drew background) with at least `minArea`
 * pixels that are `sure` (ISNet sure of background there): their labels (0 none) and which are large. Null when none is,
 * so the caller need not ask the pose model.
 */
export function largeAdditions(added: Uint8Array, sure: Uint8Array, w: number, h: number, minArea: number): { labels: Int32Array; large: boolean[] } | null {
  const pieces = components(w, h, (i) => added[i] === 1, true);
  const count = new Float64Array(pieces.sizes.length);
  for (let i = 0; i < added.length; i++) if (sure[i]) count[pieces.labels[i]!]! += 1;
  const large = pieces.sizes.map((_, l) => l > 0 && count[l]! >= minArea);
  return large.some(Boolean) ? { labels: pieces.labels, large } : null;
}

/**
 * Of the large pieces, those with no keypoint (`points`, already filtered by score) within `margin` and with at most
 * `nearShare` of their pixels within `reach` × a person's scale of that person's skeleton: a mask per pixel, or null
 * when none is. Needs at least one person with a scale.
 */
export function bodilessPieces(
  pieces: { labels: Int32Array; large: boolean[] },
  points: { x: number; y: number }[],
  people: Skeleton[],
  w: number,
  h: number,
  opts: BodilessOptions,
): Uint8Array | null {
  const judged = people.filter((p) => p.scale > 0);
  if (!judged.length) return null;
  const { labels } = pieces;
  const candidate = pieces.large.slice();
  for (const p of points) {
    for (let y = Math.max(0, Math.round(p.y - opts.margin)); y <= Math.min(h - 1, Math.round(p.y + opts.margin)); y++) {
      for (let x = Math.max(0, Math.round(p.x - opts.margin)); x <= Math.min(w - 1, Math.round(p.x + opts.margin)); x++) candidate[labels[y * w + x]!] = false;
    }
  }
  candidate[0] = false;
  if (!candidate.some(Boolean)) return null;
  const size = new Float64Array(candidate.length), near = new Float64Array(candidate.length);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i]!;
    if (!candidate[l]) continue;
    size[l]! += 1;
    const x = i % w, y = (i - x) / w;
    if (judged.some((p) => armDistance(p.skeleton, x, y) <= opts.reach * p.scale)) near[l]! += 1;
  }
  const bodiless = candidate.map((c, l) => c && near[l]! <= opts.nearShare * size[l]!);
  if (!bodiless.some(Boolean)) return null;
  const out = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) if (bodiless[labels[i]!]) out[i] = 1;
  return out;
}
