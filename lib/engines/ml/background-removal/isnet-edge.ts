import { components, maskWhere, type Matte } from "./matte-ops";
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
 * `changedPieces`: where the rule flipped ISNet's side of 0.5 in a part thicker than `rule.isnetEdge` of the long side
 * (at 0, a pixel): a flipped pixel within that reach of one deeper than it inside the flips (a morphological opening,
 * so a strip along an added arm's side goes with the arm), and the thin flips that do not run along what both keep
 * (a thin letter of a poster cleared apart from the person). The thin flips along the kept person's outline are its
 * edge moved by a pixel or two, and go back to ISNet's. `keepIsnetEdge`: with rule.isnetEdge, farther than `reach`
 * from those pieces the matte goes back to ISNet's (`isnet`, the matte before the rule). Returns the weight (0..1 at
 * the working size) of the rule's changes for the upsampling (`rule.guidedNearChanges`): 1 within `reach` of a kept
 * piece, falling to 0 at twice that.
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

/** The rule's own changes to ISNet's matte, 1 there (see keepIsnetEdge). */
export function changedPieces(matte: Matte, isnet: Float32Array, rule: PersonRule): Uint8Array {
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const flipped = maskWhere(d.length, (i) => (d[i]! >= 0.5) !== (isnet[i]! >= 0.5));
  const out = new Uint8Array(n);
  if (!flipped.includes(1)) return out;
  const thin = Math.max(1, rule.isnetEdge * Math.max(w, h));
  // Depth: distance from a flipped pixel to the nearest unflipped one (the frame's edge is no boundary).
  const depth = distanceToMask(maskWhere(flipped.length, (i) => flipped[i] === 0), w, h);
  const nearCore = distanceToMask(maskWhere(depth.length, (i) => depth[i]! > thin), w, h);
  for (let i = 0; i < n; i++) if (flipped[i] && nearCore[i]! <= thin + 1) out[i] = 1;
  // The thin rest, piece by piece: along what both keep (4-neighbours), ISNet's edge; apart from it, the rule's.
  const rest = components(w, h, (i) => flipped[i] === 1 && out[i] === 0, true);
  if (rest.sizes.length < 2) return out;
  const along = new Uint8Array(rest.sizes.length);
  const both = (j: number) => d[j]! >= 0.5 && isnet[j]! >= 0.5;
  for (let i = 0; i < n; i++) {
    const l = rest.labels[i]!;
    if (!l || along[l]) continue;
    const x = i % w;
    if ((x > 0 && both(i - 1)) || (x < w - 1 && both(i + 1)) || (i >= w && both(i - w)) || (i + w < n && both(i + w))) along[l] = 1;
  }
  for (let i = 0; i < n; i++) {
    const l = rest.labels[i]!;
    if (l && !along[l]) out[i] = 1;
  }
  return out;
}

/** How far (working pixels) around the rule's kept pieces its matte and the guided upsampling hold: twice the guided filter's radius. */
export function isnetEdgeReach(w: number, h: number): number {
  return 2 * Math.max(2, Math.round(Math.max(w, h) / 256));
}
