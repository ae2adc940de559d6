import type { DetectedFace, Point } from "@/lib/ml/faces";
import type { CropPreset } from "./presets";

/**
 * A crop window: a rectangle of `w` × `h` source pixels centred on `centre`
 * (upright source coordinates), turned by `angle` degrees (the roll being
 * straightened, positive clockwise). `edge` says what was done near the photo's edge.
 */
export type CropPlan = { centre: Point; w: number; h: number; angle: number; edge: "none" | "shifted" | "zoomed" };

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
 * preset's roll limit. Then fitted inside the photo: shifted, and only if the
 * frame is larger than the photo allows, made smaller (the head comes out larger
 * than the preset). Pixels are never invented.
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
  return fitInside({ centre: { x: eyeMid.x + c.x, y: eyeMid.y + c.y }, w, h, angle, edge: "none" }, size);
}

/** A plan for a window drawn by hand (axis-aligned, in source coordinates), fitted the same way. */
export function manualPlan(box: { x: number; y: number; w: number; h: number }, size: { width: number; height: number }): CropPlan {
  return fitInside({ centre: { x: box.x + box.w / 2, y: box.y + box.h / 2 }, w: box.w, h: box.h, angle: 0, edge: "none" }, size);
}

function fitInside(plan: CropPlan, size: { width: number; height: number }): CropPlan {
  let { w, h, centre } = plan;
  let edge: CropPlan["edge"] = "none";
  for (let pass = 0; pass < 3; pass++) {
    const cs = planCorners({ centre, w, h, angle: plan.angle });
    const x0 = Math.min(...cs.map((p) => p.x));
    const x1 = Math.max(...cs.map((p) => p.x));
    const y0 = Math.min(...cs.map((p) => p.y));
    const y1 = Math.max(...cs.map((p) => p.y));
    const k = Math.min(1, size.width / (x1 - x0), size.height / (y1 - y0));
    if (k < 0.9999) {
      // Larger than the photo even when moved: smaller frame, same aspect.
      w *= k * 0.999;
      h *= k * 0.999;
      edge = "zoomed";
      continue;
    }
    const dx = x0 < 0 ? -x0 : x1 > size.width ? size.width - x1 : 0;
    const dy = y0 < 0 ? -y0 : y1 > size.height ? size.height - y1 : 0;
    if (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5) {
      centre = { x: centre.x + dx, y: centre.y + dy };
      if (edge === "none") edge = "shifted";
    }
    break;
  }
  return { centre, w, h, angle: plan.angle, edge };
}
