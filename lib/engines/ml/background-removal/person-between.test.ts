import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";
import type { BodyPoint } from "./pose-arms";

// The space between two people who do not touch (clearBetween), on drawn mattes (no model): 100 x 100 frames.
const W = 100, H = 100;
const { plane, inRect, matte, at } = drawnMattes(W, H);

// Two people (x 10..40 and 50..80, from y 20 to the frame's bottom) with a 10 px street between them. ISNet cuts
// both sharply and leaves the street out; the person model's coarse blob runs over the street from y 30 to y 90
// (not to the bottom: the ground step, which judges pieces running out of the frame, is no part of this). The solid
// fill has a person on both sides there and paints it. The people are red and beige, the street grey.
const left = (x: number, y: number) => inRect(x, y, 10, 20, 40, 100);
const right = (x: number, y: number) => inRect(x, y, 50, 20, 80, 100);
const street = (x: number, y: number) => inRect(x, y, 40, 30, 50, 90);
const isnet = (x: number, y: number) => (left(x, y) || right(x, y) ? 1 : 0);
const p = plane((x, y) => (left(x, y) || right(x, y) || street(x, y) ? 0.99 : 0.01));
const photo = (inStreet: number[]) => {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) rgb.set(left(x, y) ? [200, 30, 40] : right(x, y) ? [210, 180, 140] : street(x, y) ? inStreet : [120, 110, 100], (y * W + x) * 3);
  }
  return rgb;
};

describe("clearBetween (betweenColour)", () => {
  it("gives the street between two people back to ISNet when it has the background's colours", async () => {
    const rgb = photo([120, 110, 100]);
    const m = matte(isnet);
    await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, undefined, rgb);
    expect(at(m, 45, 60)).toBe(0); // the street
    expect(at(m, 25, 60)).toBe(1); // the people
    expect(at(m, 65, 60)).toBe(1);
    // Without the step the fills paint it (the gap is open at the top and bottom: clearGaps does not judge it).
    const before = matte(isnet);
    await keepPerson(before, p, undefined, { ...PERSON_RULE, betweenColour: 0 }, undefined, undefined, undefined, rgb);
    expect(at(before, 45, 60)).toBe(1);
  });

  it("keeps what lies between them in a person's colours (an arm ISNet missed)", async () => {
    const m = matte(isnet);
    await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, undefined, photo([200, 30, 40]));
    expect(at(m, 45, 60)).toBe(1);
  });

  it("keeps it where ISNet drew the gap unsure (a soft band, not a sharp street)", async () => {
    // ISNet fades from each person into the gap: most of the piece's rim is 0.05..0.95.
    const soft = (x: number, y: number) => (isnet(x, y) ? 1 : street(x, y) ? Math.max(0, 0.5 - 0.12 * Math.min(x - 40, 49 - x)) : 0);
    const m = matte(soft);
    await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, undefined, photo([120, 110, 100]));
    expect(at(m, 45, 60)).toBe(1);
  });

  it("does not judge a piece beside one person only", async () => {
    // One person, the mask's blob over the background at its side: no second person within reach.
    const one = (x: number, y: number) => (left(x, y) ? 1 : 0);
    const q = plane((x, y) => (left(x, y) || inRect(x, y, 40, 30, 50, 90) ? 0.99 : 0.01));
    const rule = { ...PERSON_RULE, bothSides: false };
    const m = matte(one), before = matte(one);
    await keepPerson(m, q, undefined, rule, undefined, undefined, undefined, photo([120, 110, 100]));
    await keepPerson(before, q, undefined, { ...rule, betweenColour: 0 }, undefined, undefined, undefined, photo([120, 110, 100]));
    expect(m.data).toEqual(before.data);
  });

  it("tells two people who touch apart by the pose model's skeletons (one ISNet region, arm in arm)", async () => {
    // The same two people joined by an arm at y 40..46: ISNet draws one region, the street below the arm is open at the
    // bottom (clearGaps does not judge it). The pose model finds two skeletons, one each side of the street.
    const arm = (x: number, y: number) => inRect(x, y, 40, 40, 50, 46);
    const joined = (x: number, y: number) => (isnet(x, y) || arm(x, y) ? 1 : 0);
    const q = plane((x, y) => (left(x, y) || right(x, y) || arm(x, y) || inRect(x, y, 40, 46, 50, 90) ? 0.99 : 0.01));
    const skeleton = (x0: number, x1: number, who: number): BodyPoint[] => [
      { x: x0, y: 30, part: 5, score: 0.9, who },
      { x: x1, y: 30, part: 6, score: 0.9, who },
      { x: x0 + 3, y: 60, part: 11, score: 0.9, who },
      { x: x1 - 3, y: 60, part: 12, score: 0.9, who },
    ];
    const body = async () => [...skeleton(15, 35, 0), ...skeleton(55, 75, 1)];
    const rgb = photo([120, 110, 100]);
    const m = matte(joined);
    await keepPerson(m, q, undefined, PERSON_RULE, undefined, undefined, undefined, rgb, body);
    expect(at(m, 45, 70)).toBe(0); // the street below the arm
    expect(at(m, 45, 43)).toBe(1); // the arm
    // Without the pose model the street lies by one region only and stays filled.
    const alone = matte(joined);
    await keepPerson(alone, q, undefined, PERSON_RULE, undefined, undefined, undefined, rgb);
    expect(at(alone, 45, 70)).toBe(1);
  });
});
