import { decodeUpright, type UprightImage } from "./decode-upright";
import sharp from "sharp";
import { CROWN_FROM_EYES, faceFromMesh, filterFaces } from "./landmarks";
import { blendEyes, JAW_MODEL, jawInputScale, jawPoints, loadJawModel, type JawModel } from "./jaw-model";
import { loadHuman, type HumanLike } from "./human-model";
import { crownFromPerson, loadSelfieModel, type SelfieModel } from "./person-crown";
import type { FaceDetection, DetectedFace } from "./types";

/**
 * `crown`: Face Crop's face: the most prominent face's eyes and chin from the jaw net, its crown
 * from the person's outline. `jaw: false` keeps the mesh's eyes and chin there (the bench's
 * baseline: Face Crop before the jaw net); `topLook: false` decides a cut head without the finer
 * look at the head's top (person-crown.ts `headCutAtTop`; the bench's baseline).
 */
export type DetectRequest = { bytes: Uint8Array; maxPixels: number; detectLongEdge: number; minScore: number; crown?: boolean; jaw?: boolean; topLook?: boolean };

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

let jaw: Promise<JawModel> | null = null;

/** The jaw-aware 68-point net for Face Crop's eyes and chin, loaded once per thread (lazily, on the first crop) on onnxruntime. */
export function jawModel(): Promise<JawModel> {
  jaw ??= loadJawModel();
  return jaw;
}

/** Decode upright, detect, turn meshes into landmarks, filter (and for Face Crop, the first face's eyes and chin from the jaw net, its crown from the person matte). Runs in the face worker. */
export async function detectInThread(req: DetectRequest): Promise<FaceDetection> {
  const t0 = performance.now();
  const img = await decodeUpright(req.bytes, { maxPixels: req.maxPixels, detectLongEdge: req.detectLongEdge });
  const t1 = performance.now();
  let { faces, rawCount } = await detectOnImage(img, req.minScore);
  if (needsSecondLook(faces, img)) ({ faces, rawCount } = await withSecondLook(img, faces, rawCount, req.minScore));
  const t2 = performance.now();
  let jawMs = 0;
  if (req.crown) {
    // Face Crop crops the first face: a whole one before one the photo's edge cuts (which it would refuse).
    faces = [...faces.filter((f) => !f.touchesEdge), ...faces.filter((f) => f.touchesEdge)];
    if (faces[0]) {
      faces[0] = req.jaw === false ? faces[0] : await withJawLandmarks(img, faces[0]);
      jawMs = performance.now() - t2;
      faces[0] = await withPersonCrown(img, faces[0], req.topLook !== false);
    }
  }
  const t3 = performance.now();
  const timingsMs = { decode: Math.round(t1 - t0), detect: Math.round(t2 - t1), ...(req.crown ? { jaw: Math.round(jawMs), crown: Math.round(t3 - t2 - jawMs) } : {}) };
  return { width: img.width, height: img.height, faces, rawCount, timingsMs };
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

/**
 * The face with its eyes and chin from the jaw-aware net (jaw-model.ts: iBUG's 68 points, eyes
 * 37-42 and 43-48, chin 9), measured closer to human markup than the mesh's on both sets
 * (bench/README.md, "Face Crop landmarks"); roll and the crown estimate move with them. The
 * mesh's points are kept when the net's lie implausibly far from them (an eye more than a
 * third, the chin more than half of the mesh's eye-to-chin distance): the net misread a face
 * it was not made for (a profile, a hand under the chin). Not in eye distances: on a face
 * turned 30-40° the eyes draw together in the image while the mesh's own eyes lie 0.2-0.25 eye
 * distances off the markup, and such a limit threw the net's better points away.
 */
async function withJawLandmarks(img: UprightImage, face: DetectedFace): Promise<DetectedFace> {
  const pts = await jawPoints(await jawModel(), img, face.box);
  // Each eye a blend of the net's and the mesh's, both as the 68 scheme defines an eye's centre,
  // the mesh's share growing with the face's size (MESH_EYE_SHARE: at most 0.4, none on a tiny
  // face); the chin is the net's alone (a quarter or half of the mesh's made it no better or worse).
  const [leftEye, rightEye] = blendEyes(pts, face.contourEyes, jawInputScale(img, face.box));
  const chin = pts[8]!;
  const l = face.landmarks;
  const d = Math.hypot(l.chin.x - l.eyeMid.x, l.chin.y - l.eyeMid.y);
  const far = (a: { x: number; y: number }, b: { x: number; y: number }, limit: number) => !(Math.hypot(a.x - b.x, a.y - b.y) <= limit);
  if (far(leftEye, l.leftEye, d / 3) || far(rightEye, l.rightEye, d / 3) || far(chin, l.chin, d / 2)) return { ...face, landmarkModel: "mesh" };
  const eyeMid = { x: (leftEye.x + rightEye.x) / 2, y: (leftEye.y + rightEye.y) / 2 };
  const crown = { x: eyeMid.x + (eyeMid.x - chin.x) * CROWN_FROM_EYES, y: eyeMid.y + (eyeMid.y - chin.y) * CROWN_FROM_EYES };
  const roll = (Math.atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x) * 180) / Math.PI;
  return { ...face, roll, landmarks: { leftEye, rightEye, eyeMid, chin, crown }, headHeight: Math.hypot(crown.x - chin.x, crown.y - chin.y), landmarkModel: JAW_MODEL };
}

