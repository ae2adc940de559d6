import { detectFaces, type DetectedFace } from "@/lib/engines/ml/faces";
import { planCrop, manualPlan, planPadding, type CropPlan, type Padding } from "./plan-crop";
import { PRESETS, PRINT_PPI, printPixels, type IcpType } from "./presets";
import { renderCrop, type RenderedCrop, type SuperResolver } from "./render-crop";

/**
 * A photo Face Crop will not crop (no face, a cut head, too much fill, a face too
 * small for the print): a per-file error with the contract's code, never charged.
 */
export abstract class CropRefusedError extends Error {
  abstract readonly code: string;
}

/** A photo where no face was found: a per-file error, not charged. */
export class NoFaceError extends CropRefusedError {
  readonly code = "NO_FACE_FOUND";
  constructor() {
    super("No face was found in this photo (faces turned away, very small or hidden are not detected). Crop it by hand or retake it.");
    this.name = "NoFaceError";
  }
}

/**
 * A photo whose most prominent face is cut by the photo's own edge: the face's
 * mesh reaches the edge, or the person's outline above the face runs into it (the
 * hair is cut), or, where the crown is only estimated, the estimate lies outside the
 * photo by more than CUT_CROWN_SHARE of the head. No frame can show the whole head,
 * so the file fails (per-file error, not charged) instead of delivering a cut head.
 */
export class FaceCutError extends CropRefusedError {
  readonly code = "FACE_CUT_BY_EDGE";
  constructor() {
    super("The face is cut by the edge of this photo (the whole head, crown to chin, is not in it), so no crop can show it; it was not charged. Use a photo with the whole head in it.");
    this.name = "FaceCutError";
  }
}

/**
 * At most this share of a crop's area may be fill (the photo's edge repeated and
 * blurred where the preset's frame reaches outside the photo). Beyond it the crop is
 * mostly invented (a sports frame around a head-and-shoulders photo was half a
 * skin-coloured smear, issue 33; a square headshot in a 4:5 frame measures 25-38 %): the file fails with TOO_MUCH_PADDING and is not
 * charged, rather than delivered as a success a studio cannot print.
 */
export const MAX_FILL_SHARE = 0.4;

/** The share of a window's area that lies outside the photo (padding in the window's pixels). */
export function fillShare(pad: Padding, w: number, h: number): number {
  const inside = Math.max(0, w - pad.left - pad.right) * Math.max(0, h - pad.top - pad.bottom);
  return 1 - inside / (w * h);
}

/** The preset's frame would be more than MAX_FILL_SHARE fill: a per-file error, not charged. */
export class TooMuchPaddingError extends CropRefusedError {
  readonly code = "TOO_MUCH_PADDING";
  constructor(
    readonly share: number,
    icpType: IcpType,
  ) {
    super(
      `The ${icpType} frame reaches so far outside this photo that ${Math.round(share * 100)} % of the crop would be filled in (the limit is ${Math.round(MAX_FILL_SHARE * 100)} %), so it was not cropped and not charged. Use a photo with more room around the head${icpType === "sports" ? " (sports shows the jersey: down to the chest)" : ""}, or crop it by hand.`,
    );
    this.name = "TooMuchPaddingError";
  }
}

/**
 * `enhance` enlarges a crop to the preset's print size at 300 ppi by at most this
 * factor: 2x super-resolution, then at most 2x Lanczos (a crop needing more would
 * print at under 75 ppi of real detail: soft and blocky whatever the sharpening).
 */
export const ENHANCE_MAX_FACTOR = 4;

/** With `enhance`, the face is too small in the photo for the preset's print: a per-file error, not charged. */
export class FaceTooSmallForPrintError extends CropRefusedError {
  readonly code = "FACE_TOO_SMALL_FOR_PRINT";
  constructor(
    readonly crop: { w: number; h: number },
    readonly needed: { w: number; h: number; headPx: number },
    icpType: IcpType,
    headPx: number,
  ) {
    const p = PRESETS[icpType];
    const print = printPixels(p);
    super(
      `The face is too small in this photo for the ${icpType} print: its crop has ${crop.w} × ${crop.h} px of the photo, and a ${p.printInches.w} × ${p.printInches.h} in print at ${PRINT_PPI} ppi (${print.w} × ${print.h} px) can be enhanced from at least ${needed.w} × ${needed.h} px, a face of at least ${needed.headPx} px from chin to crown (this one is ${headPx} px). It was not cropped and not charged. Use a closer or larger photo, or crop without enhance.`,
    );
    this.name = "FaceTooSmallForPrintError";
  }
}

/** With enhance: the smallest crop (source pixels) the preset's print can be made from, and the head height that gives it. */
export function minimumForPrint(icpType: IcpType): { w: number; h: number; headPx: number } {
  const p = PRESETS[icpType];
  const print = printPixels(p);
  const w = Math.ceil(print.w / ENHANCE_MAX_FACTOR);
  const h = Math.ceil(print.h / ENHANCE_MAX_FACTOR);
  return { w, h, headPx: Math.ceil(h * p.headShare) };
}

/** The estimated crown (eye line + eyes-to-chin) has hair above it: a little outside is still a whole head. */
export const CUT_CROWN_SHARE = 0.05;

export function faceCutBySource(face: DetectedFace, size: { width: number; height: number }): boolean {
  if (face.touchesEdge) return true;
  // The person's outline was read: the head is cut only where that outline really reaches the edge.
  if (face.crownSource === "matte") return face.crownTouchesEdge === true;
  if (face.crownTouchesEdge) return true;
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
  const detection = await detectFaces(bytes, { crown: true });
  const face = detection.faces[0];
  if (!face) throw new NoFaceError();
  const size = { width: detection.width, height: detection.height };
  if (faceCutBySource(face, size)) throw new FaceCutError();
  const preset = PRESETS[icpType];
  const plan = planCrop(face, size, preset);
  if (enhance) {
    const min = minimumForPrint(icpType);
    // Half a pixel of rounding is not "too small".
    if (plan.w + 0.5 < min.w || plan.h + 0.5 < min.h) throw new FaceTooSmallForPrintError({ w: Math.round(plan.w), h: Math.round(plan.h) }, min, icpType, Math.round(face.headHeight));
  }
  if (plan.edge === "padded") {
    const share = fillShare(planPadding(plan, size), plan.w, plan.h);
    if (share > MAX_FILL_SHARE) throw new TooMuchPaddingError(share, icpType);
  }
  const rendered = await renderCrop(bytes, size, plan, { enhance, preset, superResolver });
  return { width: detection.width, height: detection.height, face, facesFound: detection.faces.length, plan, rendered };
}

/** A window drawn by hand on the upright photo, rendered like an automatic one. */
export async function recropManual(bytes: Buffer, size: { width: number; height: number }, box: { x: number; y: number; w: number; h: number }, icpType: IcpType, enhance: boolean) {
  const plan = manualPlan(box, size);
  return { plan, rendered: await renderCrop(bytes, size, plan, { enhance, preset: PRESETS[icpType] }) };
}
