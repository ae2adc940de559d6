import { chamfer34, components, maskWhere, type Matte } from "./matte-ops";
import { backgroundLike, nearbyColours } from "./person-colours";
import { armDistance, type ArmSegment } from "./pose-arms";

/**
 * The space between people (issue 38, rule.betweenColour): what the rule's fills raised over ISNet's sure background
 * between two kept people goes back to ISNet's matte when it has the background's colours and ISNet drew it sharply.
 *
 * The 256 px person model draws people standing close as one blob over the space between them, and the fills (the solid
 * fill, with a person on both sides of it; the sure fill; the band) paint that space: fresh v248's pavement between the
 * legs of a couple arm in arm and between a group's walkers. clearGaps gives such a gap back only under a thin bridge
 * (joined hands) and when the people enclose it; a gap open at the top or the bottom is left filled. Here the cue is the
 * piece's place and ISNet's own certainty instead:
 * - it lies within `reach` of at least two different people: ISNet's sure person (≥ 0.95) in its kept regions of a
 *   person's size, each part of it of a person's size one person; and, for a piece by one such part only (people who touch
 *   are one region: arm in arm, heads together), the pose model's people, two skeletons within reach;
 * - its colours are the background's near it rather than the people's (as clearGaps's, per pixel colour bin; the
 *   background here is ISNet's sure background the cut-out leaves out near the piece, the people ISNet's sure kept person);
 * - ISNet drew it as sharp background: few of the pixels of the piece and of its rim are ones ISNet was unsure of
 *   (0.05..0.95). A body ISNet faded out (a person behind, a dark jacket) is mostly unsure there.
 * A limb or a body ISNet missed between two people is in a person's colours; one person's own dark jacket between their
 * arms lies by one person only.
 */

/** The piece's sure-background pixels must number at least this share of the frame (a quarter of clearGaps's floor). */
const BETWEEN_MIN_AREA = 0.0005;
/** The rim around a piece, over which ISNet's certainty is counted with the piece's own pixels (share of the long side). */
const BETWEEN_RIM = 0.01;

export type BetweenOptions = {
  /** Colour factor: a pixel's bin holds at least this many times the background's share as the people's (rule.betweenColour). */
  colour: number;
  /** ...over at least this share of the piece's sure-background pixels (rule.betweenLike). */
  like: number;
  /** At most this share of the piece and its rim is ISNet-unsure (rule.betweenUnsure). */
  unsure: number;
  /** Within this share of the long side of at least two people (rule.betweenReach). */
  reach: number;
  /** Colours counted within this share of the long side of the pieces (person-matte.ts GAP_NEAR). */
  near: number;
  /** A part of ISNet's sure person of at least this many pixels is a person (rule.personMinArea of the frame). */
  personArea: number;
};

/**
 * The pieces to give back to ISNet (1 where taken back), or null when there is none. `matte`: the cut-out after the fills;
 * `isnet`: ISNet's matte before the rule; `keptPeople`: 1 on ISNet's kept regions of a person's
 * size; `skeletons`: the pose model's people (each a skeleton, in pixels), asked for only when a piece passes every other
 * test but lies by one ISNet person region only (people who touch are one region); absent, such a piece stays.
 */
