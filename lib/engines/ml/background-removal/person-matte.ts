import { chamfer34, components, maskWhere, type Matte } from "./matte-ops";
import { peopleMapOf, type PeopleMap } from "./count-people";
import { dropDefocused, softAdditions } from "./person-defocus";
import { clearBetween } from "./person-between";
import { backgroundLike, nearbyColours } from "./person-colours";
import { apartFromPeople, floatingRegions } from "./person-floating";
import { bodilessPieces, largeAdditions } from "./person-bodiless";
import { armDistance, type ArmSegment, type BodyPoint } from "./pose-arms";

/**
 * How ISNet's salient-object matte and the person mask are combined (all at the
 * working resolution; see keepPerson). Lengths are fractions of the working long
 * side: `band` is how far outside the person mask ISNet's matte may still reach
 * (hair the coarse mask misses). Tuned on the portrait set (bench/bg-quality-bench.ts).
 */
export const PERSON_RULE = {
  threshold: 0.5,
  /** Below this share of the frame, the photo has no person to keep. */
  minArea: 0.01,
  band: 0.03,
  /** Opaque where deeper than this inside the mask and the model is at least this sure. */
  core: 0.03,
  coreConfidence: 0.95,
  /** Columns within this reach lend their person top to their neighbours (see keepPerson, 4). */
  columnReach: 0.08,
  /**
   * The solid fill needs the person on both sides within columnReach (the frame's edge
   * counts as a side): false lets one side suffice, as the rule first did (kept for the
   * quality benchmark's side-by-side).
   */
  bothSides: true as boolean,
  /**
   * Where the solid fill stops `core` short of the mask's edge and ISNet drew no edge of its
   * own within this distance, the band takes the person model's own probability, so a jacket
   * ISNet missed reaches the mask's edge instead of stopping inside it. A doubtful area deep
   * inside the mask (a gap between an arm and a knee) is not that band. 0: off (as the rule first did).
   */
  edgeFillGap: 0.03,
  /** An enclosed hole is filled when the mean person probability over it is at least this. */
  holeConfidence: 0.9,
  /** Second looks: regions of at least this share of the frame, the largest few. */
  secondLookMinArea: 0.002,
  secondLookMax: 3,
  /**
   * A second look is taken only when its square covers at least this share of the person
   * mask's area: a crop much smaller than the people shows a part of a body (a hand with a
   * glass, a knee), where the person model sees no one, and the region and its square were
   * then cleared out of the middle of a person (group v272: a square hole in a dark shirt).
   * A poster or a statue beside a person is about a person's size. 0: every second look taken, as before.
   */
  secondLookMinShare: 0.15,
  /**
   * Whole people: a part of the person's own ISNet region that reaches farther than `band`
   * outside the person mask (a raised hand, an outstretched arm, a ball or a trophy held out:
   * the 256 px person model misses fingers and thin arms) is kept when it is at most this share
   * of the person mask's area; larger (a poster ISNet merged with the person) it is cleared as
   * before. Either way it is reported as a doubtful region. 0: cleared, as the rule first did.
   */
  attachedMaxShare: 0.25,
  /**
   * Sure person, wherever ISNet missed it (issue 38): where the person model is at least this
   * sure (in the whole frame and, when the people fill less of it, in a closer look at them),
   * in a piece that touches the kept person, the cut-out is opaque, with the person model's
   * own falloff at its edge. A raised hand over a busy poster, a forearm ISNet faded out, the
   * dark body of a second person. 0: off (the fill then needs the person hanging below on both
   * sides, as before).
   */
  sureFill: 0.9,
  /** What the sure fill adds within this reach of its edge (share of the long side) is thin and always taken... */
  sureThinMax: 0.03,
  /** ...a thicker part only when its box's diagonal is at least this many times its thickness (a limb; a disc or a square is 1.4, a 1:2 bar 2.2). */
  sureLimbElongation: 2.4,
  /**
   * ...and a part of the addition that borders such a refused thick piece is its rim, kept out
   * with it: the sculpture photo (P3M p_71bcce3a), where the mask's overshoot from the man's
   * head to the sculpture's top was refused but its thin edge along his hair, farther than
   * `sureThinMax` from the refused core, was filled (0.901 → 0.883). false: the rim is added.
   */
  sureRim: true as boolean,
  /**
   * Hysteresis: a sure piece that does not itself touch the kept person (a raised hand above an
   * arm the person model is only 0.5-0.8 sure of, ISNet having taken a poster for the subject) is
   * still filled, with the unsure pixels that join it to the person, when this lower threshold
   * connects it to what the cut-out keeps; only such islands grow (the rest of the fill is as
   * before). 0: off (islands stay out, as the rule first did).
   */
  sureGrow: 0.5,
  /**
   * ...an island of at least this share of the frame (a hand; not a speck of a person behind,
   * CIHP c0012008: 0.0004), and the piece that joins it at most this many times its islands' area
   * (v35's arm and hand 3.5; c0012008's crowd behind 73).
   */
  sureIslandMinArea: 0.002,
  sureGrowMaxRatio: 6,
  /**
   * A thick, round piece of the sure fill that runs out of the frame at the bottom is a body leaving
   * the frame (a shoulder or a chest ISNet took for background), not the mask's overshoot beside a
   * head, which ends inside the frame: it is added (v43: a dark shirt's shoulder). false: refused as
   * any round piece, as before.
   */
  sureFrameBottom: true as boolean,
  /**
   * When the whole-frame person mask is (nearly) empty for a photo said to show a person, the person
   * model looks again at the box around ISNet's subject, widened for the arms (pipeline.ts `lookAtSubject`): a figure small
   * in a wide frame, squeezed by the model's square input, or back-lit (v261: a woman against a window,
   * no one in the whole frame, 24 % of the box around her). false: the rule does not run, as before.
   */
  subjectLook: true as boolean,
  /**
   * Fine structure the 256 px person model blurs (issue 38): where ISNet's matte fades out but
   * does not vanish (at least this, under 0.5) inside the person mask, as a piece reaching farther
   * than `softReach` from ISNet's kept region and not running out of the frame (a hand at the end of an
   * outstretched arm), the cut-out takes the person model's probability there. The thin ramp of an
   * ordinary edge is nearer than that and stays ISNet's. 0: off, the default: at 0.1 it also takes toys
   * on a table the children's hands rest on (v107 0.869 → 0.860, bench/README.md), more than it gains.
   */
  softJoin: 0,
  /** ...how far (share of the working long side) a faded piece must reach beyond ISNet's kept region. */
  softReach: 0.008,
  /** ...and the part beyond that reach covers at least this share of the frame (not a speck). */
  softMinArea: 0.0003,
  /**
   * A limb the person model is only fairly sure of (≥ sureGrow), with no sure island on it, that ISNet
   * missed and that reaches farther than this (share of the long side) out of the kept cut-out: taken
   * (growReachingLimbs), when its part beyond that reach is at most `limbMaxArea` of the frame, reaches
   * twice as far at its farthest and does not run out of the frame (a table under the hands, v107). 0: off,
   * the default: at 0.04 it keeps v261's raised arms (0.784 → 0.842) but adds background beside v285's
   * raised hands (0.971 → 0.947), bench/README.md; a cue that separates the two is still to find.
   */
  limbReach: 0.04,
  limbMaxArea: 0.03,
  /**
   * A pose cue for the doubtful additions above (issue 38): a piece limbReach or softJoin would add
   * is kept only when at least this share of its part beyond the reach lies along an arm the pose
   * model (MoveNet MultiPose, pose-model.ts) finds: shoulder → elbow → wrist → the hand past the
   * wrist (pose-arms.ts). The pose model runs only when such a piece exists. 0: no pose cue.
   */
  poseArmShare: 0.5,
  /**
   * When the pose model ran (a piece asked for it), the person model's probability down to this, along
   * an arm it found (within half the arm's radius of its axis) and joined to the cut-out, is kept too:
   * the rest of an arm the person model is unsure of (v261's back-lit left arm, 0.3-0.7). 0: off. On at
   * 0.3 (people8): v261 0.842 → 0.881, no other of the 56 photos moves, all 41 0.949 → 0.950 (two runs,
   * bench/README.md); the set's minimum (v2, a coarse reference) does not move, one photo shows it working.
   */
  poseGrow: 0.3,
  /**
   * A gap between people (issue 38, v88: the boardwalk between two women below their joined hands):
   * where ISNet is sure of background (under 0.05) and the rule filled it anyway (the solid fill, the
   * sure fill), in a piece of ISNet's background the people enclose (at most `gapOpenShare` of it outside
   * the person mask) that hangs under a thin bridge (in 40 % of its columns ISNet's person above it is at
   * most 0.15 of the long side thick, with ISNet's background above that: joined hands, not a head and
   * shoulders), and whose colours are the background's around it rather than the people's (most of its
   * pixels' colour bins hold at least this many times the background's share of pixels as the people's),
   * ISNet's matte stays (clearGaps). Needs the photo's colours (keepPerson's `rgb`). A dark jacket ISNet
   * missed below a head has the same colours as a dark wall but a whole head above it (the sculpture
   * photo's man: 0.18-0.21 of the long side). 0: off (the rule fills it as before). On at 1 (people9):
   * v88 0.924 → 0.977, no other of the 56 photos moves (bench/README.md).
   */
  gapColour: 1,
  /** ...a piece of ISNet's background with at most this share of it outside the person mask is enclosed by the people. */
  gapOpenShare: 0.1,
  /**
   * The space between people (issue 38, person-between.ts clearBetween; fresh v248: the pavement between a couple's legs
   * and between walkers): what the fills raised over ISNet's sure background (under 0.05), in a piece (at least 0.05 % of
   * the frame of sure background) lying within `betweenReach` of the long side of at least two different people (parts of
   * ISNet's sure person, ≥ 0.95, in its kept regions, each of a person's size; with `betweenPose`, the pose model's skeletons
   * for a piece by one such part only: people who touch), goes back to ISNet's matte when its colours are the background's
   * (per pixel colour bin, the share of ISNet's sure background the cut-out leaves out near it at least this many times
   * the share of the kept people's, as `gapColour`, over `betweenLike` of its sure pixels) and ISNet drew it sharply (its
   * unsure pixels, 0.05..0.95, at most `betweenUnsure` of the piece and its rim). Unlike clearGaps it needs no thin bridge
   * above the gap and no enclosure. Needs the photo's colours (keepPerson's `rgb`). 0: off (the rule as before, people21).
   */
  betweenColour: 2,
  betweenLike: 0.6,
  betweenUnsure: 0.4,
  betweenReach: 0.08,
  /** ...and the pose model's people tell apart two people ISNet drew as one region (run once a photo, only for such a piece). */
  betweenPose: true as boolean,
  /** The solid fill's "person above" comes from every kept person region, not only the largest (a second person's dark jacket). */
  keptTops: true as boolean,
  /**
   * Small people (issue 38, held-out v21: eight people in grass, the whole frame's mask found one): when at
   * least this share of ISNet's subject that reaches the person mask lies beyond the band outside it (and
   * at least `tileMinArea` of the frame), the person model looks again on up to `tileMax` overlapping
   * squares along that subject, each about its height, and the mask takes their probability where it is
   * higher (person-tiles.ts lookInTiles, run by pipeline.ts before the rule). 0: off (the rule as before).
   */
  tileLook: 0.25,
  tileMinArea: 0.01,
  tileMax: 6,
  /**
   * A region with no body in it (issue 38, held-out c0026375: a red tablet standing on a table in front of
   * three children, ISNet's largest region, which the person model covers at ~1.0 on the whole frame and at
   * 0.68 on its own square, so neither look clears it): when ISNet keeps at least two regions of a person's
   * size (personMinArea), the pose model is asked where the people are (pose-model.ts, once a photo). A kept
   * region that holds none of their keypoints (each at least `headlessKeypoint` sure; hips do not count: the
   * model guesses them below a table's edge), while another kept region holds a head (nose, eyes, ears), is
   * seen again on its own square, and unless the person model is at least this sure of it there (a person the
   * pose model missed), it is cleared as a failed second look, with its soft edge (never filled again).
   * 0: off (the rule as before, people11). On at 0.8 (people12, bench/README.md): held-out c0026375 0.418 →
   * 0.683, every other cut-out of the sets byte-identical.
   */
  headless: 0.8,
  headlessKeypoint: 0.3,
  /**
   * A piece the rule's own fills made opaque (the solid fill, the sure fill) that, at the end, touches none
   * of ISNet's kept regions is not the person: the person model's overshoot deep below a child's arm, painted
   * solid because people stand above it in those columns (held-out c0026375: the table at the bottom right,
   * 2 % of the frame, apart from every child). It goes back to ISNet's matte, with its soft edge. false: kept,
   * as before (people12).
   */
  detachedFill: true as boolean,
  /**
   * A large fill with no body in it (issue 38, person-bodiless.ts; unseen6 v181: the person model calls a white board below a
   * woman leaning over a counter a person, and the fills paint a block larger than her over ISNet's sure background): at the
   * end, a piece the fills made opaque where ISNet drew background, with at least 1 % of the frame ISNet-sure background, asks
   * the pose model; when every person it finds has a knee or an ankle (whole bodies: a portrait cut at the chest may be missing
   * its shirt, seen v99 / unseen v32, which the fills rightly add apart from a head-and-shoulders skeleton), and the piece holds
   * none of its keypoints (at least `headlessKeypoint` sure) and at most a tenth of it lies within this many times a person's
   * scale (shoulder width) of their skeleton, it goes back to ISNet's matte. A body ISNet missed holds its shoulders, elbows,
   * hips or knees. 0: off (the rule as before). At 0.5 (people23, bench/README.md): unseen6 v181 0.275 → 0.924, every other
   * seen cut-out byte-identical.
   */
  bodilessFill: 0.5,
  /**
   * People far behind the subjects (issue 38, held-out c0012008: people standing a metre behind three standing
   * subjects, which the reference and the text remove): when the pose model runs for `headless` (ISNet keeps
   * two regions of a person's size), a person it finds is far behind when their scale (shoulder width, or the ears'
   * or eyes' spacing scaled to it, from keypoints at least `headlessKeypoint` sure) is under this share of the
   * largest person's whose knees or ankles it found, and their own lowest knee or ankle is higher than that person's
   * by more than `farFootRise` of the frame's height: smaller and standing farther up the same ground (and apart from
   * everyone else's body, `farFootClear`: a child held in the arms has their feet on the holder). A child beside
   * a parent is smaller but stands on the same line; a second subject is about the same scale; people whose feet the
   * model does not see are never judged. The cut-out within `farReach` of their scale of their skeleton, where no
   * other person's skeleton is nearer in their own scale, is cleared (`clearFarBehind`). 0: off (the rule as before, people13).
   */
  farBehind: 0.5,
  farFootRise: 0.15,
  /** ...and that knee or ankle farther than this many times each other person's scale from their skeleton (not held or carried). */
  farFootClear: 1,
  farReach: 1,
  /** A person-mask component of at least this share of the frame, mostly kept, counts as a person. */
  personMinArea: 0.01,
  /** Regions smaller than this share of the frame are not reported as doubtful. */
  doubtMinArea: 0.002,
  /**
   * ISNet's own matte where the rule did not need to move it (issue 38, people19, isnet-edge.ts): where the rule flipped
   * ISNet's side of 0.5 in a part thicker than this share of the long side (a cleared poster, a filled jacket, an added arm)
   * its matte holds within a short reach; everywhere else the matte goes back to ISNet's, so the thin strips its fills add
   * along ISNet's outline go. 0: off, the default: measured at 0.003 (people19, bench/README.md) it lowers the seen sets
   * (123 photos 0.9249 → 0.9246): those strips are more often right than wrong.
   */
  isnetEdge: 0,
  /**
   * The guided upsampling (step 7) on a photo at the working size (no larger than 1024 px: nothing is upsampled) only
   * near the pieces the rule changed (isnet-edge.ts `changedPieces`, with `isnetEdge`'s thickness, a pixel at 0), ISNet's
   * plain matte elsewhere. There the filter has no finer edge to follow and only smooths ISNet's outline (thin parts,
   * corners): on the photos ISNet alone cuts well (IoU ≥ 0.93) and the rule cuts worse, most of the loss (people19,
   * bench/README.md: v10 0.977 → 0.972 with it everywhere, 0.977 near the changes only). A larger photo keeps it
   * everywhere (P3M: it finds the photo's own edge, bicubic 0.9704, guided 0.9725). On since people19: the 123 seen person
   * photos 0.9249 → 0.9265 (v2, the 41's minimum, 0.823 → 0.833), unseen4 (run once) 0.9310 → 0.9321, no photo down by more
   * than 0.002. false: the guided filter everywhere, as before.
   */
  guidedNearChanges: true as boolean,
  /**
   * The ground under a person lying or sitting low (issue 38, unseen3 v77: a boy lying on his side in grass; the
   * 256 px person mask spills over the grass in front of him to the frame's bottom, and the sure fill, as a long
   * flat piece, and the core fill, ISNet's person above it on both sides, each paint it solid): a piece the rule
   * added where ISNet drew background (matte ≥ 0.5 where ISNet is under 0.5, mostly ISNet-sure background) that
   * runs out of the frame at the bottom and lies within the columns of ISNet's kept person (under it in 80 % of its
   * columns), and whose colours are the background's next to it and nearly absent from the people's (as `gapColour`,
   * but stricter: 80 % of its sure-background pixels' colour bins hold at least this many times the background's share
   * of pixels as the people's), goes back to ISNet's matte (clearGround). A body ISNet missed that runs out of the
   * frame has the person's own colours somewhere near it (v68's white sweater against white clouds, v43's grey shirt,
   * the sculpture photo's man), or spreads beyond the head and neck ISNet found (v34's dark jacket on a dark forest),
   * and the fills are kept there. Needs the photo's colours (keepPerson's `rgb`).
   * 0: off. At 10 (people18, bench/README.md): unseen3 v77 0.711 → 0.929, every other cut-out of the seen sets and of
   * unseen4 (run once) byte-identical; but on unseen5 (run once) it cleared a standing man's light jeans against a bright
   * path (v150 0.944 → 0.887): legs under a jacket lie under the person too, in the background's colours (light trousers
   * on a studio's white backdrop are the same case). With `groundLying` below (the lead, c6ebb66) only a lying person's
   * ground is judged: v77 kept, v150 0.945, and unseen6 (run once after that) byte-identical, so it is on again.
   */
  groundColour: 10,
  /**
   * ...and only under a person lying: ISNet's kept person at least this many times as wide as tall (its box). A standing
   * person's legs lie under the person too, in the background's colours at times (unseen5 v150: light jeans on a bright
   * path); a lying body is wider than tall (v77). 0: any shape, as people18 measured it.
   */
  groundLying: 1,
  /**
   * A person behind, out of focus (issue 38, person-defocus.ts): a piece of the sure fill of at least `defocusMinArea` of
   * the frame whose edges are less steep than this share of the kept person's stays out. A shallow depth of field leaves
   * the people behind a subject soft, and ISNet leaves them out as the photographer meant; the 256 px person model sees
   * them touching the subject and the sure fill painted them in (unseen4 v103). A body ISNet missed beside the subject is
   * as sharp as the subject; a flat one (a plain dark jacket) has too few edges to judge and is filled. 0: off.
   */
  defocusFill: 0.7,
  defocusMinArea: 0.01,
  /**
   * ...and whatever any fill added (the core fill's too), at the end: a piece of at least `defocusMinArea` whose blur,
   * estimated by re-blurring (person-defocus.ts softAdditions), is more than 1 / softBehind times the kept subject's goes
   * back to ISNet's matte (unseen6 v191: a soft child behind a sharp one, painted by the core fill; unseen v30: a blurred
   * face at the frame's edge). On the seen sets a person the fills rightly add is at least 0.54 of the subject's
   * sharpness. 0: off.
   */
  softBehind: 0.5,
  /**
   * ...and only a piece of which at least this share is ISNet's sure background (under 0.05): someone behind whom ISNet
   * left out. Unseen8 v259 (a woman leaning on a wall, her back out of focus): the sure fill made her faded back solid,
   * ISNet had kept it at 0.32 on average and was sure of background on none of it, and softBehind gave it back (0.938 →
   * 0.816). The people behind it rightly clears are 93 % (v30) and 99 % (v191) ISNet's sure background. 0: any piece, as
   * the nineteenth session measured softBehind. Added after unseen8 was run: no unseen set is left to check it on.
   */
  softBehindSure: 0.5,
  /**
   * Something floating above the people (issue 38, person-floating.ts; fresh v245: a white traffic sign high above two men
   * walking, which the person model covers and, on its own square, is 0.86 sure of): a kept ISNet region (not the person's own,
   * under a person's size, at least `doubtMinArea` of the frame, not touching the frame's edge) wholly above the top of every
   * kept region of a person's size asks the pose model; when it holds none of its keypoints (at least `headlessKeypoint` sure)
   * and lies farther than this many times each person's scale (shoulder width) from their skeleton, it is cleared with its soft
   * edge, as a failed second look. A raised hand ISNet cut off its arm is at a wrist; a person far behind stands lower in the
   * frame than the subjects' heads. 0: off (the rule as before). At 0.5 (people20, bench/README.md): fresh v245 0.768 → 0.832,
   * every other cut-out of the seen sets byte-identical (0.25 the same).
   */
  floatingClear: 0.5,
};

