import { describe, expect, it } from "vitest";
import {
  applyLevels,
  fillHoles,
  insideDistance,
  removeSmallIslands,
  resizeBilinear,
  solidifyInterior,
  subjectBox,
  type Matte,
} from "./matte-ops";
import { boxMean, guidedUpsample } from "./guided-upsample";
import { featherSigma } from "./finish-edges";
import { engineConfig } from "./engine-config";
import { subjectProfile } from "./subject-profiles";

/** A matte drawn from rows of characters: '#' = 1, 'o' = 0.3 (unsure background), '.' = 0. */
function draw(rows: string[]): Matte {
  const width = rows[0]!.length;
  const data = new Float32Array(width * rows.length);
  rows.forEach((row, y) => [...row].forEach((c, x) => (data[y * width + x] = c === "#" ? 1 : c === "o" ? 0.3 : 0)));
  return { data, width, height: rows.length };
}
const render = (m: Matte) =>
  Array.from({ length: m.height }, (_, y) =>
    [...m.data.subarray(y * m.width, (y + 1) * m.width)].map((v) => (v >= 0.5 ? "#" : ".")).join(""),
  );

describe("matte clean-up", () => {
  it("levels stretch lo..hi to 0..1 and clip outside", () => {
    const m: Matte = { data: new Float32Array([0, 0.05, 0.5, 0.95, 1]), width: 5, height: 1 };
    applyLevels(m, 0.1, 0.9);
    expect([...m.data].map((v) => +v.toFixed(3))).toEqual([0, 0, 0.5, 1, 1]);
  });

  it("removes islands smaller than a fraction of the largest region, keeps the rest", () => {
    const m = draw([
      "..........",
      ".#####....",
      ".#####..#.",
      ".#####....",
      "........##",
      "........##",
    ]);
    // largest 15 px; the single pixel (1/15) goes at 10 %, the 2x2 block (4/15) stays.
    expect(removeSmallIslands(m, 0.1)).toBe(1);
    expect(render(m)[2]).toBe(".#####....");
    expect(render(m)[4]).toBe("........##");
  });

  it("fills pin-holes and unsure holes, keeps a confident large hole and the open background", () => {
    const m = draw([
      "..............",
      ".############.",
      ".#.##....#oo#.",
      ".####....#oo#.",
      ".####....####.",
      ".############.",
      "..............",
    ]);
    // pin-hole (1 px <= 3 % of the 43 px subject), unsure 2x2 region (mean 0.6): filled.
    // 4x3 confident hole (12 px, like a mug handle's gap): kept. Outside: never.
    expect(fillHoles(m, 0.03, 0.2)).toBe(2);
    expect(render(m)).toEqual([
      "..............",
      ".############.",
      ".####....####.",
      ".####....####.",
      ".####....####.",
      ".############.",
      "..............",
    ]);
  });

  it("does not count a region touching the border as a hole", () => {
    const m = draw(["#..#", "#..#", "####"]);
    expect(fillHoles(m, 1, 0)).toBe(0);
  });

  it("measures distance inside the subject and makes the deep interior opaque", () => {
    const m = draw(["#######", "#######", "#######", "#######", "#######"].map((r) => "." + r + "."));
    const dist = insideDistance(m);
    expect(dist[0]).toBe(0);
    expect(dist[2 * m.width + 4]).toBeCloseTo(3, 5); // centre: 3 px from the sides
    const soft: Matte = { ...m, data: m.data.map((v) => (v ? 0.7 : 0)) };
    solidifyInterior(soft, 1.5);
    expect(soft.data[2 * m.width + 4]).toBe(1); // deep inside: solid
    expect(soft.data[0 * m.width + 4]).toBeCloseTo(0.7); // outline row: untouched
  });

  it("finds the subject's bounding box", () => {
    expect(subjectBox(draw(["....", ".##.", "..#.", "...."]))).toEqual({ left: 1, top: 1, width: 2, height: 2 });
    expect(subjectBox(draw(["....", "...."]))).toBeNull();
  });

  it("resizes bilinearly with aligned pixel centres", () => {
    const out = resizeBilinear(new Float32Array([0, 1]), 2, 1, 4, 1);
    expect([...out]).toEqual([0, 0.25, 0.75, 1]);
    expect([...resizeBilinear(new Float32Array([0, 0.5, 1, 0.5]), 4, 1, 2, 1)]).toEqual([0.25, 0.75]);
  });

  it("box mean averages the clipped window", () => {
    expect([...boxMean(new Float32Array([0, 3, 6, 9]), 4, 1, 1)]).toEqual([1.5, 3, 6, 7.5]);
  });
});