export async function clearBetween(
  matte: Matte,
  isnet: Float32Array,
  rgb: Uint8Array,
  keptPeople: Uint8Array,
  o: BetweenOptions,
  skeletons?: () => Promise<ArmSegment[][]>,
): Promise<Uint8Array | null> {
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const long = Math.max(w, h);
  // What the fills added where ISNet drew background (8-connected), and how much of it is ISNet's sure background.
  const pieces = components(w, h, (i) => d[i]! >= 0.5 && isnet[i]! < 0.5, true);
  const count = pieces.sizes.length;
  const sure = new Float64Array(count);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (l && isnet[i]! < 0.05) sure[l]! += 1;
  }
  let candidate = pieces.sizes.map((_, l) => l > 0 && sure[l]! >= BETWEEN_MIN_AREA * n);
  if (!candidate.some(Boolean)) return null;

  // Drawn sharply: ISNet's unsure pixels over the piece and its rim (each rim pixel counted for the piece nearest it).
  const owner = new Int32Array(n);
  for (let i = 0; i < n; i++) if (candidate[pieces.labels[i]!]) owner[i] = pieces.labels[i]!;
  const rim = Math.max(2, Math.round(BETWEEN_RIM * long));
  let front: number[] = [];
  for (let i = 0; i < n; i++) if (owner[i]) front.push(i);
  for (let step = 0; step < rim && front.length; step++) {
    const next: number[] = [];
    for (const i of front) {
      const x = i % w, y = (i - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const j = ny * w + nx;
          if (owner[j]) continue;
          owner[j] = owner[i]!;
          next.push(j);
        }
      }
    }
    front = next;
  }
  const total = new Float64Array(count), unsure = new Float64Array(count);
  for (let i = 0; i < n; i++) {
    const l = owner[i]!;
    if (!l) continue;
    total[l]! += 1;
    if (isnet[i]! >= 0.05 && isnet[i]! <= 0.95) unsure[l]! += 1;
  }
  candidate = candidate.map((c, l) => c && unsure[l]! <= o.unsure * total[l]!);
  if (!candidate.some(Boolean)) return null;

  // In the background's colours: the kept people near the pieces against the background the cut-out leaves out near them.
  const big = 1e9;
  const near = new Float32Array(n);
  for (let i = 0; i < n; i++) near[i] = candidate[pieces.labels[i]!] ? 0 : big;
  chamfer34(near, w, h, big);
  const colours = nearbyColours(rgb, near, o.near * long, (i) => isnet[i]! >= 0.9 && d[i]! >= 0.5, (i) => isnet[i]! < 0.05 && d[i]! < 0.5);
  if (!colours) return null;
  const likeBg = backgroundLike(pieces, (i, l) => candidate[l]! && isnet[i]! < 0.05, rgb, colours, o.colour);
  candidate = candidate.map((c, l) => c && likeBg[l]! >= o.like * sure[l]!);
  if (!candidate.some(Boolean)) return null;

  // Between people: within reach of at least two different people. First ISNet's: its sure person (≥ 0.95) within the
  // kept regions of a person's size, each part of it of a person's size one person.
  const reach = o.reach * long;
  const sureParts = components(w, h, (i) => keptPeople[i] === 1 && isnet[i]! >= 0.95, true);
  const people = sureParts.sizes.flatMap((s, l) => (l > 0 && s >= o.personArea ? [l] : []));
  const nearPeople = new Int32Array(count), last = new Int32Array(count).fill(-1);
  for (const p of people) {
    const dist = new Float32Array(n);
    for (let i = 0; i < n; i++) dist[i] = sureParts.labels[i] === p ? 0 : big;
    chamfer34(dist, w, h, big);
    for (let i = 0; i < n; i++) {
      const l = pieces.labels[i]!;
      if (!candidate[l] || last[l] === p || dist[i]! > reach) continue;
      last[l] = p;
      nearPeople[l]! += 1;
    }
  }
  // Then, for a piece by one region only, the pose model's people: two people who touch (arm in arm, heads together)
  // are one ISNet region, but two skeletons.
  if (skeletons && candidate.some((c, l) => c && nearPeople[l]! < 2)) {
    const bodies = (await skeletons()).filter((s) => s.length > 0);
    const byBody = new Int32Array(count);
    for (const body of bodies) {
      const hit = new Uint8Array(count);
      for (let i = 0; i < n; i++) {
        const l = pieces.labels[i]!;
        if (!candidate[l] || nearPeople[l]! >= 2 || hit[l]) continue;
        const x = i % w, y = (i - x) / w;
        if (armDistance(body, x, y) <= reach) hit[l] = 1;
      }
      hit.forEach((v, l) => v && (byBody[l]! += 1));
    }
      for (let l = 1; l < count; l++) if (byBody[l]! >= 2) nearPeople[l] = 2;
  }
  const between = candidate.map((c, l) => c && nearPeople[l]! >= 2);
  if (!between.some(Boolean)) return null;
  return maskWhere(pieces.labels.length, (i) => !!between[pieces.labels[i]!]);
}