/** Why a region of a cut-out is worth a look (the job's quality.doubtful_regions). */
export type DoubtReason =
  /** Kept, though outside the person model's mask: touches the person (a raised hand, a held object). */
  | "kept_outside_person"
  /** Removed, though it touches the person's region (too large to be a hand or a held object). */
  | "removed_touching_person"
  /** The person model is sure of a person here, and the cut-out removed it. */
  | "removed_person";

/** A doubtful region at the working resolution (pipeline.ts scales it to the photo). */
export type PersonDoubt = { reason: DoubtReason; box: Box; area: number };

/** What keepPerson found, for the job's quality report; `map`: the kept people's regions, on which faces are counted (count-people.ts). */
export type PersonReport = { people: number; doubtful: PersonDoubt[]; map?: PeopleMap };

/** A person covers at least this share of the frame and the model is sure of most of it: a portrait. */
// On the 15 portraits: area 0.10-0.66, mean confidence 0.93-0.995, agreement 0.37-0.995 (the
// lowest is the man whose face and jacket ISNet missed).
const PORTRAIT = { minArea: 0.04, minMeanConfidence: 0.9, minIsnetAgreement: 0.3 };

/**
 * Chamfer (3-4) distance in pixels from every pixel where `inside` is 0 to the
 * nearest pixel where it is 1; 0 on inside pixels. The image border is not a
 * boundary here (unlike insideDistance): a poster at the frame's edge is still
 * far from the person.
 */
