import { describe, expect, it } from "vitest";
import { components } from "./matte-ops";
import { countPeople, mayHoldSeveral, peopleMapOf } from "./count-people";

// Drawn people regions (no model): a 400 x 300 working frame, so the map is sampled down.
const W = 400, H = 300;
const inRect = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) => x >= x0 && x < x1 && y >= y0 && y < y1;
/** Two people who touch (one region: x 40..220) and one apart (x 280..360). */
const person = (x: number, y: number) => inRect(x, y, 40, 60, 130, 300) || inRect(x, y, 125, 50, 220, 300) || inRect(x, y, 280, 80, 360, 300);
const regions = components(W, H, (i) => person(i % W, Math.floor(i / W)), true);
const kept = regions.sizes.flatMap((_, l) => (l > 0 ? [l] : []));
// The photo is twice the working size.
const photo = { width: 800, height: 600 };

describe("countPeople", () => {
  const map = peopleMapOf(regions.labels, kept, W, H);

  it("samples the kept regions down, one label each", () => {
    expect(map.width).toBe(160);
    expect(map.height).toBe(120);
    expect(map.regions).toBe(2);
  });

  it("counts two faces on one region as two people, and a region without a face as one", () => {
    const faces = [
      { x: 120, y: 140, w: 60, h: 70 }, // the left of the two who touch
      { x: 300, y: 120, w: 60, h: 70 }, // the right one
    ];
    expect(countPeople(map, faces, photo)).toBe(3);
    expect(countPeople(map, [], photo)).toBe(2);
  });

  it("does not count a face on no kept region (a person behind, removed; a poster)", () => {
    expect(countPeople(map, [{ x: 500, y: 20, w: 40, h: 40 }, { x: 580, y: 20, w: 60, h: 60 }], photo)).toBe(2);
  });

  it("puts a face whose centre falls in a hole of the region on the region under most of its middle", () => {
    const holed = (x: number, y: number) => person(x, y) && !inRect(x, y, 80, 100, 86, 106);
    const r = components(W, H, (i) => holed(i % W, Math.floor(i / W)), true);
    const m = peopleMapOf(r.labels, r.sizes.flatMap((_, l) => (l > 0 ? [l] : [])), W, H);
    const face = { x: 136, y: 176, w: 60, h: 60 }; // centre (166, 206): working (83, 103), in the hole
    expect(countPeople(m, [face, { x: 300, y: 120, w: 60, h: 70 }], photo)).toBe(3);
  });
});

describe("mayHoldSeveral: whether faces are worth looking for", () => {
  const mapOf = (inside: (x: number, y: number) => boolean) => {
    const r = components(W, H, (i) => inside(i % W, Math.floor(i / W)), true);
    return peopleMapOf(r.labels, r.sizes.flatMap((_, l) => (l > 0 ? [l] : [])), W, H);
  };
  const disc = (x: number, y: number, cx: number, cy: number, r: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  /** A head (radius 30) on shoulders 140 wide from 40 below its centre to the frame's bottom, with a slope from neck to shoulder. */
  const bust = (x: number, y: number, cx: number, cy: number) =>
    disc(x, y, cx, cy, 30) || inRect(x, y, cx - 12, cy, cx + 12, cy + 45) || (y >= cy + 40 + Math.abs(x - cx) * 0.25 && Math.abs(x - cx) <= 70);

  it("no for one person: the top edge rises once, to the head", () => {
    expect(mayHoldSeveral(mapOf((x, y) => bust(x, y, 200, 120)))).toBe(false);
  });

  it("no for a person cut by the frame's side (the cut is not a drop)", () => {
    expect(mayHoldSeveral(mapOf((x, y) => bust(x, y, 40, 120)))).toBe(false);
  });

  it("yes for two people who touch: two heads on one region", () => {
    expect(mayHoldSeveral(mapOf((x, y) => bust(x, y, 140, 120) || bust(x, y, 260, 140)))).toBe(true);
  });

  it("yes for a region much wider than high (people lying or sitting side by side)", () => {
    expect(mayHoldSeveral(mapOf((x, y) => inRect(x, y, 20, 240, 380, 300)))).toBe(true);
  });

  it("no for the separate regions of two people apart: each counts one without a face", () => {
    expect(mayHoldSeveral(mapOf((x, y) => bust(x, y, 90, 150) || bust(x, y, 310, 150)))).toBe(false);
  });
});
