import { describe, expect, it } from "vitest";
import type { DetectedFace } from "@/lib/engines/ml/faces";
import { planCorners, planCrop, planPadding } from "./plan-crop";
import { PRESETS } from "./presets";

/** A face with its eyes `iod` apart around `eyeMid`, rolled `roll` degrees, the chin `d` below the eyes along its axis and the crown as far above. */
function face(eyeMid: { x: number; y: number }, roll: number, iod: number, d: number): DetectedFace {
  const a = (roll * Math.PI) / 180;
  const along = { x: Math.cos(a), y: Math.sin(a) }; // the eye line
  const down = { x: -Math.sin(a), y: Math.cos(a) };
  const at = (u: number, v: number) => ({ x: eyeMid.x + u * along.x + v * down.x, y: eyeMid.y + u * along.y + v * down.y });
  const chin = at(0, d);
  const crown = at(0, -d);
  return {
    box: { x: eyeMid.x - iod, y: eyeMid.y - d, w: 2 * iod, h: 2 * d },
    score: 0.9,
    roll,
    landmarks: { leftEye: at(-iod / 2, 0), rightEye: at(iod / 2, 0), eyeMid, chin, crown },
    headHeight: 2 * d,
    touchesEdge: false,
    yaw: 0,
    outsideShare: 0,
  };
}

describe("planCrop at the photo's edges", () => {
  it("centres a levelled frame wider than the photo (its corners reach past both sides): the fill is shared, not all on one side", () => {
    // sports: the frame is 2:3 with the head 0.3 of its height. Head 200 px → frame 444 × 667,
    // levelled by 6°: its bounding box is ~511 px across, in a photo 480 px wide.
    const size = { width: 480, height: 900 };
    const plan = planCrop(face({ x: 230, y: 300 }, 6, 80, 100), size, PRESETS.sports);
    const xs = planCorners(plan).map((p) => p.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(size.width);
    // The bounding box overhangs both sides alike: centred on the photo.
    expect(Math.min(...xs) + Math.max(...xs)).toBeCloseTo(size.width, 0);
    const pad = planPadding(plan, size);
    expect(pad.left).toBeGreaterThan(0.5);
    expect(pad.right).toBeGreaterThan(0.5);
    expect(Math.abs(pad.left - pad.right)).toBeLessThan(1);
    expect(plan.edge).toBe("padded");
  });

  it("moves the centring no further than the preset's tolerance: the head stays on the preset", () => {
    // The face near the photo's left edge: centring would move the frame far right; it moves 4 % of its height.
    const size = { width: 480, height: 900 };
    const near = face({ x: 150, y: 300 }, 6, 80, 100);
    const free = planCrop(near, { width: 10_000, height: 10_000 }, PRESETS.sports);
    const plan = planCrop(near, size, PRESETS.sports);
    expect(Math.hypot(plan.centre.x - free.centre.x, plan.centre.y - free.centre.y)).toBeLessThanOrEqual(PRESETS.sports.tolerance * plan.h + 1e-6);
    const pad = planPadding(plan, size);
    expect(pad.left).toBeGreaterThan(pad.right);
  });

  it("still shifts a frame that fits inside the photo (no fill) and leaves one in the middle alone", () => {
    const size = { width: 1200, height: 1600 };
    const inside = planCrop(face({ x: 600, y: 500 }, 0, 80, 100), size, PRESETS.sports);
    expect(inside.edge).toBe("none");
    const nearLeft = planCrop(face({ x: 205, y: 500 }, 0, 80, 100), size, PRESETS.sports);
    expect(nearLeft.edge).toBe("shifted");
    expect(planPadding(nearLeft, size)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
  });
});