export function distanceToMask(inside: Uint8Array, w: number, h: number): Float32Array {
  const big = 1e9;
  const dist = new Float32Array(w * h);
  for (let i = 0; i < dist.length; i++) dist[i] = inside[i] ? 0 : big;
  return chamfer34(dist, w, h, big);
}

/**
 * Whether a photo is a portrait, for subject_type "auto": the person model finds a
 * person big enough, is confident about it, and ISNet's subject is mostly that
 * person (so a product shot with a hand in it, or a poster with a tiny figure,
 * keeps ISNet's matte as it is).
 */
export function looksLikePortrait(matte: Matte, person: Float32Array): boolean {
  let area = 0, confidence = 0, overlap = 0;
  for (let i = 0; i < person.length; i++) {
    const p = person[i]!;
    if (p >= PERSON_RULE.threshold) {
      area++;
      confidence += p;
      if (matte.data[i]! >= 0.5) overlap++;
    }
  }
  if (area < PORTRAIT.minArea * person.length) return false;
  return confidence / area >= PORTRAIT.minMeanConfidence && overlap / area >= PORTRAIT.minIsnetAgreement;
}

export type Box = { left: number; top: number; width: number; height: number };

/**
 * Keeps only the person. The whole-frame person mask is coarse (256 px) and
 * generous (a statue beside the sitter is "person" too at that scale), so it
 * decides *what* to keep and ISNet keeps deciding *where the edge is*:
 * 1. ISNet's regions (matte >= 0.5) mostly outside the mask are dropped (the
 *    poster's lettering); the region that overlaps the person most always stays.
 * 2. Every other region the mask accepts gets a second look: the person model on
 *    a square crop around it alone (`lookCloser`). A statue seen on its own is not
 *    a person (mean probability 0.30 against 0.98 for the man beside it): dropped,
 *    and the mask is cut back there too. Only a square of a person's scale is looked at
 *    (`secondLookMinShare`): a crop of a hand or a knee shows the model no one.
 * 3. ISNet's matte farther than `band` outside the mask is cleared (what is left of
 *    a poster or a lamp touching the person's region), except the person's own region
 *    reaching out in small pieces (`attachedMaxShare`): a raised hand, an outstretched arm,
 *    a held ball or trophy, which the coarse mask misses. Both are reported (`report`).
 * 4. Deep inside the mask, where the model is sure (`coreConfidence`) and the person
 *    hangs there (below the person region's top in nearby columns on *both* sides, the
 *    frame's edge counting as a side), the person is opaque: a dark jacket or a flat
 *    face that ISNet took for background, but not the mask's overshoot beside a head.
 *    Where that fill stops short of the mask's edge far from any edge ISNet drew, the
 *    band takes the person model's probability (a jacket's outline ISNet missed).
 *    The person above comes from every kept region of a person's size, so a second
 *    person's dark body hangs from that person's own head (`keptTops`).
 * 5. Where the person model is sure of a person (in the whole frame and in `closer`, its
 *    closer look at the people when they fill little of the frame) touching the kept person,
 *    and ISNet missed it, the cut-out is opaque: a raised arm over a busy poster, a hand ISNet
 *    faded out (`sureFill`); thick round pieces, the mask's overshoot, stay out, and so does
 *    what of the addition borders them (`sureRim`: that overshoot's thin edge along a head),
 *    unless they run out of the frame at the bottom: a body leaving the frame (`sureFrameBottom`).
 * 6. Holes enclosed by the person where the model is sure of a person are filled;
 *    a gap it is unsure of (between an arm and a knee) stays open.
 * Returns false (matte untouched) when the photo shows no person. `report`, when given,
 * receives the number of people kept and the regions where the two models disagree.
 */
export type PersonRule = typeof PERSON_RULE;

