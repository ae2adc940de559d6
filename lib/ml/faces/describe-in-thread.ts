import { alignPointsFromMesh, chipTransform, extractChip } from "./align";
import { decodeUprightForEmbedding } from "./decode-upright";
import { detectOnImage, faceModel } from "./detect-in-thread";
import { loadRecognitionNet, type RecognitionNet } from "./recognition-model";
import { normalise } from "./matching";
import type { FaceDescriptions } from "./types";

export type DescribeRequest = { bytes: Uint8Array; maxPixels: number; detectLongEdge: number; embedLongEdge: number; minScore: number; maxFaces: number };

let net: Promise<RecognitionNet> | null = null;

/** The recognition net, loaded once per thread on the detector's tfjs (see recognition-model.ts). */
export function recognitionNet(): Promise<RecognitionNet> {
  net ??= faceModel().then((human) => loadRecognitionNet(human.tf));
  return net;
}

/** Faces at most this many per batch through the net (memory: ~30 MB of activations a face). */
const BATCH = 8;

/**
 * Decode upright once, detect (the same faces, order and filters as detectFaces),
 * align each face from its eyes and mouth onto dlib's chip, embed, L2-normalise.
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
  const chips = await Promise.all(faces.map((f) => extractChip(img.full, chipTransform(alignPointsFromMesh(meshes.get(f)!, perFull)))));
  const embeddings: Float32Array[] = [];
  for (let i = 0; i < chips.length; i += BATCH) embeddings.push(...(await recog.embed(chips.slice(i, i + BATCH))));
  return {
    width: img.detect.width,
    height: img.detect.height,
    faces: faces.map((f, i) => ({ ...f, embedding: normalise(embeddings[i]!) })),
    rawCount,
    timingsMs: { decode: Math.round(t1 - t0), detect: Math.round(t2 - t1), embed: Math.round(performance.now() - t2) },
  };
}
