import { armDistance, type ArmSegment } from "./pose-arms";

/**
 * Something floating above the people (issue 38, rule.floatingClear): a kept ISNet region of its own, above every person.
 *
 * The rule is that what does not touch a person and is not a person (a poster, a statue, a sign) is removed. Fresh
 * v245 (two young men walking) shows a case no step caught: a white traffic sign with an arrow, high above the men and
 * apart from them, which ISNet takes for part of the subject. The 256 px person model covers it (0.65 on the whole frame),
 * and its second look on the sign's own square is 0.86 sure of a person (a white shape with a pointed top on a pole): the
 * mask and the second look both keep it, and it is too small for `headless` (under a person's size). What it lacks is a
 * body: the pose model finds none of its keypoints on it, and it hangs in the air above the people, far from every skeleton.
 *
 * The cue is geometric first, so the pose model runs only when a region asks for it: a kept region (not the person's own)
 * whose lowest pixel lies above the top of every kept region of a person's size, and that does not touch the frame's edge
 * (a person cut by the frame is judged by nothing here). Then it is cleared when it holds no keypoint of the people the
 * pose model finds and lies farther than `reach` times each person's scale from their skeleton: a raised hand ISNet cut off
 * its arm lies above the head too, but at the wrist's keypoint. A small person far behind, whose body stands lower in the
 * frame than the subjects' heads (fresh v248's woman in white between two groups, whom the pose model does not see), is
 * never a candidate; nor is a child on the shoulders, joined to the holder or holding keypoints.
 */

/** A person of the pose model's, as person-matte.ts `farBehindPeople` makes them: their skeleton and scale (pixels). */
export type Skeleton = { skeleton: ArmSegment[]; scale: number };

/**
 * Per region label: kept, not `best`, at least `minArea` pixels, not touching the frame's edge, and wholly above the top of
 * every other kept region of at least `personArea` pixels (there must be one).
 */
export function floatingRegions(
  labels: Int32Array,
  sizes: number[],
  touchesBorder: boolean[],
  keep: boolean[],
  best: number,
  w: number,
  minArea: number,
  personArea: number,
): boolean[] {
  const count = sizes.length;
  const top = new Int32Array(count).fill(labels.length), low = new Int32Array(count).fill(-1);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i]!;
    if (!l || !keep[l]) continue;
    const y = Math.floor(i / w);
    if (y < top[l]!) top[l] = y;
    if (y > low[l]!) low[l] = y;
  }
  const people = sizes.flatMap((s, l) => (l > 0 && keep[l] && (l === best || s >= personArea) ? [l] : []));
  return sizes.map((s, l) => {
    if (l === 0 || l === best || !keep[l] || s < minArea || touchesBorder[l] || s >= personArea) return false;
    const others = people.filter((p) => p !== l);
    return others.length > 0 && others.every((p) => low[l]! < top[p]!);
  });
}

/**
 * Of the `candidates`, those with no keypoint (`points`, already filtered by score) within `margin` pixels and farther than
 * `reach` × each person's scale from their skeleton (every pixel of the region). Needs at least one person with a scale:
 * without anyone found, nothing says where the hands are, and nothing is cleared.
 */
export function apartFromPeople(
  labels: Int32Array,
  candidates: boolean[],
  points: { x: number; y: number }[],
  people: Skeleton[],
  w: number,
  h: number,
  margin: number,
  reach: number,
): boolean[] {
  const judged = people.filter((p) => p.scale > 0);
  const apart = candidates.map((c) => c && judged.length > 0);
  if (!apart.some(Boolean)) return apart;
  for (const p of points) {
    for (let y = Math.max(0, Math.round(p.y - margin)); y <= Math.min(h - 1, Math.round(p.y + margin)); y++) {
      for (let x = Math.max(0, Math.round(p.x - margin)); x <= Math.min(w - 1, Math.round(p.x + margin)); x++) apart[labels[y * w + x]!] = false;
    }
  }
  apart[0] = false;
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i]!;
    if (!apart[l]) continue;
    const x = i % w, y = (i - x) / w;
    if (judged.some((p) => armDistance(p.skeleton, x, y) <= reach * p.scale)) apart[l] = false;
  }
  return apart;
}
