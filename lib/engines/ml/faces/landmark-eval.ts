import fs from "node:fs";
import path from "node:path";
import type { Box, FaceDetection, Point } from "./types";

/**
 * Scores Face Crop's landmarks against human markup (scripts/evaluate-face-landmarks.ts,
 * and in CI on the committed subset, landmark-eval.test.ts). Errors are fractions of the
 * marked eye distance (inter-pupil), the usual normalisation of landmark benchmarks;
 * the crown also as a fraction of the marked crown-to-chin height where both are marked.
 *
 * Markup it reads from a folder:
 * - iBUG 68-point `.pts` files beside their images (300-W, HELEN, LFPW, AFW as
 *   distributed; `name.pts` or `name_2.pts` for `name.jpg|png`): eye centres are the
 *   means of points 37-42 and 43-48, the chin point 9 (1-based), no crown; their coordinates
 *   are 1-based pixel centres (the first pixel's centre is 1, 1, as menpo, iBUG's own reader,
 *   takes them), moved by half a pixel into the engine's coordinates (`ptsToPixels`);
 * - a `landmarks.json` `{ faces: [{ file, left_eye, right_eye, chin|null, crown|null }] }`
 *   (test/fixtures/faces/landmarks.json).
 */
export type MarkedFace = { file: string; leftEye: Point; rightEye: Point; chin: Point | null; crown: Point | null };

export type FaceScore = {
  file: string;
  found: boolean;
  eye?: number;
  chin?: number;
  /**
   * The chin's error along the face's axis (eye midpoint to marked chin) only: what moves
   * a crop's frame. iBUG's point 9 is the middle of the marked jaw line, which on a turned
   * or tilted head slides sideways along the jaw from the mesh's lowest point.
   */
  chinAlong?: number;
  crown?: number;
  /** Crown error as a share of the marked crown-to-chin height. */
  crownOfHead?: number;
  crownSource?: string;
  /** The detected face's yaw (degrees, 0 facing the camera). */
  yaw?: number;
};

/** Point helpers the evaluation scripts share (scripts/evaluate-*.ts). */
export const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
export const centroid = (ps: Point[]): Point => ({ x: ps.reduce((s, p) => s + p.x, 0) / ps.length, y: ps.reduce((s, p) => s + p.y, 0) / ps.length });
export const boxOf = (ps: Point[]): Box => {
  const xs = ps.map((p) => p.x);
  const ys = ps.map((p) => p.y);
  return { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
};

export function readPts(text: string): Point[] {
  const body = text.slice(text.indexOf("{") + 1, text.lastIndexOf("}"));
  return body
    .trim()
    .split(/\n/)
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter((v) => v.length === 2 && v.every(Number.isFinite))
    .map(([x, y]) => ({ x: x!, y: y! }));
}

/**
 * iBUG .pts coordinates (1-based pixel centres: the first pixel's centre is 1, 1; menpo, iBUG's own
 * reader, subtracts 1 for its 0-based centres) in the engine's coordinates, where the first pixel
 * spans 0-1 (its centre 0.5, 0.5): half a pixel up and left. On a large face half a pixel is
 * nothing; on AFW's small faces it is about a pixel of the jaw net's input (issue 37, bench/README.md).
 */
export function ptsToPixels(pts: Point[]): Point[] {
  return pts.map((p) => ({ x: p.x - 0.5, y: p.y - 0.5 }));
}

/** The marked faces of a folder (see the comment above), with their image files. */
export function readMarkup(dir: string, opts: { ptsAsWritten?: boolean } = {}): MarkedFace[] {
  const json = path.join(dir, "landmarks.json");
  if (fs.existsSync(json)) {
    type P = { x: number; y: number } | null;
    const { faces } = JSON.parse(fs.readFileSync(json, "utf8")) as { faces: { file: string; left_eye: P; right_eye: P; chin: P; crown: P }[] };
    return faces.map((f) => ({ file: path.join(dir, f.file), leftEye: f.left_eye!, rightEye: f.right_eye!, chin: f.chin, crown: f.crown }));
  }
  const out: MarkedFace[] = [];
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".pts")) {
        const stem = name.slice(0, -4);
        const image = [stem, stem.replace(/_\d+$/, "")].flatMap((s) => [".jpg", ".png", ".jpeg"].map((e) => path.join(d, s + e))).find((f) => fs.existsSync(f));
        const written = readPts(fs.readFileSync(p, "utf8"));
        // `ptsAsWritten`: the coordinates as the file has them (how scores before issue 37's fourth stop were made).
        const pts = opts.ptsAsWritten ? written : ptsToPixels(written);
        if (!image || pts.length !== 68) continue;
        // 0-based: 36-41 the image-left eye, 42-47 the image-right eye, 8 the chin.
        out.push({ file: image, leftEye: centroid(pts.slice(36, 42)), rightEye: centroid(pts.slice(42, 48)), chin: pts[8]!, crown: null });
      }
    }
  };
  walk(dir);
  return out;
}

