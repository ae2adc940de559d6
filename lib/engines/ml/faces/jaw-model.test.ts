import { describe, expect, it } from "vitest";
import path from "node:path";
import { createRequire } from "node:module";
import sharp from "sharp";
import { blendEyes, correctJawPoints, JAW_BIAS, JAW_INPUT, jawInputScale, loadJawModel, MESH_EYE_SHARE, meshEyeShare } from "./jaw-model";

// The jaw net as ONNX on onnxruntime (jaw-model.ts, written by scripts/convert-jaw-model.ts), against face-api's own
// FaceLandmark68Net on the same 112 px chip (face-api's bundle, its own tfjs, this thread only).
type FaceApi = {
  tf: { setBackend(n: string): Promise<boolean>; ready(): Promise<void>; tensor3d(v: Uint8Array, s: number[], d: string): { dispose(): void } };
  nets: { faceLandmark68Net: { loadFromDisk(dir: string): Promise<void>; detectLandmarks(t: unknown): Promise<{ positions: { x: number; y: number }[] }> } };
};

describe("the jaw-aware 68-point net as ONNX", () => {
  it("puts the 68 points where face-api's own net does, within 5e-4 of the square", async () => {
    // obama.jpg's face (the mesh box × 1.25, measured once) as a 112 px chip.
    const chip = await sharp("test/fixtures/faces/obama.jpg").rotate().removeAlpha().extract({ left: 130, top: 60, width: 230, height: 230 }).resize(JAW_INPUT, JAW_INPUT, { fit: "fill" }).raw().toBuffer();
    const ours = await (await loadJawModel()).run(Float32Array.from(chip));

    const root = createRequire(path.join(process.cwd(), "package.json"));
    const faceapi = root("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi;
    await faceapi.tf.setBackend("cpu");
    await faceapi.tf.ready();
    await faceapi.nets.faceLandmark68Net.loadFromDisk(path.join(path.dirname(root.resolve("@vladmandic/face-api/package.json")), "model"));
    const t = faceapi.tf.tensor3d(new Uint8Array(chip), [JAW_INPUT, JAW_INPUT, 3], "int32");
    const { positions } = await faceapi.nets.faceLandmark68Net.detectLandmarks(t);
    t.dispose();

    expect(ours).toHaveLength(68);
    const worst = Math.max(...ours.map((p, i) => Math.hypot(p.x - positions[i]!.x / JAW_INPUT, p.y - positions[i]!.y / JAW_INPUT)));
    expect(worst).toBeLessThan(5e-4); // measured 1.6e-4 (0.02 px of the chip): the same layers and weights
    // The chin (point 9) below the eyes (37-48), on the chip.
    const eyeY = ours.slice(36, 48).reduce((s, p) => s + p.y, 0) / 12;
    expect(ours[8]!.y).toBeGreaterThan(eyeY + 0.2);
  }, 60_000);
});

describe("the eyes' blend of the net and the mesh by the face's size", () => {
  it("takes none of the mesh on a tiny face, growing to MESH_EYE_SHARE.top from fullAt detection pixels an input pixel", () => {
    expect(meshEyeShare(0)).toBe(0);
    expect(meshEyeShare(MESH_EYE_SHARE.fullAt / 2)).toBeCloseTo(MESH_EYE_SHARE.top / 2, 10);
    expect(meshEyeShare(MESH_EYE_SHARE.fullAt * 3)).toBe(MESH_EYE_SHARE.top);
    // A mesh box of 100 source pixels in a photo at half size for detection: the square is 100 × 0.912 × 1.25 source px, 57 detection px.
    const q = jawInputScale({ scale: 2 }, { x: 0, y: 0, w: 100, h: 90 });
    expect(q).toBeCloseTo((100 * 0.912 * 1.25) / 2 / JAW_INPUT, 6);
    const pts = Array.from({ length: 68 }, (_, i) => ({ x: i >= 42 ? 20 : 10, y: 10 }));
    const [l, r] = blendEyes(pts, [{ x: 0, y: 0 }, { x: 30, y: 0 }], q);
    const w = meshEyeShare(q);
    expect(l.x).toBeCloseTo(10 * (1 - w), 10);
    expect(r.x).toBeCloseTo(20 * (1 - w) + 30 * w, 10);
    expect(l.y).toBeCloseTo(10 * (1 - w), 10);
    expect(blendEyes(pts, undefined, q)).toEqual([{ x: 10, y: 10 }, { x: 20, y: 10 }]);
  });
});

describe("the chin's correction (JAW_BIAS) in the face's frame", () => {
  // A frontal face of 68 points on a square of 112 source px (one source px an input px): eyes 40 apart
  // at y 40, the nose tip `noseDown` eye distances below their mid-point and `noseAside` beside it, the
  // chin `chinDown` below; then turned by `roll` degrees about (56, 56).
  const face = (o: { roll?: number; noseAside?: number; noseDown?: number; chinDown?: number } = {}) => {
    const iod = 40;
    const pts = Array.from({ length: 68 }, () => ({ x: 56, y: 40 }));
    for (let i = 36; i < 42; i++) pts[i] = { x: 36, y: 40 };
    for (let i = 42; i < 48; i++) pts[i] = { x: 76, y: 40 };
    pts[30] = { x: 56 + (o.noseAside ?? 0) * iod, y: 40 + (o.noseDown ?? JAW_BIAS.pitchAt) * iod };
    pts[8] = { x: 56, y: 40 + (o.chinDown ?? JAW_BIAS.lengthAt) * iod };
    const a = ((o.roll ?? 0) * Math.PI) / 180;
    return pts.map((p) => ({ x: 56 + (p.x - 56) * Math.cos(a) - (p.y - 56) * Math.sin(a), y: 56 + (p.x - 56) * Math.sin(a) + (p.y - 56) * Math.cos(a) }));
  };
  const moved = (pts: { x: number; y: number }[]) => {
    const out = correctJawPoints(pts, JAW_INPUT)[8]!;
    return { x: out.x - pts[8]!.x, y: out.y - pts[8]!.y };
  };

  it("moves a frontal face's chin by the offset alone, and turns the offset with a rolled head", () => {
    const upright = moved(face());
    expect(upright.x).toBeCloseTo(JAW_BIAS.chin.along, 6);
    expect(upright.y).toBeCloseTo(JAW_BIAS.chin.down, 6);
    // Rolled 30°: the same move, in the face's frame (was the image's before issue 37's fifth stop).
    const rolled = moved(face({ roll: 30 }));
    const a = Math.PI / 6;
    expect(rolled.x).toBeCloseTo(JAW_BIAS.chin.along * Math.cos(a) - JAW_BIAS.chin.down * Math.sin(a), 6);
    expect(rolled.y).toBeCloseTo(JAW_BIAS.chin.along * Math.sin(a) + JAW_BIAS.chin.down * Math.cos(a), 6);
  });

  it("moves the chin towards the turn, lower on a long face, higher under a low nose, within the clamps", () => {
    expect(moved(face({ noseAside: 0.2 })).x - JAW_BIAS.chin.along).toBeCloseTo(JAW_BIAS.chinTurn * 0.2 * 40, 6);
    expect(moved(face({ chinDown: 2.0 })).y - JAW_BIAS.chin.down).toBeCloseTo(JAW_BIAS.chinLength * 0.2 * 40, 6);
    expect(moved(face({ noseDown: 0.7 })).y - JAW_BIAS.chin.down).toBeCloseTo(JAW_BIAS.chinPitch * 0.1 * 40, 6);
    // A misread face (chin 3 eye distances down, nose on the eye line) is moved no further than the clamps allow.
    const far = moved(face({ chinDown: 3, noseDown: 0 }));
    const most = JAW_BIAS.chin.down + (JAW_BIAS.chinLength * (JAW_BIAS.lengthRange[1] - JAW_BIAS.lengthAt) + JAW_BIAS.chinPitch * (JAW_BIAS.pitchRange[0] - JAW_BIAS.pitchAt)) * 40;
    expect(far.y).toBeCloseTo(most, 6);
  });
});