export async function keepPerson(
  matte: Matte,
  personWhole: Float32Array,
  lookCloser?: (box: Box) => Promise<Float32Array>,
  rule: PersonRule = PERSON_RULE,
  report?: PersonReport,
  closer?: Float32Array,
  armsOf?: () => Promise<ArmSegment[]>,
  rgb?: Uint8Array,
  bodyOfPhoto?: () => Promise<BodyPoint[]>,
): Promise<boolean> {
  const { width: w, height: h, data: d } = matte;
  // The pose model's people are asked for once, by the headless step and the far-behind step alike.
  let bodyFound: Promise<BodyPoint[]> | undefined;
  const bodyOf = bodyOfPhoto ? () => (bodyFound ??= bodyOfPhoto()) : undefined;
  const isnet = (rule.gapColour > 0 || rule.groundColour > 0 || rule.betweenColour > 0) && rgb ? new Float32Array(d) : null;
  const original = isnet ?? (rule.detachedFill || rule.bodilessFill > 0 ? new Float32Array(d) : null);
  const person = new Float32Array(personWhole);
  const mask = new Uint8Array(w * h);
  let area = 0;
  for (let i = 0; i < mask.length; i++) {
    if (person[i]! >= rule.threshold) {
      mask[i] = 1;
      area++;
    }
  }
  if (area < rule.minArea * w * h) return false;

  const regions = components(w, h, (i) => d[i]! >= 0.5, true);
  const overlap = new Float64Array(regions.sizes.length);
  for (let i = 0; i < d.length; i++) if (mask[i]) overlap[regions.labels[i]!]! += 1;
  let best = 0; // label 0 is "no region": never the person's
  for (let l = 1; l < overlap.length; l++) if (best === 0 || overlap[l]! > overlap[best]!) best = l;
  const keep = regions.sizes.map((s, l) => l > 0 && (l === best || overlap[l]! >= 0.5 * s));

  /** Pixels a second look found not to be a person: cleared whatever ISNet says. */
  const notPerson = new Uint8Array(w * h);
  if (rule.headless > 0 && bodyOf && lookCloser) {
    const cleared = await clearHeadless(matte, regions, keep, bodyOf, lookCloser, rule);
    if (cleared.some(Boolean)) {
      // Its soft edge too (ISNet's fringe and the mask's overshoot around it), where no kept region is near.
      const gone = withSoftEdge(maskWhere(w * h, (i) => cleared[regions.labels[i]!]!), maskWhere(w * h, (i) => { const l = regions.labels[i]!; return l > 0 && keep[l]! && !cleared[l]; }), rule.band * Math.max(w, h), matte);
      for (let i = 0; i < d.length; i++) {
        if (gone[i]) {
          notPerson[i] = 1;
          mask[i] = 0;
        }
      }
      cleared.forEach((c, l) => c && (keep[l] = false));
      if (cleared[best]) {
        // The person's region is then the kept one the mask covers most (one with a head, by clearHeadless).
        best = 0;
        for (let l = 1; l < overlap.length; l++) if (keep[l] && (best === 0 || overlap[l]! > overlap[best]!)) best = l;
      }
    }
  }
  if (rule.floatingClear > 0 && bodyOf) {
    const floating = floatingRegions(regions.labels, regions.sizes, regions.touchesBorder, keep, best, w, rule.doubtMinArea * w * h, rule.personMinArea * w * h);
    // Most photos have none: the pose model is asked only for such a region.
    if (floating.some(Boolean)) {
      const points = await bodyOf();
      const { near, far } = farBehindPeople(points, h, rule);
      const confident = points.filter((p) => p.score >= rule.headlessKeypoint);
      const apart = apartFromPeople(regions.labels, floating, confident, [...near, ...far], w, h, Math.max(1, Math.round(0.01 * Math.max(w, h))), rule.floatingClear);
      if (apart.some(Boolean)) {
        const gone = withSoftEdge(maskWhere(w * h, (i) => apart[regions.labels[i]!]!), maskWhere(w * h, (i) => { const l = regions.labels[i]!; return l > 0 && keep[l]! && !apart[l]; }), rule.band * Math.max(w, h), matte);
        for (let i = 0; i < d.length; i++) {
          if (gone[i]) {
            notPerson[i] = 1;
            mask[i] = 0;
          }
        }
        apart.forEach((a, l) => a && (keep[l] = false));
      }
    }
  }
  if (lookCloser) {
    const others = regions.sizes
      .map((s, l) => ({ s, l }))
      .filter(({ s, l }) => keep[l] && l !== best && s >= rule.secondLookMinArea * w * h)
      .sort((a, b) => b.s - a.s)
      .slice(0, rule.secondLookMax);
    for (const { l } of others) {
      const box = squareAround(regions.labels, l, w, h);
      if (box.width * box.height < rule.secondLookMinShare * area) continue;
      const q = await lookCloser(box);
      if (meanOfRegion(q, box, regions.labels, l, w) >= rule.threshold) continue;
      keep[l] = false;
      for (let y = 0; y < box.height; y++) {
        for (let x = 0; x < box.width; x++) {
          const i = (box.top + y) * w + box.left + x;
          const qi = q[y * box.width + x]!;
          if (regions.labels[i] !== best && qi < rule.threshold) {
            person[i] = Math.min(person[i]!, qi);
            mask[i] = 0;
            notPerson[i] = 1;
          }
        }
      }
    }
  }

  const outside = distanceToMask(mask, w, h);
  const inverse = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) inverse[i] = mask[i] ? 0 : 1;
  const inside = distanceToMask(inverse, w, h);
  // Solid fill only below the person's own top in each column: a body hangs below
  // the head and shoulders ISNet found, while the mask's overshoot beside the head
  // (a statue's shoulder, a dark doorway) has no person region above it.
  const columnTop = new Int32Array(w).fill(h);
  for (let i = 0; i < d.length; i++) {
    const l = regions.labels[i]!;
    // Another kept region lends its top only when it is a person's size (a second person's head), not a scrap beside a head.
    if (l !== best && !(rule.keptTops && l > 0 && keep[l] && regions.sizes[l]! >= rule.personMinArea * w * h)) continue;
    const x = i % w;
    const y = (i - x) / w;
    if (y < columnTop[x]!) columnTop[x] = y;
  }
  const long = Math.max(w, h);
  // Within a few columns on each side: a dark shirt between two lit edges hangs from the
  // edges' top. Both sides: the mask's overshoot beside a head (a statue's shoulder, a
  // dark doorway) has the person on one side only; a jacket has it on both, or on one side
  // and the frame's edge on the other. The frame's edge is a column whose top is the
  // person's top near it (a shoulder ISNet found there), or any row when ISNet found
  // nothing near that edge (a jacket running out of the frame).
  const reach = Math.round(rule.columnReach * long);
  const minTop = (x0: number, x1: number) => {
    let t = h;
    for (let k = Math.max(0, x0); k <= Math.min(w - 1, x1); k++) t = Math.min(t, columnTop[k]!);
    return t;
  };
  const nearLeft = minTop(0, reach), nearRight = minTop(w - 1 - reach, w - 1);
  const frameLeft = nearLeft < h ? nearLeft : -1;
  const frameRight = nearRight < h ? nearRight : -1;
  const topLeft = new Int32Array(w), topRight = new Int32Array(w);
  for (let x = 0; x < w; x++) {
    const left = minTop(x - reach, x), right = minTop(x, x + reach);
    topLeft[x] = x - reach < 0 ? Math.min(left, frameLeft) : left;
    topRight[x] = x + reach > w - 1 ? Math.min(right, frameRight) : right;
    if (!rule.bothSides) topLeft[x] = topRight[x] = Math.min(left, right);
  }
  // Support carries along the mask within a row (from the person's columns or the frame's
  // edge): the jacket between the person's last column and the frame's edge, farther than
  // the reach from both; a dark back between two arms reaching out of the frame.
  const fromLeft = new Uint8Array(w * h), fromRight = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const carried = x === 0 ? y >= frameLeft : mask[row + x - 1] && fromLeft[row + x - 1];
      fromLeft[row + x] = y >= topLeft[x]! || (rule.bothSides && !!mask[row + x] && !!carried) ? 1 : 0;
    }
    for (let x = w - 1; x >= 0; x--) {
      const carried = x === w - 1 ? y >= frameRight : mask[row + x + 1] && fromRight[row + x + 1];
      fromRight[row + x] = y >= topRight[x]! || (rule.bothSides && !!mask[row + x] && !!carried) ? 1 : 0;
    }
  }
  const band = rule.band * long;
  const core = rule.core * long;
  // Whole people (rule.attachedMaxShare): the parts of kept ISNet regions beyond the band,
  // as pieces of their own; each small enough beside the person is kept.
  const doubtful: PersonDoubt[] = [];
  const attached = new Uint8Array(w * h);
  if (rule.attachedMaxShare > 0) {
    let personArea = 0;
    for (let i = 0; i < mask.length; i++) personArea += mask[i]!;
    const beyond = components(w, h, (i) => outside[i]! > band && !notPerson[i] && regions.labels[i]! > 0 && keep[regions.labels[i]!]!, true);
    const small = beyond.sizes.map((s, l) => l > 0 && s <= rule.attachedMaxShare * personArea);
    for (let i = 0; i < d.length; i++) if (small[beyond.labels[i]!]) attached[i] = 1;
    for (const { label, box } of boxesOf(beyond.labels, beyond.sizes.length, w)) {
      const area = beyond.sizes[label]! / (w * h);
      if (area >= rule.doubtMinArea) doubtful.push({ reason: small[label] ? "kept_outside_person" : "removed_touching_person", box, area });
    }
  }
  // The soft fringe of a kept part (finger edges) stays with it.
  const nearAttached = rule.attachedMaxShare > 0 ? distanceToMask(attached, w, h) : null;
  const solid = new Uint8Array(w * h);
  for (let i = 0; i < d.length; i++) {
    const l = regions.labels[i]!;
    if (attached[i] || (nearAttached && nearAttached[i]! <= 2 && !notPerson[i] && (l === 0 || keep[l]))) continue;
    if (outside[i]! > band || (l > 0 && !keep[l]) || notPerson[i]) d[i] = 0;
    // The soft fringe (matte < 0.5) of a dropped region goes with it.
    else if (d[i]! < 0.5 && !mask[i] && outside[i]! > band / 3) d[i] = 0;
    else if (inside[i]! > core && person[i]! >= rule.coreConfidence && fromLeft[i] && fromRight[i]) d[i] = solid[i] = 1;
  }
  if (rule.edgeFillGap > 0) {
    const toSolid = distanceToMask(solid, w, h);
    // Only where ISNet drew no edge of its own nearby: where it did, its edge stays.
    const toIsnet = distanceToMask(maskWhere(w * h, (i) => regions.labels[i]! > 0 && keep[regions.labels[i]!]!), w, h);
    for (let i = 0; i < d.length; i++) {
      const l = regions.labels[i]!;
      if (mask[i] && inside[i]! <= core && toSolid[i]! <= core + 1 && toIsnet[i]! > rule.edgeFillGap * long && !notPerson[i] && (l === 0 || keep[l]) && fromLeft[i] && fromRight[i]) {
        d[i] = Math.max(d[i]!, person[i]!);
      }
    }
  }

  // The pose model runs at most once a photo, and only when a doubtful piece asks for it.
  let armsFound: Promise<ArmSegment[]> | undefined;
  // Without a pose model no arm is found, so those pieces stay out (the rule as it was before them).
  const arms = () => (armsFound ??= armsOf ? armsOf() : Promise.resolve([]));
  const alongArms = rule.poseArmShare > 0 ? (piece: PieceTest) => alongAnArm(piece, arms, rule.poseArmShare) : undefined;

  if (rule.softJoin > 0) await joinSoftLimbs(matte, person, mask, notPerson, (i) => regions.labels[i] === 0 || keep[regions.labels[i]!]!, rule, alongArms);

  if (rule.sureFill > 0) await fillSurePerson(matte, person, closer, notPerson, (i) => regions.labels[i] === 0 || keep[regions.labels[i]!]!, rule, alongArms, rgb);

  if (rule.poseGrow > 0 && armsFound) {
    const both = (i: number) => (closer ? Math.min(person[i]!, closer[i]!) : person[i]!);
    growAlongArms(matte, both, await armsFound, notPerson, (i) => regions.labels[i] === 0 || keep[regions.labels[i]!]!, rule.poseGrow);
  }

  if (rule.detachedFill) clearDetached(matte, original, (i) => regions.labels[i]! > 0 && keep[regions.labels[i]!]!, notPerson, rule);

  // The pose model's people are asked for only when the headless step would ask (two kept regions of a person's size): no extra run.
  if (rule.farBehind > 0 && bodyOf && personSized(regions.sizes, keep, rule, w * h).filter(Boolean).length >= 2) {
    const { far, near } = farBehindPeople(await bodyOf(), h, rule);
    if (far.length) clearFarBehind(matte, person, mask, notPerson, far, near, rule);
  }

  // A hole is filled when the person model is sure it is person (a face), not when
  // it merely smooths over it (the gap between an arm and a knee).
  const holes = components(w, h, (i) => d[i]! < 0.5, false);
  const certainty = new Float64Array(holes.sizes.length);
  for (let i = 0; i < d.length; i++) certainty[holes.labels[i]!]! += person[i]!;
  const fill = holes.sizes.map((s, l) => l > 0 && !holes.touchesBorder[l] && certainty[l]! >= rule.holeConfidence * s);
  for (let i = 0; i < d.length; i++) if (fill[holes.labels[i]!]) d[i] = 1;

  if (isnet && rgb && rule.gapColour > 0) clearGaps(matte, isnet, mask, rgb, rule);
  if (isnet && rgb && rule.betweenColour > 0) {
    const sized = personSized(regions.sizes, keep, rule, w * h);
    const people = maskWhere(w * h, (i) => { const l = regions.labels[i]!; return !!sized[l] || (l === best && !!keep[l]); });
    // The pose model's people, when a piece asks for them (once a photo, shared with the headless and far-behind steps).
    const skeletons = bodyOf
      ? async () => {
          const { near, far } = farBehindPeople(await bodyOf(), h, rule);
          return [...near, ...far].map((p) => p.skeleton);
        }
      : undefined;
    const between = await clearBetween(matte, isnet, rgb, people, { colour: rule.betweenColour, unsure: rule.betweenUnsure, reach: rule.betweenReach, near: GAP_NEAR, personArea: rule.personMinArea * w * h, like: rule.betweenLike }, rule.betweenPose ? skeletons : undefined);
    if (between) backToIsnet(matte, isnet, between, rule);
  }
  if (isnet && rgb && rule.groundColour > 0) clearGround(matte, isnet, mask, rgb, (i) => regions.labels[i]! > 0 && keep[regions.labels[i]!]!, rule);
  if (original && rgb && rule.softBehind > 0) clearSoftBehind(matte, original, rgb, (i) => regions.labels[i]! > 0 && keep[regions.labels[i]!]!, notPerson, rule);
  if (original && bodyOf && rule.bodilessFill > 0) await clearBodiless(matte, original, notPerson, bodyOf, rule);

  if (report) {
    // People: components of the person mask (after the second looks) big enough and mostly kept.
    const people = components(w, h, (i) => mask[i] === 1, true);
    const kept = new Float64Array(people.sizes.length);
    for (let i = 0; i < d.length; i++) if (d[i]! >= 0.5) kept[people.labels[i]!]! += 1;
    const keptPeople = people.sizes.flatMap((s, l) => (l > 0 && s >= rule.personMinArea * w * h && kept[l]! >= 0.5 * s ? [l] : []));
    report.people = keptPeople.length;
    report.map = peopleMapOf(people.labels, keptPeople, w, h);
    // Where the person model is sure of a person and the cut-out has none: the two models disagree.
    const lost = components(w, h, (i) => person[i]! >= 0.8 && d[i]! < 0.5 && !notPerson[i], true);
    for (const { label, box } of boxesOf(lost.labels, lost.sizes.length, w)) {
      const area = lost.sizes[label]! / (w * h);
      if (area >= rule.doubtMinArea) doubtful.push({ reason: "removed_person", box, area });
    }
    report.doubtful = doubtful.sort((a, b) => b.area - a.area);
  }
  return true;
}