/** The mean of the two eyes' errors, as a fraction of the marked eye distance. */
export function eyeError(leftEye: Point, rightEye: Point, marked: MarkedFace): number {
  return (dist(leftEye, marked.leftEye) + dist(rightEye, marked.rightEye)) / 2 / dist(marked.leftEye, marked.rightEye);
}

/** A chin's error (fraction of the marked eye distance), whole and along the face's axis (eye midpoint to marked chin). */
export function chinErrors(chin: Point, marked: Pick<MarkedFace, "leftEye" | "rightEye">, markedChin: Point): { chin: number; chinAlong: number } {
  const iod = dist(marked.leftEye, marked.rightEye);
  const mid = centroid([marked.leftEye, marked.rightEye]);
  const axis = { x: markedChin.x - mid.x, y: markedChin.y - mid.y };
  const along = Math.abs(((chin.x - markedChin.x) * axis.x + (chin.y - markedChin.y) * axis.y) / (Math.hypot(axis.x, axis.y) || 1));
  return { chin: dist(chin, markedChin) / iod, chinAlong: along / iod };
}

/**
 * Scores one marked face against a detection of its photo: the detected face whose eye
 * midpoint lies within half the marked eye distance of the marked one (else "not found").
 */
export function scoreFace(marked: MarkedFace, detection: Pick<FaceDetection, "faces">): FaceScore {
  const iod = dist(marked.leftEye, marked.rightEye);
  const mid = centroid([marked.leftEye, marked.rightEye]);
  const face = detection.faces.find((f) => dist(f.landmarks.eyeMid, mid) <= iod / 2);
  const file = path.basename(marked.file);
  if (!face) return { file, found: false };
  const l = face.landmarks;
  const score: FaceScore = { file, found: true, eye: eyeError(l.leftEye, l.rightEye, marked), crownSource: face.crownSource, yaw: face.yaw };
  if (marked.chin) Object.assign(score, chinErrors(l.chin, marked, marked.chin));
  if (marked.crown) {
    // Along the face's axis: how far too high or too low, which is what moves the frame.
    const up = { x: mid.x - (marked.chin ?? l.chin).x, y: mid.y - (marked.chin ?? l.chin).y };
    const n = Math.hypot(up.x, up.y) || 1;
    const along = Math.abs(((l.crown.x - marked.crown.x) * up.x + (l.crown.y - marked.crown.y) * up.y) / n);
    score.crown = along / iod;
    if (marked.chin) score.crownOfHead = along / dist(marked.crown, marked.chin);
  }
  return score;
}

export type EvalSummary = { faces: number; found: number; recall: number; eye: Stat; chin: Stat; chinAlong: Stat; crown: Stat; crownOfHead: Stat; crownFromMatte: number };
export type Stat = { n: number; median: number | null; p90: number | null };

function stat(values: (number | undefined)[]): Stat {
  const v = values.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
  const q = (p: number) => (v.length ? v[Math.min(v.length - 1, Math.floor(p * (v.length - 1) + 0.5))]! : null);
  // The median of an even count is the mean of the two middle values.
  const median = v.length ? (v[Math.floor((v.length - 1) / 2)]! + v[Math.ceil((v.length - 1) / 2)]!) / 2 : null;
  return { n: v.length, median, p90: q(0.9) };
}

export function summarise(scores: FaceScore[]): EvalSummary {
  const found = scores.filter((s) => s.found);
  return {
    faces: scores.length,
    found: found.length,
    recall: scores.length ? found.length / scores.length : 0,
    eye: stat(found.map((s) => s.eye)),
    chin: stat(found.map((s) => s.chin)),
    chinAlong: stat(found.map((s) => s.chinAlong)),
    crown: stat(found.map((s) => s.crown)),
    crownOfHead: stat(found.map((s) => s.crownOfHead)),
    crownFromMatte: found.filter((s) => s.crownSource === "matte").length,
  };
}

/** The summary as the bench README's table row(s). */
export function summaryTable(name: string, s: EvalSummary): string {
  const f = (x: Stat) => (x.n ? `${x.median!.toFixed(3)} / ${x.p90!.toFixed(3)} (${x.n})` : "n/a");
  return [
    "| set | faces | recall | eye error, median / p90 (n) | chin error | chin error along the face's axis | crown error | crown error, of crown-to-chin | crown from the matte |",
    "|---|---|---|---|---|---|---|---|---|",
    `| ${name} | ${s.faces} | ${(s.recall * 100).toFixed(1)} % | ${f(s.eye)} | ${f(s.chin)} | ${f(s.chinAlong)} | ${f(s.crown)} | ${f(s.crownOfHead)} | ${s.crownFromMatte} of ${s.found} |`,
  ].join("\n");
}
