import { components, type Matte } from "./matte-ops";
import { distanceToMask, type PersonRule } from "./person-matte";

/**
 * ISNet's own edge where the person rule did not need to move it (issue 38, people19, rule.isnetEdge).
 *
 * The rule changes ISNet's matte in pieces: a poster cleared, a dark jacket filled, a raised arm added. Each
 * such piece is where the cut-out's side of 0.5 differs from ISNet's. Besides those, the rule's fills leave
 * thin strips along ISNet's outline (the 256 px person model's edge a pixel or two off ISNet's 1024 px one:
 * the sure fill's thin part, its falloff, the band that takes the person model's probability), and the guided
 * upsampling the rule switches on smooths every outline of the photo. On a photo ISNet already cuts well those
 * are all the rule changes, and they cost 0.001-0.010 IoU (bench/README.md, people19).
 *
 * `changedPieces`: the pieces where the rule flipped ISNet's side of 0.5 and that are thicker than
 * `rule.isnetEdge` of the long side at their deepest (a strip along the outline is thinner; at 0, thicker than
 * a pixel); `keepIsnetEdge`: with rule.isnetEdge, farther than `reach` from them the matte goes back to ISNet's
 * (`isnet`, the matte before the rule). Returns the weight (0..1 at the working size) of the rule's changes for
 * the upsampling (`rule.guidedNearChanges`): 1 within `reach` of a kept piece, falling to 0 at twice that.
 */
export function keepIsnetEdge(matte: Matte, isnet: Float32Array, rule: PersonRule, reach: number): Float32Array {
  const { width: w, height: h, data: d } = matte;
  const kept = changedPieces(matte, isnet, rule);
  const near = distanceToMask(kept, w, h);
  const weight = new Float32Array(w * h);
  for (let i = 0; i < d.length; i++) {
    const r = near[i]!;
    if (rule.isnetEdge > 0 && r > reach) d[i] = isnet[i]!;
    weight[i] = r <= reach ? 1 : r >= 2 * reach ? 0 : (2 * reach - r) / reach;
  }
  return weight;
}

/** The rule's flips of ISNet's side of 0.5 (8-connected pieces) thicker than rule.isnetEdge of the long side: 1 there. */
export function changedPieces(matte: Matte, isnet: Float32Array, rule: PersonRule): Uint8Array {
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const flipped = Uint8Array.from(d, (v, i) => ((v >= 0.5) !== (isnet[i]! >= 0.5) ? 1 : 0));
  const pieces = components(w, h, (i) => flipped[i] === 1, true);
  const out = new Uint8Array(n);
  if (pieces.sizes.length < 2) return out;
  // Depth: distance from a flipped pixel to the nearest unflipped one (the frame's edge is no boundary).
  const depth = distanceToMask(Uint8Array.from(flipped, (f) => 1 - f), w, h);
  const deepest = new Float32Array(pieces.sizes.length);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (l && depth[i]! > deepest[l]!) deepest[l] = depth[i]!;
  }
  const thin = Math.max(1, rule.isnetEdge * Math.max(w, h));
  for (let i = 0; i < n; i++) if (deepest[pieces.labels[i]!]! > thin) out[i] = 1;
  return out;
}

/** How far (working pixels) around the rule's kept pieces its matte and the guided upsampling hold: twice the guided filter's radius. */
export function isnetEdgeReach(w: number, h: number): number {
  return 2 * Math.max(2, Math.round(Math.max(w, h) / 256));
}
