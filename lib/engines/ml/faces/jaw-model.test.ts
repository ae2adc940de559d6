import { describe, expect, it } from "vitest";
import path from "node:path";
import { createRequire } from "node:module";
import sharp from "sharp";
import { blendEyes, JAW_INPUT, jawInputScale, loadJawModel, MESH_EYE_SHARE, meshEyeShare } from "./jaw-model";

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
