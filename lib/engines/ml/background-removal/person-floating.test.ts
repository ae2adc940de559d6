import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE, type Box } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";
import type { BodyPoint } from "./pose-arms";

// rule.floatingClear on drawn mattes (no model), as person-headless.test.ts: a 200 x 120 frame where "ISNet", "the person
// model" (whole frame and a closer square) and "the pose model's keypoints" are placed by hand. Fresh v245 drawn small: a man
// standing, and a traffic sign on a pole high above him, a region of ISNet's of its own, which the person model covers on the
// whole frame and is sure of on its own square too.
const W = 200, H = 120;
const { plane, inRect, matte, at } = drawnMattes(W, H);
const RULE = { ...PERSON_RULE, floatingClear: 0.5 };

const man = (x: number, y: number) => inRect(x, y, 80, 40, 120, 118);
const sign = (x: number, y: number) => inRect(x, y, 94, 8, 106, 24);
// A hand ISNet cut off the raised arm: above the man's top too, at his wrist.
const hand = (x: number, y: number) => inRect(x, y, 124, 20, 132, 32);
// A small person behind, whom the pose model does not see: their body stands lower than the man's head.
const behind = (x: number, y: number) => inRect(x, y, 30, 50, 38, 78);
const whole = (f: (x: number, y: number) => boolean) => plane((x, y) => (f(x, y) ? 0.98 : 0.01));
// The second look is fooled too (v245's sign: 0.86).
const fooled = async (box: Box) => new Float32Array(box.width * box.height).fill(0.9);
const point = (part: number, x: number, y: number, score = 0.8): BodyPoint => ({ part, x, y, score, who: 0 });
// The man's head, shoulders (30 px apart: his scale), hips, knees and ankles.
const body = (): BodyPoint[] => [
  point(0, 100, 48), point(1, 103, 45), point(2, 97, 45), point(5, 115, 60), point(6, 85, 60),
  point(11, 110, 85), point(12, 90, 85), point(13, 110, 100), point(14, 90, 100), point(15, 110, 115), point(16, 90, 115),
];

describe("keepPerson: something floating above the people (rule.floatingClear)", () => {
  it("clears a sign high above a man that both looks of the person model call a person (fresh v245)", async () => {
    const scene = (x: number, y: number) => man(x, y) || sign(x, y);
    const m = matte(scene);
    let asked = 0;
    await keepPerson(m, whole(scene), fooled, RULE, undefined, undefined, undefined, undefined, async () => (asked++, body()));
    expect(asked).toBe(1);
    expect(at(m, 100, 15)).toBe(0); // the sign
    expect(at(m, 100, 80)).toBe(1); // the man
    // The rule before (floatingClear 0): the mask covers the sign and its second look keeps it.
    const before = matte(scene);
    await keepPerson(before, whole(scene), fooled, { ...RULE, floatingClear: 0 }, undefined, undefined, undefined, undefined, async () => body());
    expect(at(before, 100, 15)).toBe(1);
  });

  it("keeps a raised hand ISNet cut off its arm: it holds the wrist's keypoint", async () => {
    const scene = (x: number, y: number) => man(x, y) || hand(x, y);
    const m = matte(scene);
    const raised = [...body(), point(7, 122, 45), point(9, 127, 31)];
    await keepPerson(m, whole(scene), fooled, RULE, undefined, undefined, undefined, undefined, async () => raised);
    expect(at(m, 128, 26)).toBe(1);
  });

  it("keeps a person behind whom the pose model misses, standing lower than the man's head, and asks no pose for them", async () => {
    const scene = (x: number, y: number) => man(x, y) || behind(x, y);
    const m = matte(scene);
    let asked = 0;
    await keepPerson(m, whole(scene), fooled, RULE, undefined, undefined, undefined, undefined, async () => (asked++, body()));
    expect(asked).toBe(0);
    expect(at(m, 34, 65)).toBe(1);
  });
});
