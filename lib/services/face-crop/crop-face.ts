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

export type FaceCropOutcome = {
  width: number;
  height: number;
  face: DetectedFace;
  facesFound: number;
  plan: CropPlan;
  rendered: RenderedCrop;
};

/** Detects, picks the most prominent face, places the preset's frame and renders it. */
export async function cropFace(bytes: Buffer, icpType: IcpType, enhance: boolean, superResolver?: SuperResolver): Promise<FaceCropOutcome> {
  const detection = await detectFaces(bytes);
  const face = detection.faces[0];
  if (!face) throw new NoFaceError();
  const size = { width: detection.width, height: detection.height };
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
