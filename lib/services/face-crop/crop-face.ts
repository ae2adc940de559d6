import { detectFaces, type DetectedFace } from "@/lib/ml/faces";
import { planCrop, manualPlan, type CropPlan } from "./plan-crop";
import { PRESETS, type IcpType } from "./presets";
import { renderCrop, type RenderedCrop, type SuperResolver } from "./render-crop";

/** A photo where no face was found: a per-file error, not charged. */
export class NoFaceError extends Error {
  readonly code = "NO_FACE_FOUND";
  constructor() {
    super("No face was found in this photo (faces turned away, very small or hidden are not detected). Crop it by hand or retake it.");
    this.name = "NoFaceError";
  }
}

/**
 * A photo whose most prominent face is cut by the photo's own edge: the face's
 * mesh reaches the edge, or the crown lies outside the photo by more than
 * CUT_CROWN_SHARE of the head. No frame can show the whole head, so the file
 * fails (per-file error, not charged) instead of delivering a cut head.
 */
export class FaceCutError extends Error {
  readonly code = "FACE_CUT_BY_EDGE";
  constructor() {
    super("The face is cut by the edge of this photo (the whole head, crown to chin, is not in it), so no crop can show it; it was not charged. Use a photo with the whole head in it.");
    this.name = "FaceCutError";
  }
}

/** The crown is an estimate (eye line + eyes-to-chin) and hair is above it: a little outside is still a whole head. */
export const CUT_CROWN_SHARE = 0.05;

export function faceCutBySource(face: DetectedFace, size: { width: number; height: number }): boolean {
  if (face.touchesEdge) return true;
  const slack = face.headHeight * CUT_CROWN_SHARE;
  const { crown } = face.landmarks;
  return crown.x < -slack || crown.y < -slack || crown.x > size.width + slack || crown.y > size.height + slack;
}

export type FaceCropOutcome = {
  width: number;
  height: number;
  face: DetectedFace;
  facesFound: number;
  plan: CropPlan;
  rendered: RenderedCrop;
};

/** Detects, picks the most prominent face, refuses a face the photo cuts, places the preset's frame and renders it (padded where it leaves the photo). */
export async function cropFace(bytes: Buffer, icpType: IcpType, enhance: boolean, superResolver?: SuperResolver): Promise<FaceCropOutcome> {
  const detection = await detectFaces(bytes);
  const face = detection.faces[0];
  if (!face) throw new NoFaceError();
  const size = { width: detection.width, height: detection.height };
  if (faceCutBySource(face, size)) throw new FaceCutError();
  const preset = PRESETS[icpType];
  const plan = planCrop(face, size, preset);
  const rendered = await renderCrop(bytes, size, plan, { enhance, preset, superResolver });
  return { width: detection.width, height: detection.height, face, facesFound: detection.faces.length, plan, rendered };
}

/** A window drawn by hand on the upright photo, rendered like an automatic one. */
export async function recropManual(bytes: Buffer, size: { width: number; height: number }, box: { x: number; y: number; w: number; h: number }, icpType: IcpType, enhance: boolean) {
  const plan = manualPlan(box, size);
  return { plan, rendered: await renderCrop(bytes, size, plan, { enhance, preset: PRESETS[icpType] }) };
}
