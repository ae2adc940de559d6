import type { DetectedFace, Point } from "@/lib/engines/ml/faces";
import type { CropPreset } from "./presets";

/**
 * A crop window: a rectangle of `w` × `h` source pixels centred on `centre`
 * (upright source coordinates), turned by `angle` degrees (the roll being
 * straightened, positive clockwise). `edge` says what was done near the photo's
 * edge: "shifted" (moved inside the photo, within the preset's tolerance) or
 * "padded" (the part outside the photo is filled, see render-crop.ts).
 * "zoomed" is no longer produced (it cut heads); it stays readable on old results.
 */
export type CropPlan = { centre: Point; w: number; h: number; angle: number; edge: "none" | "shifted" | "padded" };

/** Fill added outside the photo, per side of the output, in the window's (source) pixels. */
export type Padding = { top: number; right: number; bottom: number; left: number };

const rad = (deg: number) => (deg * Math.PI) / 180;
const rot = (p: Point, deg: number): Point => {
  const a = rad(deg);
  return { x: p.x * Math.cos(a) - p.y * Math.sin(a), y: p.x * Math.sin(a) + p.y * Math.cos(a) };
};

/** The four corners of a plan, in source coordinates. */
export function planCorners(plan: Pick<CropPlan, "centre" | "w" | "h" | "angle">): Point[] {
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([sx, sy]) => {
    const r = rot({ x: (sx! * plan.w) / 2, y: (sy! * plan.h) / 2 }, plan.angle);
    return { x: plan.centre.x + r.x, y: plan.centre.y + r.y };
  });
}

/**
 * Places the preset's frame on a face: head height (chin to crown) and eye line
 * from the preset, centred across on the face, the eye line levelled up to the
 * preset's roll limit. Near the photo's edge the frame is moved inside the photo
 * only as far as the preset's tolerance (the head stays on the preset); what
 * still lies outside is padded, never zoomed into: a zoom put the crown and the
 * eyes on the frame's edge (issue 22).
 */
export function planCrop(face: DetectedFace, size: { width: number; height: number }, preset: CropPreset): CropPlan {
  const angle = Math.max(-preset.maxRollDeg, Math.min(preset.maxRollDeg, face.roll));
  const { eyeMid, chin } = face.landmarks;
  // In the levelled frame, with the eye midpoint at the origin.
  const chinL = rot({ x: chin.x - eyeMid.x, y: chin.y - eyeMid.y }, -angle);
  const h = face.headHeight / preset.headShare;
  const w = (h * preset.aspect.w) / preset.aspect.h;
  const faceCentreX = chinL.x / 2;
  const centreL = { x: faceCentreX + (0.5 - preset.centreX) * w, y: -preset.eyeLine * h + h / 2 };
  const c = rot(centreL, angle);
  const plan = { centre: { x: eyeMid.x + c.x, y: eyeMid.y + c.y }, w, h, angle };
  const { dx, dy } = shiftInside(plan, size, preset.tolerance * h);
  const centre = { x: plan.centre.x + dx, y: plan.centre.y + dy };
  const moved = { ...plan, centre };
  const edge = hasPadding(planPadding(moved, size)) ? "padded" : Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5 ? "shifted" : "none";
  return { ...moved, edge };
}

/** A plan for a window drawn by hand (axis-aligned, in source coordinates, inside the photo). */
export function manualPlan(box: { x: number; y: number; w: number; h: number }, size: { width: number; height: number }): CropPlan {
  const plan = { centre: { x: box.x + box.w / 2, y: box.y + box.h / 2 }, w: box.w, h: box.h, angle: 0 };
  const { dx, dy } = shiftInside(plan, size, Infinity);
  const moved = { ...plan, centre: { x: plan.centre.x + dx, y: plan.centre.y + dy } };
  return { ...moved, edge: hasPadding(planPadding(moved, size)) ? "padded" : Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5 ? "shifted" : "none" };
}

/**
 * The move (each axis at most `limit`) that brings the frame inside the photo. On an axis where
 * the frame (its bounding box: a levelled frame's corners reach further than its sides) is larger
 * than the photo, it is centred on the photo instead, so the fill is shared by both sides rather
 * than all on one (a levelled frame 650 px across in a 640 px photo padded 36 px on one side).
 */
function shiftInside(plan: Pick<CropPlan, "centre" | "w" | "h" | "angle">, size: { width: number; height: number }, limit: number) {
  const cs = planCorners(plan);
  const x0 = Math.min(...cs.map((p) => p.x));
  const x1 = Math.max(...cs.map((p) => p.x));
  const y0 = Math.min(...cs.map((p) => p.y));
  const y1 = Math.max(...cs.map((p) => p.y));
  const axis = (lo: number, hi: number, max: number) => (hi - lo > max ? (max - lo - hi) / 2 : lo < 0 ? -lo : hi > max ? max - hi : 0);
  const clampTo = (v: number) => Math.max(-limit, Math.min(limit, v));
  return { dx: clampTo(axis(x0, x1, size.width)), dy: clampTo(axis(y0, y1, size.height)) };
}

/**
 * How deep the fill reaches into each side of the levelled frame (window pixels):
 * where the photo's own edges cross the frame's sides. With the roll limited to
 * 15°, the photo's top edge is the one near the frame's top, and so on.
 */
export function planPadding(plan: Pick<CropPlan, "centre" | "w" | "h" | "angle">, size: { width: number; height: number }): Padding {
  const a = rad(plan.angle);
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const { w, h } = plan;
  const { x: cx, y: cy } = plan.centre;
  // A frame point (u, v), origin top-left, maps to the source as centre + rot((u - w/2, v - h/2)).
  const vAtY = (y: number, u: number) => h / 2 + (y - cy - (u - w / 2) * sin) / cos;
  const uAtX = (x: number, v: number) => w / 2 + (x - cx + (v - h / 2) * sin) / cos;
  const clampTo = (v: number, max: number) => Math.max(0, Math.min(max, v));
  const px = (v: number) => Math.round(v * 10) / 10;
  return {
    top: px(clampTo(Math.max(vAtY(0, 0), vAtY(0, w)), h)),
    bottom: px(clampTo(h - Math.min(vAtY(size.height, 0), vAtY(size.height, w)), h)),
    left: px(clampTo(Math.max(uAtX(0, 0), uAtX(0, h)), w)),
    right: px(clampTo(w - Math.min(uAtX(size.width, 0), uAtX(size.width, h)), w)),
  };
}

/** Less than half a pixel of fill is rounding, not padding. */
export const hasPadding = (p: Padding) => p.top >= 0.5 || p.right >= 0.5 || p.bottom >= 0.5 || p.left >= 0.5;
