import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";
import type { BodyPoint } from "./pose-arms";

// rule.bodilessFill on drawn mattes (no model), as person-floating.test.ts: a 200 x 120 frame where "ISNet", "the person
// model" and "the pose model's keypoints" are placed by hand. Unseen6 v181 drawn small: a woman ISNet cuts out well, and
// below and beside her a white board the person model calls a person too, running out of the frame at the right and the
// bottom, where ISNet is sure of background; the rule's fills paint it solid.
const W = 200, H = 120;
const { plane, inRect, matte, at } = drawnMattes(W, H);
const RULE = { ...PERSON_RULE, bodilessFill: 0.5 };

const woman = (x: number, y: number) => inRect(x, y, 60, 10, 100, 70);
const board = (x: number, y: number) => inRect(x, y, 60, 70, 200, 120);
const whole = (f: (x: number, y: number) => boolean) => plane((x, y) => (f(x, y) ? 0.98 : 0.01));
const point = (part: number, x: number, y: number, score = 0.8, who = 0): BodyPoint => ({ part, x, y, score, who });
// Her head, shoulders (20 px apart: her scale), elbows, wrists, hips, knees and ankles, all on her.
const her = (): BodyPoint[] => [
  point(0, 80, 15), point(1, 83, 13), point(2, 77, 13), point(5, 90, 25), point(6, 70, 25), point(7, 94, 38), point(8, 66, 38),
  point(9, 95, 48), point(10, 65, 48), point(11, 88, 50), point(12, 72, 50), point(13, 88, 57), point(14, 72, 57), point(15, 88, 64), point(16, 72, 64),
];

describe("keepPerson: a large fill with no body in it (rule.bodilessFill)", () => {
  it("gives ISNet back a board below a woman that the person model calls a person (unseen6 v181)", async () => {
    const scene = (x: number, y: number) => woman(x, y) || board(x, y);
    const m = matte(woman);
    let asked = 0;
    await keepPerson(m, whole(scene), undefined, RULE, undefined, undefined, undefined, undefined, async () => (asked++, her()));
    expect(asked).toBe(1);
    expect(at(m, 150, 100)).toBe(0); // the board
    expect(at(m, 80, 40)).toBe(1); // the woman
    // The rule before (bodilessFill 0): the fills paint the board.
    const before = matte(woman);
    await keepPerson(before, whole(scene), undefined, { ...RULE, bodilessFill: 0 }, undefined, undefined, undefined, undefined, async () => her());
    expect(at(before, 150, 100)).toBe(1);
  });

  it("keeps a body ISNet missed: it holds the keypoints of a second person", async () => {
    const scene = (x: number, y: number) => woman(x, y) || board(x, y);
    const m = matte(woman);
    // A second person sitting on the "board": shoulders, hips and knees the pose model finds there.
    const two = [...her(), point(5, 160, 85, 0.8, 1), point(6, 130, 85, 0.8, 1), point(11, 155, 105, 0.8, 1), point(12, 135, 105, 0.8, 1), point(13, 155, 115, 0.8, 1), point(14, 135, 115, 0.8, 1)];
    await keepPerson(m, whole(scene), undefined, RULE, undefined, undefined, undefined, undefined, async () => two);
    expect(at(m, 150, 100)).toBe(1);
  });

  it("keeps a dark jacket ISNet missed under a head: its shoulders and hips are in it", async () => {
    const head = (x: number, y: number) => inRect(x, y, 70, 5, 90, 30);
    const body = (x: number, y: number) => head(x, y) || inRect(x, y, 50, 30, 110, 120);
    const m = matte(head);
    const points = [point(0, 80, 15), point(1, 83, 12), point(2, 77, 12), point(5, 100, 40), point(6, 60, 40), point(11, 95, 85), point(12, 65, 85), point(13, 95, 110), point(14, 65, 110)];
    await keepPerson(m, whole(body), undefined, RULE, undefined, undefined, undefined, undefined, async () => points);
    expect(at(m, 80, 80)).toBe(1);
  });

  it("keeps a white shirt ISNet missed below a portrait's shoulders: no knee or ankle found, the body runs on out of the frame", async () => {
    // The 41's v99 / unseen v32: head and neck kept by ISNet, the shirt below the shoulders added by the fills; the pose
    // model finds the head and the shoulders only, on the neck ISNet kept, so the shirt lies apart from that skeleton.
    const head = (x: number, y: number) => inRect(x, y, 80, 5, 110, 45);
    const body = (x: number, y: number) => head(x, y) || inRect(x, y, 20, 45, 180, 120);
    const m = matte(head);
    const points = [point(0, 95, 25), point(1, 99, 20), point(2, 91, 20), point(5, 105, 38), point(6, 85, 38)];
    await keepPerson(m, whole(body), undefined, RULE, undefined, undefined, undefined, undefined, async () => points);
    expect(at(m, 40, 110)).toBe(1);
    expect(at(m, 160, 110)).toBe(1);
  });

  it("clears nothing when the pose model finds no one", async () => {
    const scene = (x: number, y: number) => woman(x, y) || board(x, y);
    const m = matte(woman);
    await keepPerson(m, whole(scene), undefined, RULE, undefined, undefined, undefined, undefined, async () => []);
    expect(at(m, 150, 100)).toBe(1);
  });
});