/**
 * Where both looks of the person model are sure of a person, in a piece that touches what the
 * cut-out already keeps, the cut-out is made opaque (limbs and thin parts only: see below);
 * within a short reach of what was added it takes the person model's falloff (0.5 → 0,
 * sure → 1), and the guided upsampling then pulls that edge onto the photo's own edge.
 */
async function fillSurePerson(
  matte: Matte,
  person: Float32Array,
  closer: Float32Array | undefined,
  notPerson: Uint8Array,
  allowed: (i: number) => boolean,
  rule: PersonRule,
  alongArms?: (piece: PieceTest) => Promise<boolean[]>,
  rgb?: Uint8Array,
): Promise<void> {
  const { width: w, height: h, data: d } = matte;
  const both = (i: number) => (closer ? Math.min(person[i]!, closer[i]!) : person[i]!);
  const sure = components(w, h, (i) => !notPerson[i] && allowed(i) && both(i) >= rule.sureFill, true);
  const touches = new Uint8Array(sure.sizes.length);
  for (let i = 0; i < d.length; i++) if (d[i]! >= 0.5) touches[sure.labels[i]!] = 1;
  touches[0] = 0;
  const filled = new Uint8Array(w * h);
  for (let i = 0; i < d.length; i++) if (touches[sure.labels[i]!] && d[i]! < 0.5) filled[i] = 1;
  // Islands joined by the lower threshold are judged on their own (so a grown arm does not merge
  // with the fill's other pieces into one thick, round piece), never where the fill already looked.
  let islands: Uint8Array | null = null;
  if (rule.sureGrow > 0 && rule.sureGrow < rule.sureFill) {
    islands = growSureIslands(matte, both, sure, touches, notPerson, allowed, rule);
    for (let i = 0; i < d.length; i++) if (filled[i]) islands[i] = 0;
  }
  if (rule.limbReach > 0 && rule.sureGrow > 0) {
    const reaching = await growReachingLimbs(matte, both, notPerson, allowed, rule, alongArms);
    islands ??= new Uint8Array(w * h);
    for (let i = 0; i < d.length; i++) if (reaching[i] && !filled[i]) islands[i] = 1;
  }
  keepLimbs(filled, w, h, rule);
  if (islands) {
    keepLimbs(islands, w, h, rule);
    for (let i = 0; i < d.length; i++) if (islands[i]) filled[i] = 1;
  }
  if (rule.defocusFill > 0 && rgb) dropDefocused(filled, (i) => d[i]! >= 0.5 && allowed(i), rgb, w, h, { ratio: rule.defocusFill, minArea: rule.defocusMinArea });
  let any = false;
  for (let i = 0; i < d.length; i++) {
    if (filled[i]) {
      d[i] = 1;
      any = true;
    }
  }
  if (!any) return;
  // The added pieces' edge: the person model's falloff within a short reach, outside ISNet's own region.
  const reach = Math.max(2, (rule.band * Math.max(w, h)) / 3);
  const near = distanceToMask(filled, w, h);
  for (let i = 0; i < d.length; i++) {
    if (filled[i] || near[i]! > reach || notPerson[i] || !allowed(i) || d[i]! >= 0.5) continue;
    const p = both(i);
    if (p > 0.5) d[i] = Math.max(d[i]!, Math.min(1, (p - 0.5) / (rule.sureFill - 0.5)));
  }
}

/**
 * Where ISNet's matte fades (rule.softJoin ≤ d < 0.5) inside the person mask and the faded area
 * reaches farther than rule.softReach from what ISNet keeps (d ≥ 0.5), that reach is a part of
 * the person both models half see: a hand ISNet faded at the end of an arm, an arm raised against
 * a bright window. It takes the person model's probability (≥ 0.5 there), with the faded pixels
 * within softReach that join it to the kept cut-out, when it does not run out of the frame and passes
 * the limb test (keepLimbs). The narrow ramp along an ordinary edge never reaches that far and is left
 * to ISNet. Off by default (rule.softJoin 0): see PERSON_RULE.
 */
async function joinSoftLimbs(
  matte: Matte,
  person: Float32Array,
  mask: Uint8Array,
  notPerson: Uint8Array,
  allowed: (i: number) => boolean,
  rule: PersonRule,
  alongArms?: (piece: PieceTest) => Promise<boolean[]>,
): Promise<void> {
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const reach = Math.max(2, rule.softReach * Math.max(w, h));
  const soft = (i: number) => mask[i] === 1 && !notPerson[i] && allowed(i) && d[i]! >= rule.softJoin && d[i]! < 0.5;
  // Specks aside.
  const added = await reachingParts(matte, soft, reach, (size) => size >= rule.softMinArea * n, alongArms);
  // Limb-like or thin only: a thick, round faded piece is an object ISNet half took.
  keepLimbs(added, w, h, rule);
  for (let i = 0; i < n; i++) if (added[i]) d[i] = Math.max(d[i]!, person[i]!);
}

/** Per region label: kept and of a person's size (at least rule.personMinArea of the frame); two such ask for the pose model (headless, farBehind). */
function personSized(sizes: number[], keep: boolean[], rule: PersonRule, frame: number): boolean[] {
  return sizes.map((s, l) => l > 0 && keep[l]! && s >= rule.personMinArea * frame);
}

/** Keypoints that mark a body in a region (rule.headless): all but the hips, which the pose model guesses below a table's edge. */
const HIPS = new Set([11, 12]);
/** ...and a head: nose, eyes, ears. */
const HEAD_PARTS = 5;

/**
 * rule.headless: the kept regions of a person's size that hold no keypoint of the people the pose model
 * finds (hips aside) and that the person model, on their own square, is less than rule.headless sure of,
 * when another kept region of a person's size holds a head. Runs the pose model only when ISNet keeps two
 * or more such regions. Returns a flag per region label.
 */
async function clearHeadless(
  matte: Matte,
  regions: { labels: Int32Array; sizes: number[] },
  keep: boolean[],
  bodyOf: () => Promise<BodyPoint[]>,
  lookCloser: (box: Box) => Promise<Float32Array>,
  rule: PersonRule,
): Promise<boolean[]> {
  const { width: w, height: h } = matte;
  const cleared = regions.sizes.map(() => false);
  const large = personSized(regions.sizes, keep, rule, w * h);
  if (large.filter(Boolean).length < 2) return cleared;
  const holds = new Uint8Array(regions.sizes.length), head = new Uint8Array(regions.sizes.length);
  // A keypoint just off a region's edge still marks it (the model's own error, ISNet's edge).
  const r = Math.max(1, Math.round(0.01 * Math.max(w, h)));
  for (const p of await bodyOf()) {
    if (p.score < rule.headlessKeypoint || HIPS.has(p.part)) continue;
    for (const oy of [-r, 0, r]) {
      for (const ox of [-r, 0, r]) {
        const x = Math.round(p.x) + ox, y = Math.round(p.y) + oy;
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        const l = regions.labels[y * w + x]!;
        holds[l] = 1;
        if (p.part < HEAD_PARTS) head[l] = 1;
      }
    }
  }
  if (!large.some((b, l) => b && head[l])) return cleared;
  for (let l = 1; l < regions.sizes.length; l++) {
    if (!large[l] || holds[l]) continue;
    const box = squareAround(regions.labels, l, w, h);
    if (meanOfRegion(await lookCloser(box), box, regions.labels, l, w) < rule.headless) cleared[l] = true;
  }
  return cleared;
}

/**
 * rule.detachedFill: the pieces of the cut-out (matte >= 0.5, 8-connected) holding no pixel of ISNet's kept
 * regions were made opaque by the rule alone; they go back to ISNet's matte (`isnet`), and so does the soft
 * edge within a short reach of them that lies farther than that from what stays.
 */
function clearDetached(matte: Matte, isnet: Float32Array | null, kept: (i: number) => boolean, notPerson: Uint8Array, rule: PersonRule): void {
  if (!isnet) return;
  const { width: w, height: h, data: d } = matte;
  const pieces = components(w, h, (i) => d[i]! >= 0.5, true);
  const anchored = new Uint8Array(pieces.sizes.length);
  for (let i = 0; i < d.length; i++) if (kept(i) && isnet[i]! >= 0.5) anchored[pieces.labels[i]!] = 1;
  const detached = pieces.sizes.map((_, l) => l > 0 && !anchored[l]);
  // Most photos have none: no distance transform need run.
  if (!detached.some(Boolean)) return;
  const stays = maskWhere(pieces.labels.length, (i) => pieces.labels[i]! > 0 && !detached[pieces.labels[i]!]);
  const gone = backToIsnet(matte, isnet, maskWhere(pieces.labels.length, (i) => !!detached[pieces.labels[i]!]), rule, stays);
  for (let i = 0; i < d.length; i++) {
    if (gone[i]) notPerson[i] = 1;
  }
}

/**
 * rule.bodilessFill: the large pieces the fills made opaque over ISNet's sure background that hold no keypoint of the people
 * the pose model finds and lie apart from their skeletons (person-bodiless.ts) go back to ISNet's matte, with their soft edge,
 * when every person found is a whole body (a knee or an ankle found). The pose model is asked only when such a large piece exists.
 */
