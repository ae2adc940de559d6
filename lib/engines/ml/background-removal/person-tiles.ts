import { components, type Matte } from "./matte-ops";
import { distanceToMask, type Box, type PersonRule } from "./person-matte";

/**
 * Small people (issue 38, held-out v21: eight people sitting in grass across a wide frame, where the
 * whole frame's 256 px person mask found the one at the left and the man at the right, at a mean
 * confidence of 0.61, and the rule cleared the six between them as a piece "too large to be a hand"):
 * the person model sees the whole frame stretched to its square, so people a fraction of the frame's
 * height get few of its pixels, and it was trained on people who fill the picture. When much of
 * ISNet's subject that touches the mask lies beyond the band outside it (`rule.tileLook` of it), the
 * model looks again on squares along that subject, each about the subject's height, so each person
 * is seen larger and whole (v21: 2 % of the frame found at 0.61 → 34 % at 0.91).
 *
 * Returns the whole frame's mask with the tiles' probability where it is higher (the tiles blended
 * where they overlap, each trusted less toward its edges inside the frame, where it cuts a person
 * off), or undefined when the trigger does not hold or a tile would see the people no larger.
 * `look` runs the person model on a box given in working pixels (pipeline.ts personMaskIn).
 */
export async function lookInTiles(matte: Matte, mask: Float32Array, look: (box: Box) => Promise<Float32Array>, rule: PersonRule): Promise<Float32Array | undefined> {
  if (rule.tileLook <= 0) return undefined;
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const inside = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (mask[i]! >= rule.threshold) inside[i] = 1;
  const outside = distanceToMask(inside, w, h);
  const band = rule.band * Math.max(w, h);
  // ISNet's regions that reach the mask (within the band): the ones the rule keeps, or clears beyond the band.
  const regions = components(w, h, (i) => d[i]! >= 0.5, true);
  const near = new Uint8Array(regions.sizes.length);
  for (let i = 0; i < n; i++) if (regions.labels[i] && outside[i]! <= band) near[regions.labels[i]!] = 1;
  let size = 0, far = 0;
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let i = 0; i < n; i++) {
    const l = regions.labels[i]!;
    if (!l || !near[l]) continue;
    size++;
    if (outside[i]! > band) far++;
    const x = i % w, y = (i - x) / w;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (!size || far < rule.tileLook * size || far < rule.tileMinArea * n) return undefined;
  const bw = x1 - x0 + 1, bh = y1 - y0 + 1;
  const along = bw >= bh; // tiles in a row across a wide subject, in a column down a tall one
  const long = along ? bw : bh, short = along ? bh : bw;
  // Squares a little larger than the subject's short side; more of them only up to tileMax (then larger).
  let side = Math.round(short * (1 + 2 * TILE_MARGIN));
  const stride = (s: number) => s * (1 - TILE_OVERLAP);
  const count = (s: number) => Math.max(1, Math.ceil((long + 2 * TILE_MARGIN * short - s) / stride(s)) + 1);
  while (count(side) > rule.tileMax) side = Math.ceil(side * 1.1);
  side = Math.min(side, w, h);
  // A square as large as most of the frame shows the people no larger than the whole frame did.
  if (side > TILE_MAX_SIDE * Math.max(w, h)) return undefined;
  const k = count(side);
  const weight = new Float32Array(n), sum = new Float32Array(n);
  const ramp = TILE_RAMP * side;
  const start = (along ? x0 : y0) + long / 2 - ((k - 1) * stride(side) + side) / 2;
  const centre = (along ? y0 : x0) + short / 2 - side / 2;
  const limitAlong = along ? w : h, limitAcross = along ? h : w;
  for (let t = 0; t < k; t++) {
    const a = Math.max(0, Math.min(limitAlong - side, Math.round(start + t * stride(side))));
    const c = Math.max(0, Math.min(limitAcross - side, Math.round(centre)));
    const box = along ? { left: a, top: c, width: side, height: side } : { left: c, top: a, width: side, height: side };
    const p = await look(box);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const fx = box.left + x, fy = box.top + y;
        // Distance to the tile's edges that lie inside the frame: there it cut a person off.
        let edge = Infinity;
        if (box.left > 0) edge = Math.min(edge, x);
        if (box.left + side < w) edge = Math.min(edge, side - 1 - x);
        if (box.top > 0) edge = Math.min(edge, y);
        if (box.top + side < h) edge = Math.min(edge, side - 1 - y);
        const wt = Math.max(0.02, Math.min(1, edge / ramp));
        const i = fy * w + fx;
        weight[i]! += wt;
        sum[i]! += wt * p[y * side + x]!;
      }
    }
  }
  const out = new Float32Array(mask);
  for (let i = 0; i < n; i++) if (weight[i]! > 0) out[i] = Math.max(out[i]!, sum[i]! / weight[i]!);
  return out;
}

/** Each tile reaches this share of the subject's short side beyond it (above and below a row of people). */
const TILE_MARGIN = 0.1;
/** Neighbouring tiles share this much of their side, so every person is whole in one of them. */
const TILE_OVERLAP = 1 / 3;
/** Within this share of its side from an edge inside the frame, a tile's word counts less (it cut a person off there). */
const TILE_RAMP = 0.2;
/** Tiles larger than this share of the frame's long side would show the people no larger than the whole frame. */
const TILE_MAX_SIDE = 0.75;
