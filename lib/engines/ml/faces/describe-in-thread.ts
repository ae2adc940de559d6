import { alignPointsFromMesh, chipTransform, extractChip, fitSimilarity, fivePointsFromMesh } from "./align";
import { decodeUprightForEmbedding } from "./decode-upright";
import { detectOnImage } from "./detect-in-thread";
import { REID_INPUT, REID_TEMPLATE, loadReidNet, type ReidNet } from "./reid-model";
import { normalise } from "./matching";
import type { FaceDescriptions } from "./types";

export type DescribeRequest = { bytes: Uint8Array; maxPixels: number; detectLongEdge: number; embedLongEdge: number; minScore: number; maxFaces: number };

let net: Promise<ReidNet> | null = null;

/** The recognition net (Intel's face-reidentification-retail-0095 on onnxruntime, reid-model.ts), loaded once per thread. */
export function recognitionNet(): Promise<ReidNet> {
  net ??= loadReidNet();
  net.catch(() => (net = null));
  return net;
}

/** Faces at most this many per batch through the net (each twice: as is and mirrored). */
const BATCH = 8;

/**
 * Decode upright once, detect (the same faces, order and filters as detectFaces),
 * align each face from five mesh points (eye centres, nose tip, mouth corners) onto the
 * net's 128 px template by a least-squares similarity transform, embed the chip and its
 * mirror image and average the two (unit) vectors, L2-normalise. The mirror costs one
 * more pass of the net (the dlib net before gained ROC AUC from it).
 * The blur measure (`sharpness`) stays on dlib's 150 px chip from eyes and mouth, where
 * the quality gate's bar was measured (lib/services/matching/quality-gates.ts).
 * Runs in the face worker.
 */
export async function describeInThread(req: DescribeRequest): Promise<FaceDescriptions> {
  const t0 = performance.now();
  const img = await decodeUprightForEmbedding(req.bytes, req);
  const t1 = performance.now();
  const { faces: all, meshes, rawCount } = await detectOnImage(img.detect, req.minScore);
  const faces = all.slice(0, req.maxFaces);
  const t2 = performance.now();
  const recog = await recognitionNet();
  const perFull = img.detect.scale / img.full.scale; // full-image pixels per detection pixel
  const sharpChips = await Promise.all(faces.map((f) => extractChip(img.full, chipTransform(alignPointsFromMesh(meshes.get(f)!, perFull)))));
  const chips = await Promise.all(faces.map((f) => extractChip(img.full, fitSimilarity(fivePointsFromMesh(meshes.get(f)!, perFull), [...REID_TEMPLATE]), REID_INPUT)));
  const embeddings: Float32Array[] = [];
  for (let i = 0; i < chips.length; i += BATCH) {
    const batch = chips.slice(i, i + BATCH);
    const out = await recog.embed([...batch, ...batch.map((c) => mirror(c, REID_INPUT))]);
    for (let j = 0; j < batch.length; j++) embeddings.push(mean2(normalise(out[j]!), normalise(out[j + batch.length]!)));
  }
  return {
    width: img.detect.width,
    height: img.detect.height,
    faces: faces.map((f, i) => ({ ...f, embedding: normalise(embeddings[i]!), sharpness: chipSharpness(sharpChips[i]!) })),
    rawCount,
    timingsMs: { decode: Math.round(t1 - t0), detect: Math.round(t2 - t1), embed: Math.round(performance.now() - t2) },
  };
}

/**
 * The variance of the Laplacian of the chip's grey levels between brows and chin
 * (the chip is aligned and scaled alike for every face, so the figure compares across
 * photos): little fine detail means a blurred or badly out-of-focus face, or one
 * enlarged from very few pixels. Rounded to a whole number.
 */
export function chipSharpness(chip: Uint8Array): number {
  const N = 150;
  const grey = (x: number, y: number) => {
    const o = (y * N + x) * 3;
    return 0.299 * chip[o]! + 0.587 * chip[o + 1]! + 0.114 * chip[o + 2]!;
  };
  let sum = 0, sumSq = 0, n = 0;
  for (let y = 40; y < 115; y++) {
    for (let x = 35; x < 115; x++) {
      const l = 4 * grey(x, y) - grey(x - 1, y) - grey(x + 1, y) - grey(x, y - 1) - grey(x, y + 1);
      sum += l;
      sumSq += l * l;
      n++;
    }
  }
  return Math.round(sumSq / n - (sum / n) ** 2);
}

export function mirror(chip: Uint8Array, N: number): Uint8Array {
  const out = new Uint8Array(chip.length);
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) out.set(chip.subarray((y * N + x) * 3, (y * N + x) * 3 + 3), (y * N + N - 1 - x) * 3);
  return out;
}
function mean2(a: Float32Array, b: Float32Array): Float32Array {
  return a.map((v, i) => (v + b[i]!) / 2);
}