async function clearBodiless(matte: Matte, isnet: Float32Array, notPerson: Uint8Array, bodyOf: () => Promise<BodyPoint[]>, rule: PersonRule): Promise<void> {
  const { width: w, height: h, data: d } = matte;
  // Plain loops (as matte-ops.ts maskWhere): this runs on every photo.
  const added = new Uint8Array(d.length), sure = new Uint8Array(d.length);
  let total = 0;
  for (let i = 0; i < d.length; i++) {
    if (d[i]! < 0.5 || isnet[i]! >= 0.5) continue;
    added[i] = 1;
    if (isnet[i]! < 0.05) {
      sure[i] = 1;
      total++;
    }
  }
  // Most photos have too little added over ISNet's sure background for any piece to be judged.
  if (total < BODILESS_MIN_AREA * w * h) return;
  const pieces = largeAdditions(added, sure, w, h, BODILESS_MIN_AREA * w * h);
  if (!pieces) return;
  const points = await bodyOf();
  const { near, far } = farBehindPeople(points, h, rule);
  const people = [...near, ...far];
  // Only whole bodies: when someone's knees and ankles are not found (a portrait cut at the chest, legs out of the frame), a
  // large addition without keypoints may be the rest of their body (a white shirt ISNet missed below the shoulders).
  if (!people.length || people.some((p) => p.foot === null)) return;
  const confident = points.filter((p) => p.score >= rule.headlessKeypoint);
  const margin = Math.max(1, Math.round(0.01 * Math.max(w, h)));
  const gone = bodilessPieces(pieces, confident, people, w, h, { margin, reach: rule.bodilessFill, nearShare: BODILESS_NEAR_SHARE });
  if (!gone) return;
  const cleared = backToIsnet(matte, isnet, gone, rule);
  for (let i = 0; i < d.length; i++) if (cleared[i]) notPerson[i] = 1;
}

/** clearBodiless judges a piece with at least this share of the frame over ISNet's sure background... */
const BODILESS_MIN_AREA = 0.01;
/** ...and clears it when at most this share of it lies near a skeleton. */
const BODILESS_NEAR_SHARE = 0.1;

/**
 * rule.softBehind: the pieces the rule added to ISNet's cut-out that are much blurrier than ISNet's kept subject (a person
 * behind, out of focus) go back to ISNet's matte, with their soft edge.
 */
function clearSoftBehind(matte: Matte, isnet: Float32Array, rgb: Uint8Array, kept: (i: number) => boolean, notPerson: Uint8Array, rule: PersonRule): void {
  const { width: w, height: h, data: d } = matte;
  const added = new Uint8Array(d.length), subject = new Uint8Array(d.length), leftOut = new Uint8Array(d.length);
  for (let i = 0; i < d.length; i++) {
    if (d[i]! < 0.5) continue;
    if (isnet[i]! < 0.5) added[i] = 1;
    else if (kept(i)) subject[i] = 1;
    if (isnet[i]! < 0.05) leftOut[i] = 1;
  }
  // Only the pieces ISNet left out are judged: a piece it half kept is its own subject's faded part (rule.softBehindSure).
  const soft = softAdditions(added, subject, rgb, w, h, { ratio: rule.softBehind, minArea: rule.defocusMinArea, leftOut, leftOutShare: rule.softBehindSure });
  if (!soft) return;
  const gone = backToIsnet(matte, isnet, soft, rule);
  for (let i = 0; i < d.length; i++) if (gone[i]) notPerson[i] = 1;
}

/** MoveNet's (COCO's) bones between keypoints: a person's skeleton for `clearFarBehind`. */
const BONES: [number, number][] = [[0, 1], [0, 2], [1, 3], [2, 4], [5, 6], [5, 7], [7, 9], [6, 8], [8, 10], [5, 11], [6, 12], [11, 12], [11, 13], [13, 15], [12, 14], [14, 16]];
const KNEES_ANKLES = [13, 14, 15, 16];

/**
 * One person of the pose model's for `farBehindPeople`: confident keypoints by part, scale (pixels), lowest knee or ankle (y),
 * and their skeleton as segments for pose-arms.ts `armDistance` (radius 0): the bones between confident keypoints, and each
 * keypoint as a segment of no length (a lone keypoint counts too).
 */
export type PosePerson = { points: Map<number, BodyPoint>; scale: number; foot: number | null; footAt: BodyPoint | null; skeleton: ArmSegment[] };

/**
 * rule.farBehind: the pose model's people (bodyPoints, grouped by `who`), split into those far behind the subjects
 * (see PERSON_RULE.farBehind) and the others (`near`, every person with a confident keypoint).
 */
export function farBehindPeople(points: BodyPoint[], h: number, rule: PersonRule): { far: PosePerson[]; near: PosePerson[] } {
  const byWho = new Map<number, Map<number, BodyPoint>>();
  for (const p of points) {
    if (p.score < rule.headlessKeypoint) continue;
    const who = p.who ?? 0;
    if (!byWho.has(who)) byWho.set(who, new Map());
    byWho.get(who)!.set(p.part, p);
  }
  const people: PosePerson[] = [...byWho.values()].map((pts) => {
    const d = (a: number, b: number) => (pts.has(a) && pts.has(b) ? Math.hypot(pts.get(a)!.x - pts.get(b)!.x, pts.get(a)!.y - pts.get(b)!.y) : 0);
    // Shoulders, or the head's spacing scaled to a shoulder width (ears ~0.45 of it, eyes ~0.2).
    const scale = Math.max(d(5, 6), d(3, 4) * 2.2, d(1, 2) * 5);
    const feet = KNEES_ANKLES.filter((k) => pts.has(k)).map((k) => pts.get(k)!);
    const footAt = feet.length ? feet.reduce((a, b) => (b.y > a.y ? b : a)) : null;
    const skeleton = [...pts.values()].map((q) => ({ x0: q.x, y0: q.y, x1: q.x, y1: q.y, radius: 0 }));
    for (const [a, b] of BONES) {
      const u = pts.get(a), v = pts.get(b);
      if (u && v) skeleton.push({ x0: u.x, y0: u.y, x1: v.x, y1: v.y, radius: 0 });
    }
    return { points: pts, scale, foot: footAt ? footAt.y : null, footAt, skeleton };
  });
  const standing = people.filter((p) => p.foot !== null && p.scale > 0);
  if (standing.length < 2) return { far: [], near: people };
  const front = standing.reduce((a, b) => (b.scale > a.scale ? b : a));
  // Standing apart on the ground: a child held in the arms or carried has their feet on the holder's body.
  const apart = (p: PosePerson) => people.every((q) => q === p || q.scale <= 0 || skeletonDistance(q, p.footAt!.x, p.footAt!.y) > rule.farFootClear * q.scale);
  const isFar = (p: PosePerson) => p !== front && p.foot !== null && p.scale > 0 && p.scale < rule.farBehind * front.scale && front.foot! - p.foot > rule.farFootRise * h && apart(p);
  return { far: people.filter(isFar), near: people.filter((p) => !isFar(p)) };
}

/** Distance from (x, y) to a person's skeleton: its bones between confident keypoints, and lone keypoints. */
const skeletonDistance = (p: PosePerson, x: number, y: number) => armDistance(p.skeleton, x, y);

/**
 * rule.farBehind: the cut-out within `farReach` × scale of a far person's skeleton, where no near person's skeleton
 * is nearer (distances in each person's own scale), is cleared, and taken out of the person mask and of the hole filling.
 */
function clearFarBehind(matte: Matte, person: Float32Array, mask: Uint8Array, notPerson: Uint8Array, far: PosePerson[], near: PosePerson[], rule: PersonRule): void {
  const { width: w, height: h, data: d } = matte;
  for (const p of far) {
    const reach = rule.farReach * p.scale;
    const xs = [...p.points.values()].map((q) => q.x), ys = [...p.points.values()].map((q) => q.y);
    const x0 = Math.max(0, Math.floor(Math.min(...xs) - reach)), x1 = Math.min(w - 1, Math.ceil(Math.max(...xs) + reach));
    const y0 = Math.max(0, Math.floor(Math.min(...ys) - reach)), y1 = Math.min(h - 1, Math.ceil(Math.max(...ys) + reach));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const own = skeletonDistance(p, x, y);
        // Nearer in each person's own scale: a subject's hair beside a far person's shoulder stays the subject's.
        if (own > reach || near.some((q) => skeletonDistance(q, x, y) / (q.scale || p.scale) <= own / p.scale)) continue;
        const i = y * w + x;
        d[i] = 0;
        person[i] = 0;
        mask[i] = 0;
        notPerson[i] = 1;
      }
    }
  }
}

/**
 * What clearing `gone` takes away: `gone` itself and its soft edge, the matte's pixels under 0.5 within `reach` of
 * it that lie farther than `reach` from what `stays` (clearHeadless's regions, clearDetached's pieces).
 */
function withSoftEdge(gone: Uint8Array, stays: Uint8Array, reach: number, matte: Matte): Uint8Array {
  const { width: w, height: h, data: d } = matte;
  const near = distanceToMask(gone, w, h), nearStays = distanceToMask(stays, w, h);
  return maskWhere(gone.length, (i) => gone[i]! === 1 || (near[i]! <= reach && nearStays[i]! > reach && d[i]! < 0.5));
}

/**
 * A fill taken back: `gone` and its soft edge (withSoftEdge, within the fills' falloff reach) go back to ISNet's matte
 * where that is lower (clearDetached, clearGround, clearBetween's pieces, clearSoftBehind, clearBodiless). The soft edge stops
 * short of `stays`: by default, whatever the cut-out keeps apart from `gone`. Returns what was taken back.
 */
function backToIsnet(matte: Matte, isnet: Float32Array, gone: Uint8Array, rule: PersonRule, stays?: Uint8Array): Uint8Array {
  const d = matte.data;
  stays ??= maskWhere(d.length, (i) => d[i]! >= 0.5 && !gone[i]);
  const cleared = withSoftEdge(gone, stays, Math.max(2, (rule.band * Math.max(matte.width, matte.height)) / 3), matte);
  for (let i = 0; i < d.length; i++) if (cleared[i]) d[i] = Math.min(d[i]!, isnet[i]!);
  return cleared;
}

/** The gap cue's colours are taken within this reach of the gaps (share of the long side). */
const GAP_NEAR = 0.15;
/** A gap hangs under a bridge at most this thick (share of the long side: joined hands) in at least this share of its columns. */
const GAP_BRIDGE = 0.15;
const GAP_BRIDGE_SHARE = 0.4;

/**
 * rule.gapColour: ISNet's sure background that the rule filled, in a piece of ISNet's background the
 * people enclose (at most rule.gapOpenShare of the piece outside the person mask), goes back to ISNet's
 * matte when its colours are the background's: per pixel, its colour bin holds at least rule.gapColour
 * times the share of the background's pixels (ISNet's sure background outside the person mask) that it
 * holds of the kept people's (ISNet's sure foreground), over most (60 %) of the piece's filled pixels.
 */
