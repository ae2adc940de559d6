import { decodeUpright, type UprightImage } from "./decode-upright";
import { faceFromMesh, filterFaces } from "./landmarks";
import { loadHuman, type HumanLike } from "./human-model";
import { crownFromPerson, loadSelfieModel, type SelfieModel } from "./person-crown";
import type { FaceDetection, DetectedFace } from "./types";

/** `crown`: measure the most prominent face's crown from the person's outline (Face Crop). */
export type DetectRequest = { bytes: Uint8Array; maxPixels: number; detectLongEdge: number; minScore: number; crown?: boolean };

let model: Promise<HumanLike> | null = null;

/** The model, loaded once per thread. */
export function faceModel(): Promise<HumanLike> {
  model ??= loadHuman({ minConfidence: 0.2, maxFaces: 30 });
  return model;
}

let selfie: Promise<SelfieModel> | null = null;

/** The person segmentation model for the crown, loaded once per thread on Human's tfjs. */
export function selfieModel(): Promise<SelfieModel> {
  selfie ??= faceModel().then((human) => loadSelfieModel(human.tf));
  return selfie;
}

/** Decode upright, detect, turn meshes into landmarks, filter (and the first face's crown from the person matte). Runs in the face worker. */
export async function detectInThread(req: DetectRequest): Promise<FaceDetection> {
  const t0 = performance.now();
  const img = await decodeUpright(req.bytes, { maxPixels: req.maxPixels, detectLongEdge: req.detectLongEdge });
  const t1 = performance.now();
  const { faces, rawCount } = await detectOnImage(img, req.minScore);
  if (req.crown && faces[0]) faces[0] = await withPersonCrown(img, faces[0]);
  return { width: img.width, height: img.height, faces, rawCount, timingsMs: { decode: Math.round(t1 - t0), detect: Math.round(performance.now() - t1) } };
}

export type Mesh = [number, number, number?][];

/**
 * Detects on a decoded image: faces in source pixels, filtered and ordered, and
 * each kept face's mesh (in detection pixels) for the embedding's alignment.
 */
export async function detectOnImage(img: UprightImage, minScore: number): Promise<{ faces: DetectedFace[]; meshes: Map<DetectedFace, Mesh>; rawCount: number }> {
  const human = await faceModel();
  const tensor = human.tf.tensor3d(new Uint8Array(img.rgb.buffer, img.rgb.byteOffset, img.rgb.byteLength), [img.rgbHeight, img.rgbWidth, 3], "int32");
  let raw;
  try {
    raw = await human.detect(tensor);
  } finally {
    tensor.dispose();
  }
  const size = { width: img.width, height: img.height };
  const meshes = new Map<DetectedFace, Mesh>();
  for (const f of raw.face) {
    const face = faceFromMesh(f.mesh, f.score, img.scale, size);
    if (face) meshes.set(face, f.mesh);
  }
  // A face must be at least 2% of the photo's short side tall (chin to crown), and 20 px.
  const minSizePx = Math.max(20, Math.min(img.width, img.height) * 0.02);
  return { faces: filterFaces([...meshes.keys()], { minScore, minSizePx, minShareOfLargest: 0.2 }), meshes, rawCount: raw.face.length };
}

/** The face with its crown read from the person matte (or the estimate kept, saying so). */
async function withPersonCrown(img: UprightImage, face: DetectedFace): Promise<DetectedFace> {
  const { eyeMid, chin, crown: estimate } = face.landmarks;
  const found = await crownFromPerson(await selfieModel(), img, { eyeMid, chin, estimate });
  const headHeight = Math.hypot(found.crown.x - chin.x, found.crown.y - chin.y);
  return { ...face, landmarks: { ...face.landmarks, crown: found.crown }, headHeight, crownSource: found.source, crownTouchesEdge: found.touchesEdge };
}