/** The face with its crown read from the person matte (or the estimate kept, saying so). */
async function withPersonCrown(img: UprightImage, face: DetectedFace, topLook: boolean): Promise<DetectedFace> {
  const { eyeMid, chin, crown: estimate } = face.landmarks;
  const found = await crownFromPerson(await selfieModel(), img, { eyeMid, chin, estimate }, { topLook });
  const headHeight = Math.hypot(found.crown.x - chin.x, found.crown.y - chin.y);
  return { ...face, landmarks: { ...face.landmarks, crown: found.crown }, headHeight, crownSource: found.source, crownTouchesEdge: found.touchesEdge };
}

/** A face whose box comes within this share of the photo's short side of an edge is "near the edge". */
export const NEAR_EDGE_SHARE = 0.02;

/**
 * The detector sees the whole photo at 256 px: a face a few percent of the frame wide is a
 * dozen pixels there. When the whole-frame pass finds nothing, or only faces at the frame's
 * edge (a cut shoulder-and-face at the border while the subject stands small in the middle),
 * the photo is looked at again in overlapping tiles, each scaled up to the detector's long
 * edge: the same models at about twice the resolution (a longer-range pass).
 */
export function needsSecondLook(faces: DetectedFace[], img: { width: number; height: number }): boolean {
  const m = NEAR_EDGE_SHARE * Math.min(img.width, img.height);
  return faces.every((f) => f.touchesEdge || f.box.x <= m || f.box.y <= m || f.box.x + f.box.w >= img.width - m || f.box.y + f.box.h >= img.height - m);
}

/** 2 × 2 tiles of 60 % of each side (20 % overlap: a face up to a fifth of the frame lies whole in one). */
const TILE_SHARE = 0.6;

async function withSecondLook(img: UprightImage, first: DetectedFace[], rawCount: number, minScore: number): Promise<{ faces: DetectedFace[]; rawCount: number }> {
  const human = await faceModel();
  const size = { width: img.width, height: img.height };
  const found: DetectedFace[] = [...first];
  let raw = rawCount;
  const tw = Math.round(img.rgbWidth * TILE_SHARE);
  const th = Math.round(img.rgbHeight * TILE_SHARE);
  const longEdge = Math.max(img.rgbWidth, img.rgbHeight);
  for (const left of [0, img.rgbWidth - tw]) {
    for (const top of [0, img.rgbHeight - th]) {
      // Each tile back up to the detector's working size: twice the detail of the whole-frame pass.
      const k = longEdge / Math.max(tw, th);
      const { data, info } = await sharp(img.rgb, { raw: { width: img.rgbWidth, height: img.rgbHeight, channels: 3 } })
        .extract({ left, top, width: tw, height: th })
        .resize(Math.round(tw * k), Math.round(th * k), { kernel: "lanczos3" })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const tensor = human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), [info.height, info.width, 3], "int32");
      let result;
      try {
        result = await human.detect(tensor);
      } finally {
        tensor.dispose();
      }
      raw += result.face.length;
      for (const f of result.face) {
        // Into the whole photo's detection pixels, so faceFromMesh's scale maps it to source pixels.
        const shifted = f.mesh.map(([x, y, z]) => [x / k + left, y / k + top, z] as [number, number, number?]);
        const face = faceFromMesh(shifted, f.score, img.scale, size);
        if (face && !found.some((g) => overlap(g, face) > 0.3)) found.push(face);
      }
    }
  }
  const minSizePx = Math.max(20, Math.min(img.width, img.height) * 0.02);
  // Whole faces are filtered among themselves (a large face the edge cuts must not make the
  // subject standing small in the frame "much smaller than the largest") and come first.
  const opts = { minScore, minSizePx, minShareOfLargest: 0.2 };
  return { faces: [...filterFaces(found.filter((f) => !f.touchesEdge), opts), ...filterFaces(found.filter((f) => f.touchesEdge), opts)], rawCount: raw };
}

function overlap(a: DetectedFace, b: DetectedFace): number {
  const x0 = Math.max(a.box.x, b.box.x);
  const y0 = Math.max(a.box.y, b.box.y);
  const x1 = Math.min(a.box.x + a.box.w, b.box.x + b.box.w);
  const y1 = Math.min(a.box.y + a.box.h, b.box.y + b.box.h);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.box.w * a.box.h + b.box.w * b.box.h - inter || 1);
}