function clearGaps(matte: Matte, isnet: Float32Array, mask: Uint8Array, rgb: Uint8Array, rule: PersonRule): void {
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const pieces = components(w, h, (i) => isnet[i]! < 0.5, true);
  const outsideMask = new Float64Array(pieces.sizes.length);
  const filledSure = new Float64Array(pieces.sizes.length);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (!l) continue;
    if (!mask[i]) outsideMask[l]! += 1;
    if (d[i]! >= 0.5 && isnet[i]! < 0.05) filledSure[l]! += 1;
  }
  const enclosed = pieces.sizes.map((s, l) => l > 0 && filledSure[l]! >= 0.002 * n && outsideMask[l]! <= rule.gapOpenShare * s);
  // Most photos have no such piece: nothing below (a column table per piece, two passes) need run.
  if (!enclosed.some(Boolean)) return;
  // Under a thin bridge: above the piece, in most of its columns, ISNet's person is only a thin band (joined
  // hands or arms) with ISNet's background above it, not a head and shoulders (a dark jacket ISNet missed).
  const top = new Int32Array(pieces.sizes.length * w).fill(-1);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (!enclosed[l]) continue;
    const x = i % w;
    if (top[l * w + x] === -1) top[l * w + x] = (i - x) / w;
  }
  const bridge = GAP_BRIDGE * Math.max(w, h);
  const columns = new Float64Array(pieces.sizes.length), thin = new Float64Array(pieces.sizes.length);
  for (let l = 1; l < pieces.sizes.length; l++) {
    if (!enclosed[l]) continue;
    for (let x = 0; x < w; x++) {
      const y0 = top[l * w + x]!;
      if (y0 < 0) continue;
      columns[l]! += 1;
      let y = y0 - 1;
      while (y >= 0 && isnet[y * w + x]! >= 0.5 && y0 - y <= bridge) y--;
      if (y >= 0 && y0 - y <= bridge && isnet[y * w + x]! < 0.5) thin[l]! += 1;
    }
  }
  const gap = enclosed.map((e, l) => e && thin[l]! >= GAP_BRIDGE_SHARE * columns[l]!);
  if (!gap.some(Boolean)) return;
  // Colours near the gaps only: the people beside them, the background around those people.
  const near = distanceToMask(maskWhere(pieces.labels.length, (i) => !!gap[pieces.labels[i]!]), w, h);
  const radius = GAP_NEAR * Math.max(w, h);
  const colours = nearbyColours(rgb, near, radius, (i) => isnet[i]! >= 0.9 && d[i]! >= 0.5, (i) => isnet[i]! < 0.05 && !mask[i]);
  if (!colours) return;
  const likeBg = backgroundLike(pieces, (i, l) => gap[l]! && d[i]! >= 0.5 && isnet[i]! < 0.05, rgb, colours, rule.gapColour);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (gap[l] && likeBg[l]! >= 0.6 * filledSure[l]!) d[i] = isnet[i]!;
  }
}

/** clearGround: a piece the rule added is judged when it covers at least this share of the frame... */
const GROUND_MIN_AREA = 0.005;
/** ...at least this share of it is ISNet's sure background (under 0.05)... */
const GROUND_SURE = 0.5;
/**
 * ...and in at least this share of its columns ISNet's kept person lies above its lowest pixel: the piece lies within the
 * columns of a body lying or sitting on it (v77 0.92), not spreading beyond what ISNet found below a head, as a dark
 * jacket's shoulders do (unseen v34 0.58, a dark jacket on a dark forest, whose colours are the background's).
 */
const GROUND_UNDER = 0.8;
/**
 * It is the ground when at least this share of its sure-background pixels have the background's colours (at
 * rule.groundColour 10: v77 0.98; v68's white sweater ISNet missed against white clouds 0.50, v43's grey shirt 0.42,
 * the sculpture photo's grey pieces 0.00).
 */
const GROUND_LIKE = 0.8;

/**
 * rule.groundColour: the pieces the rule's fills added (matte ≥ 0.5 where ISNet is under 0.5, 8-connected) that are
 * mostly ISNet's sure background, run out of the frame at the bottom and lie under ISNet's kept person (`kept`), and
 * whose colours are the background's next to them rather than the kept people's (per sure-background pixel, its
 * colour bin holds at least rule.groundColour times the share of the nearby background's pixels, ISNet's sure
 * background outside the person mask, that it holds of the people's, ISNet's sure kept foreground; over GROUND_LIKE
 * of them), go back to ISNet's matte, with the fills' soft edge along them: the ground under a person lying or
 * sitting low, which the 256 px person mask spills over. The colours are counted within GAP_NEAR of those pieces.
 */
function clearGround(matte: Matte, isnet: Float32Array, mask: Uint8Array, rgb: Uint8Array, kept: (i: number) => boolean, rule: PersonRule): void {
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const pieces = components(w, h, (i) => d[i]! >= 0.5 && isnet[i]! < 0.5, true);
  const sure = new Float64Array(pieces.sizes.length), bottom = new Uint8Array(pieces.sizes.length);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (!l) continue;
    if (isnet[i]! < 0.05) sure[l]! += 1;
    if (i >= n - w) bottom[l] = 1;
  }
  let candidate = pieces.sizes.map((s, l) => l > 0 && s >= GROUND_MIN_AREA * n && bottom[l] === 1 && sure[l]! >= GROUND_SURE * s);
  // Most photos have none: nothing below need run.
  if (!candidate.some(Boolean)) return;
  // Under ISNet's kept person: in most of the piece's columns, the person is above the piece's lowest pixel there.
  const personTop = new Int32Array(w).fill(h);
  let left = w, right = -1, top = h, low = -1;
  for (let i = 0; i < n; i++) {
    if (isnet[i]! < 0.5 || !kept(i)) continue;
    const x = i % w, y = (i - x) / w;
    if (personTop[x] === h) personTop[x] = y;
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    low = Math.max(low, y);
  }
  // A standing or sitting person's box is taller than wide: what lies under them is their legs as often as the ground.
  if (right < 0 || right - left + 1 < rule.groundLying * (low - top + 1)) return;
  // The piece's lowest pixel in each column (a thin halo of the mask along the person's top may be part of it).
  const pieceBottom = new Int32Array(pieces.sizes.length * w).fill(-1);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (!candidate[l]) continue;
    const x = i % w;
    pieceBottom[l * w + x] = (i - x) / w;
  }
  const columns = new Float64Array(pieces.sizes.length), under = new Float64Array(pieces.sizes.length);
  for (let l = 1; l < pieces.sizes.length; l++) {
    if (!candidate[l]) continue;
    for (let x = 0; x < w; x++) {
      const y1 = pieceBottom[l * w + x]!;
      if (y1 < 0) continue;
      columns[l]! += 1;
      if (personTop[x]! < y1) under[l]! += 1;
    }
  }
  candidate = candidate.map((c, l) => c && under[l]! >= GROUND_UNDER * columns[l]!);
  if (!candidate.some(Boolean)) return;
  // Colours near the pieces: the kept people beside them, the background around them (outside the person mask).
  const near = distanceToMask(maskWhere(pieces.labels.length, (i) => !!candidate[pieces.labels[i]!]), w, h);
  const radius = GAP_NEAR * Math.max(w, h);
  const colours = nearbyColours(rgb, near, radius, (i) => isnet[i]! >= 0.9 && d[i]! >= 0.5 && kept(i), (i) => isnet[i]! < 0.05 && !mask[i]);
  if (!colours) return;
  const likeBg = backgroundLike(pieces, (i, l) => candidate[l]! && isnet[i]! < 0.05, rgb, colours, rule.groundColour);
  const ground = candidate.map((c, l) => c && likeBg[l]! >= GROUND_LIKE * sure[l]!);
  if (!ground.some(Boolean)) return;
  backToIsnet(matte, isnet, maskWhere(pieces.labels.length, (i) => !!ground[pieces.labels[i]!]), rule);
}

/** Far parts of reaching pieces, for a test of them all at once: their labels (0 none), the ones still taken, the frame's width. */
type PieceTest = { labels: Int32Array; taken: boolean[]; width: number };

/**
 * Of the far parts still taken, those with at least `share` of their pixels along an arm the pose
 * model found (rule.poseArmShare): none when it finds no arm. Runs the pose model (once a photo) only
 * when some part is taken.
 */
async function alongAnArm(piece: PieceTest, arms: () => Promise<ArmSegment[]>, share: number): Promise<boolean[]> {
  if (!piece.taken.some(Boolean)) return piece.taken;
  const segments = await arms();
  const along = new Float64Array(piece.taken.length), size = new Float64Array(piece.taken.length);
  for (let i = 0; i < piece.labels.length; i++) {
    const l = piece.labels[i]!;
    if (!piece.taken[l]) continue;
    size[l]! += 1;
    const x = i % piece.width;
    if (armDistance(segments, x, (i - x) / piece.width) <= 0) along[l]! += 1;
  }
  return piece.taken.map((t, l) => t && along[l]! >= share * size[l]!);
}

/** Which pieces (labels of `pieces`) have a pixel beside one the cut-out keeps (matte ≥ 0.5; 4-neighbours). */
function joinedToKept(matte: Matte, pieces: { labels: Int32Array; sizes: number[] }): Uint8Array {
  const { width: w, data: d } = matte;
  const joined = new Uint8Array(pieces.sizes.length);
  for (let i = 0; i < d.length; i++) {
    const l = pieces.labels[i]!;
    if (!l) continue;
    const x = i % w;
    if ((x > 0 && d[i - 1]! >= 0.5) || (x < w - 1 && d[i + 1]! >= 0.5) || (i >= w && d[i - w]! >= 0.5) || (i + w < d.length && d[i + w]! >= 0.5)) joined[l] = 1;
  }
  return joined;
}

/**
 * Along the arms the pose model found (within half their radius of the axis), where the person model is
 * at least `threshold` sure and ISNet missed it, in a piece joined to what the cut-out keeps: opaque.
 */
function growAlongArms(matte: Matte, both: (i: number) => number, segments: ArmSegment[], notPerson: Uint8Array, allowed: (i: number) => boolean, threshold: number): void {
  if (!segments.length) return;
  const { width: w, height: h, data: d } = matte;
  const narrow = segments.map((s) => ({ ...s, radius: s.radius / 2 }));
  const along = components(w, h, (i) => d[i]! < 0.5 && !notPerson[i] && allowed(i) && both(i) >= threshold && armDistance(narrow, i % w, Math.floor(i / w)) <= 0, true);
  const joined = joinedToKept(matte, along);
  for (let i = 0; i < d.length; i++) if (joined[along.labels[i]!]) d[i] = 1;
}

