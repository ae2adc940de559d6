import { afterAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
import { readMarkup, readPts, scoreFace, summarise } from "./landmark-eval";

// The landmark evaluation (scripts/evaluate-face-landmarks.ts) on the committed subset:
// four fixture photos marked by hand (test/fixtures/faces/landmarks.json). Real engine.
afterAll(() => shutDownFaces());

describe("landmark evaluation on the committed subset", () => {
  it("finds every marked face; eyes, chin and crown land near the markup, the crown read from the matte", async () => {
    const marked = readMarkup(path.resolve("test/fixtures/faces"));
    expect(marked).toHaveLength(4);
    const scores = [];
    const landmarkModels = [];
    for (const m of marked) {
      const detection = await detectFaces(fs.readFileSync(m.file), { crown: true });
      landmarkModels.push(detection.faces[0]?.landmarkModel);
      expect(detection.timingsMs.crown).toBeGreaterThan(0); // the crown step is timed apart
      scores.push(scoreFace(m, detection));
    }
    const s = summarise(scores);
    expect(s.recall).toBe(1);
    expect(s.crownFromMatte).toBe(4);
    // Eyes and chin from the jaw-aware net (jaw-model.ts: one mirrored pass on the square placed
    // from the mesh's box; each eye blended with the mesh's contour centre by the face's size,
    // MESH_EYE_SHARE; the chin with the net's bias taken out in the face's frame, JAW_BIAS). This
    // subset marks the pupils, which is what a preset's eye line follows (types.ts, FaceLandmarks):
    // the eye bound is issue 37's goal on that definition, not on the 68-point sets' contour centres.
    // Measured 2026-11-27 (scripts/evaluate-jaw-passes.ts): eye 0.032, chin 0.198 (0.068 along the
    // face's axis; 0.204 and 0.076 with the fourth stop's JAW_BIAS, 0.252 and 0.108 without any)
    // where the mesh alone gives 0.060 and 0.402 (0.207): the bounds fail on a fall back to the mesh's
    // points or on losing the chin's correction, and leave the two chins' ±3 px markup room.
    expect(landmarkModels).toEqual(["face-api-landmark68", "face-api-landmark68", "face-api-landmark68", "face-api-landmark68"]);
    expect(s.chin.n).toBe(2);
    expect(s.chin.median!).toBeLessThan(0.23);
    expect(s.chinAlong.median!).toBeLessThan(0.09);
    expect(s.eye.median!).toBeLessThanOrEqual(0.04);
    // Measured 2026-11-26: eye 0.068 median, crown 0.020 of the eye distance (0.041 of crown-to-chin);
    // 2026-11-27 with the square sampled in the worker: eye 0.060, crown 0.025 (0.025 of crown-to-chin);
    // the limits leave room for the markup's ±3 px, never for a wrong face or an estimated crown.
    expect(s.eye.median!).toBeLessThan(0.12);
    expect(s.crown.median!).toBeLessThan(0.15);
    expect(s.crownOfHead.median!).toBeLessThan(0.1);
  });

  it("reads iBUG .pts markup (68 points)", () => {
    const pts = readPts(`version: 1\nn_points:  68\n{\n${Array.from({ length: 68 }, (_, i) => `${i}.5 ${i * 2}`).join("\n")}\n}\n`);
    expect(pts).toHaveLength(68);
    expect(pts[8]).toEqual({ x: 8.5, y: 16 });
  });

  it("takes .pts coordinates as 1-based pixel centres: half a pixel up and left in the engine's pixels", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pts-"));
    try {
      fs.writeFileSync(path.join(dir, "a.jpg"), "");
      fs.writeFileSync(path.join(dir, "a.pts"), `version: 1\nn_points: 68\n{\n${Array.from({ length: 68 }, (_, i) => `${i + 1} ${2 * i + 1}`).join("\n")}\n}\n`);
      const [m] = readMarkup(dir);
      expect(m!.chin).toEqual({ x: 8.5, y: 16.5 });
      expect(m!.leftEye).toEqual({ x: 39, y: 77.5 }); // points 37-42: x 37..42, y 73..83, their mean less half a pixel
      expect(readMarkup(dir, { ptsAsWritten: true })[0]!.chin).toEqual({ x: 9, y: 17 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