describe("guided upsampling", () => {
  it("snaps a blurry low-resolution matte to the sharp edge of the full-size photo", () => {
    // Full size 64 px wide: the photo has a hard edge between x = 37 and 38. The
    // matte is 16 px wide and only knows "somewhere around there" (a ramp).
    const W = 64, H = 8, w = 16, h = 2;
    const gray = new Uint8Array(W * H).map((_, i) => (i % W < 38 ? 220 : 30));
    const guideLow = new Float32Array(w * h).map((_, i) => ((i % w) * 4 + 2 < 38 ? 220 : 30) / 255);
    const data = new Float32Array(w * h).map((_, i) => Math.min(1, Math.max(0, (11 - (i % w)) / 4)));
    const plain = resizeBilinear(data, w, h, W, H);
    const guided = guidedUpsample({ data, width: w, height: h }, guideLow, gray, W, H, { radius: 2, eps: 1e-3 });
    // The biggest step between neighbours: where the photo's edge is, and steep.
    const steepest = (row: ArrayLike<number>) => {
      let at = 0, size = 0;
      for (let x = 1; x < W; x++) if (Math.abs(row[x]! - row[x - 1]!) > size) [at, size] = [x, Math.abs(row[x]! - row[x - 1]!)];
      return { at, size };
    };
    expect(steepest(guided.subarray(0, W))).toMatchObject({ at: 38 });
    expect(steepest(guided.subarray(0, W)).size).toBeGreaterThan(100);
    expect(steepest(plain.subarray(0, W).map((v) => v * 255)).size).toBeLessThan(20); // plain: a 40 px ramp
    expect(guided[36]).toBeGreaterThan(180); // subject side of the true edge
    expect(guided[39]).toBeLessThan(80); // background side
  });
});

describe("settings", () => {
  it("feathers in proportion to the photo size, and not at all at 0", () => {
    expect(featherSigma(0, 4000, 3000)).toBe(0);
    expect(featherSigma(10, 4000, 3000)).toBeCloseTo(32);
    expect(featherSigma(10, 500, 400)).toBeCloseTo(4);
    expect(featherSigma(3, 4000, 3000)).toBeLessThan(featherSigma(10, 4000, 3000) / 5);
  });

  it("gives each subject type its own treatment", () => {
    expect(subjectProfile("logo", false)).toMatchObject({ hardEdges: true, islandFraction: 0, holes: null });
    expect(subjectProfile("text", true)).toMatchObject({ hardEdges: true, highDetail: true });
    expect(subjectProfile("product", false).holes).not.toBeNull();
    expect(subjectProfile("hair_heavy", false).highDetail).toBe(true);
    expect(subjectProfile("person", false).levels![0]).toBeGreaterThan(subjectProfile("hair_heavy", false).levels![0]);
  });

  it("reads the engine settings from the environment and names a bad one", () => {
    expect(engineConfig({ BG_REMOVAL_MAX_MEGAPIXELS: "12", BG_REMOVAL_WORKERS: "2", BG_REMOVAL_THREADS: "3" })).toEqual({
      maxPixels: 12_000_000,
      workers: 2,
      threads: 3,
      keepWarm: false,
      idleMs: 60_000,
      matteCache: 2,
      countFaces: true,
    });
    expect(engineConfig({ BG_REMOVAL_COUNT_FACES: "false" }).countFaces).toBe(false);
    expect(engineConfig({}).maxPixels).toBe(50_000_000);
    expect(() => engineConfig({ BG_REMOVAL_WORKERS: "zero" })).toThrow(/BG_REMOVAL_WORKERS/);
  });
});