/**
 * The pieces of `candidate` that touch what the cut-out keeps (matte ≥ 0.5), where they reach farther
 * than `reach` from it: each such far part that `accept`s (its size, its farthest distance), does not
 * run out of the frame (a table under the hands, v107: not a limb) and, with a pose cue, lies along an
 * arm (`alongArms`), with the candidate pixels within the reach of it that join it to the kept cut-out.
 */
async function reachingParts(
  matte: Matte,
  candidate: (i: number) => boolean,
  reach: number,
  accept: (size: number, farthest: number) => boolean,
  alongArms?: (piece: PieceTest) => Promise<boolean[]>,
): Promise<Uint8Array> {
  const { width: w, height: h, data: d } = matte;
  const n = w * h;
  const kept = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (d[i]! >= 0.5) kept[i] = 1;
  const toKept = distanceToMask(kept, w, h);
  const pieces = components(w, h, candidate, true);
  const joined = new Uint8Array(pieces.sizes.length);
  for (let i = 0; i < n; i++) if (pieces.labels[i] && toKept[i]! <= 1.5) joined[pieces.labels[i]!] = 1;
  const beyond = components(w, h, (i) => joined[pieces.labels[i]!] === 1 && toKept[i]! > reach, true);
  const edge = new Uint8Array(beyond.sizes.length);
  const farthest = new Float32Array(beyond.sizes.length);
  for (let i = 0; i < n; i++) {
    const l = beyond.labels[i]!;
    const x = i % w;
    if (x === 0 || x === w - 1 || i < w || i >= n - w) edge[l] = 1;
    if (toKept[i]! > farthest[l]!) farthest[l] = toKept[i]!;
  }
  let taken = beyond.sizes.map((s, l) => l > 0 && !edge[l] && accept(s, farthest[l]!));
  if (alongArms) taken = await alongArms({ labels: beyond.labels, taken, width: w });
  const seed = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (taken[beyond.labels[i]!]) seed[i] = 1;
  const toSeed = distanceToMask(seed, w, h);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (joined[pieces.labels[i]!] && toSeed[i]! <= reach + 1) out[i] = 1;
  return out;
}

/**
 * What the sure fill would add (`filled`, cleared where refused), judged by its thick parts
 * (deeper than `sureThinMax`, so thin strips along the person's edge do not join them into one
 * long piece): a limb (long for its thickness: a raised arm, a hand) is added; a thick, round
 * one is the 256 px mask's overshoot (the flat background between a man's head and a sculpture)
 * and stays out with what lies within `sureThinMax` of it, reported as a removed person. Thin
 * parts are added, unless they border such a refused piece (`sureRim`).
 */
function keepLimbs(filled: Uint8Array, w: number, h: number, rule: PersonRule): void {
  const n = w * h;
  const long = Math.max(w, h);
  const thin = rule.sureThinMax * long;
  const depth = distanceToMask(maskWhere(filled.length, (i) => filled[i] === 0), w, h);
  const cores = components(w, h, (i) => depth[i]! > thin, true);
  const coreDepth = new Float32Array(cores.sizes.length);
  for (let i = 0; i < n; i++) if (depth[i]! > coreDepth[cores.labels[i]!]!) coreDepth[cores.labels[i]!] = depth[i]!;
  const roundCore = new Uint8Array(w * h);
  const round = new Uint8Array(cores.sizes.length);
  for (const { label, box } of boxesOf(cores.labels, cores.sizes.length, w)) {
    const t = coreDepth[label]! - thin; // the core's own half-thickness
    if (rule.sureFrameBottom && box.top + box.height === h) continue; // a body running out of the frame
    if (Math.hypot(box.width, box.height) < rule.sureLimbElongation * 2 * Math.max(1, t)) round[label] = 1;
  }
  for (let i = 0; i < n; i++) if (round[cores.labels[i]!]) roundCore[i] = 1;
  const nearRound = distanceToMask(roundCore, w, h);
  const rejected = new Uint8Array(w * h);
  for (let i = 0; i < n; i++) {
    if (filled[i] && nearRound[i]! <= thin + 1) {
      filled[i] = 0;
      rejected[i] = 1;
    }
  }
  if (rule.sureRim) {
    // What is left of the fill, piece by piece: a piece that borders the refused overshoot is that overshoot's rim, not a limb.
    const pieces = components(w, h, (i) => filled[i] === 1, true);
    const rim = new Uint8Array(pieces.sizes.length);
    for (let i = 0; i < n; i++) {
      const l = pieces.labels[i]!;
      if (!l) continue;
      const x = i % w, y = (i - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= w) continue;
          if (rejected[ny * w + nx]) rim[l] = 1;
        }
      }
    }
    for (let i = 0; i < n; i++) if (rim[pieces.labels[i]!]) filled[i] = 0;
  }
}

/**
 * Hysteresis for the sure fill (rule.sureGrow): a sure piece that does not touch the kept cut-out
 * is an island; where the person model's lower threshold joins an island to the kept cut-out
 * through what ISNet missed, the island and that lower-threshold piece are returned (the limb test
 * and the rim rule then judge them apart from the rest of the fill).
 */
function growSureIslands(
  matte: Matte,
  both: (i: number) => number,
  sure: { labels: Int32Array; sizes: number[] },
  touches: Uint8Array,
  notPerson: Uint8Array,
  allowed: (i: number) => boolean,
  rule: PersonRule,
): Uint8Array {
  const { width: w, height: h, data: d } = matte;
  // Through what ISNet missed only: the unsure halo around a body ISNet kept is joined to an
  // island only where it runs on into the arm, not through the body.
  const grown = components(w, h, (i) => d[i]! < 0.5 && !notPerson[i] && allowed(i) && both(i) >= rule.sureGrow, true);
  const filled = new Uint8Array(w * h);
  const joined = joinedToKept(matte, grown);
  // The islands must be a real part (a hand, not a speck of a person behind), and what joins them no
  // more than a few times their size: a few sure pixels do not carry a large unsure area with them.
  const islandArea = new Float64Array(sure.sizes.length);
  for (let i = 0; i < d.length; i++) {
    const s = sure.labels[i]!;
    if (s && !touches[s]) islandArea[s]! += 1;
  }
  const islandSure = new Float64Array(grown.sizes.length);
  for (let i = 0; i < d.length; i++) {
    const s = sure.labels[i]!, g = grown.labels[i]!;
    if (g && s && !touches[s] && islandArea[s]! >= rule.sureIslandMinArea * w * h) islandSure[g]! += 1;
  }
  for (let i = 0; i < d.length; i++) {
    const g = grown.labels[i]!;
    if (g && joined[g] && islandSure[g]! > 0 && grown.sizes[g]! <= rule.sureGrowMaxRatio * islandSure[g]!) filled[i] = 1;
  }
  return filled;
}

/**
 * A limb the person model is only fairly sure of (≥ rule.sureGrow) that ISNet missed and that
 * reaches out farther than rule.limbReach from what the cut-out keeps (v261: a raised arm against
 * a bright window, 0.5-0.8): the part beyond that reach and what joins it to the kept cut-out (the
 * pixels within the reach of it), when that part is at most rule.limbMaxArea of the frame and reaches
 * twice as far at its farthest. The person model's halo along a body is a band of even width that
 * does not reach that far, so edges stay ISNet's.
 */
function growReachingLimbs(
  matte: Matte,
  both: (i: number) => number,
  notPerson: Uint8Array,
  allowed: (i: number) => boolean,
  rule: PersonRule,
  alongArms?: (piece: PieceTest) => Promise<boolean[]>,
): Promise<Uint8Array> {
  const { width: w, height: h, data: d } = matte;
  const reach = rule.limbReach * Math.max(w, h);
  const unsure = (i: number) => d[i]! < 0.5 && !notPerson[i] && allowed(i) && both(i) >= rule.sureGrow;
  // Reaching out (twice the reach from the cut-out at its farthest), not a band of even width along the body.
  return reachingParts(matte, unsure, reach, (size, farthest) => size <= rule.limbMaxArea * w * h && farthest >= 2 * reach, alongArms);
}

/** The bounding box of every label (1..count-1) that has pixels. */
function boxesOf(labels: Int32Array, count: number, w: number): { label: number; box: Box }[] {
  const x0 = new Int32Array(count).fill(w), y0 = new Int32Array(count).fill(labels.length), x1 = new Int32Array(count).fill(-1), y1 = new Int32Array(count).fill(-1);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i]!;
    if (l === 0) continue;
    const x = i % w, y = (i - x) / w;
    if (x < x0[l]!) x0[l] = x;
    if (x > x1[l]!) x1[l] = x;
    if (y < y0[l]!) y0[l] = y;
    if (y > y1[l]!) y1[l] = y;
  }
  const out: { label: number; box: Box }[] = [];
  for (let l = 1; l < count; l++) if (x1[l]! >= 0) out.push({ label: l, box: { left: x0[l]!, top: y0[l]!, width: x1[l]! - x0[l]! + 1, height: y1[l]! - y0[l]! + 1 } });
  return out;
}

/** A square (as far as the frame allows) around a region, with a 20 % margin: the person model's input is square. */
/**
 * The mean of a closer look `q` (box-sized) over the pixels of region `label` inside `box`: the person
 * model's own verdict on that region. NaN when none lies inside (squareAround's box always holds its
 * region), which passes no ">=" or "<" test.
 */
function meanOfRegion(q: Float32Array, box: Box, labels: Int32Array, label: number, w: number): number {
  let sum = 0, n = 0;
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      if (labels[(box.top + y) * w + box.left + x] === label) {
        sum += q[y * box.width + x]!;
        n++;
      }
    }
  }
  return sum / n;
}

function squareAround(labels: Int32Array, label: number, w: number, h: number): Box {
  let x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] !== label) continue;
    const x = i % w, y = (i - x) / w;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const side = Math.min(w, h, Math.max(8, Math.round(Math.max(x1 - x0 + 1, y1 - y0 + 1) * 1.2)));
  const left = Math.max(0, Math.min(w - side, Math.round((x0 + x1 - side) / 2)));
  const top = Math.max(0, Math.min(h - side, Math.round((y0 + y1 - side) / 2)));
  return { left, top, width: side, height: side };
}
