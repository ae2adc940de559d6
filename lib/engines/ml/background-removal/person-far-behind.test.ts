import { describe, expect, it } from "vitest";
import { farBehindPeople, keepPerson, PERSON_RULE, type Box, type PersonReport } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";
import type { BodyPoint } from "./pose-arms";

// rule.farBehind on drawn mattes (no model), as person-headless.test.ts: a 200 x 160 frame where "ISNet", "the
// person model" and "the pose model's keypoints" are placed by hand. Held-out c0012008 drawn small: two people
// standing in front (feet at the frame's bottom) and a person standing behind the left one, smaller, whose feet
// are higher up the same ground; ISNet and the person mask take that person with the left subject as one region.
const W = 240, H = 160;
const { plane, inRect, matte, at } = drawnMattes(W, H);
const RULE = PERSON_RULE;

const leftSubject = (x: number, y: number) => inRect(x, y, 30, 30, 66, 150);
const rightSubject = (x: number, y: number) => inRect(x, y, 160, 30, 196, 150);
// Standing apart from the subject's body (c0012008: its lowest knee 2.1 subject scales from the subject's skeleton),
// joined to the subject's region by a strip (the rope in c0012008).
const behind = (x: number, y: number) => inRect(x, y, 88, 18, 104, 96) || inRect(x, y, 66, 60, 88, 64);
const scene = (x: number, y: number) => leftSubject(x, y) || rightSubject(x, y) || behind(x, y);
const whole = () => plane((x, y) => (scene(x, y) ? 0.98 : 0.01));
// Everyone is a person on their own square too: no second look clears anyone.
const closer = async (box: Box) => new Float32Array(box.width * box.height).fill(0.97);

const point = (who: number, part: number, x: number, y: number, score = 0.8): BodyPoint => ({ who, part, x, y, score });
/** A standing person: eyes, ears, shoulders (scale = shoulder width), hips, knees, ankles (the feet at `foot`). */
const standing = (who: number, cx: number, top: number, shoulders: number, foot: number): BodyPoint[] => {
  const s = shoulders / 2, body = foot - top;
  return [
    point(who, 1, cx + s * 0.2, top + 0.08 * body), point(who, 2, cx - s * 0.2, top + 0.08 * body),
    point(who, 3, cx + s * 0.45, top + 0.1 * body), point(who, 4, cx - s * 0.45, top + 0.1 * body),
    point(who, 5, cx + s, top + 0.25 * body), point(who, 6, cx - s, top + 0.25 * body),
    point(who, 11, cx + s * 0.6, top + 0.55 * body), point(who, 12, cx - s * 0.6, top + 0.55 * body),
    point(who, 13, cx + s * 0.6, top + 0.78 * body), point(who, 14, cx - s * 0.6, top + 0.78 * body),
    point(who, 15, cx + s * 0.6, foot), point(who, 16, cx - s * 0.6, foot),
  ];
};
const subjects = () => [...standing(0, 48, 30, 30, 146), ...standing(1, 178, 30, 30, 146)];

describe("keepPerson: people far behind the subjects (rule.farBehind)", () => {
  it("clears a smaller person standing behind a subject, feet higher up, joined to the subject (held-out c0012008)", async () => {
    const m = matte(scene);
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, whole(), closer, RULE, report, undefined, undefined, undefined, async () => [...subjects(), ...standing(2, 96, 18, 10, 92)]);
    expect(at(m, 96, 40)).toBe(0); // the person behind
    expect(at(m, 96, 85)).toBe(0);
    expect(at(m, 48, 60)).toBe(1); // the subjects
    expect(at(m, 63, 35)).toBe(1);
    expect(at(m, 178, 60)).toBe(1);
    expect(report.people).toBe(2);
    // The rule before (people13): the person behind is kept with the subject.
    const before = matte(scene);
    await keepPerson(before, whole(), closer, { ...PERSON_RULE, farBehind: 0 }, undefined, undefined, undefined, undefined, async () => [...subjects(), ...standing(2, 96, 18, 10, 92)]);
    expect(at(before, 96, 40)).toBe(1);
  });

  it("keeps a child beside a parent (smaller, feet on the same line) and a person whose feet the pose model does not see", async () => {
    const child = (x: number, y: number) => inRect(x, y, 66, 90, 82, 150);
    const withChild = (x: number, y: number) => leftSubject(x, y) || rightSubject(x, y) || child(x, y);
    const m = matte(withChild);
    await keepPerson(m, plane((x, y) => (withChild(x, y) ? 0.98 : 0.01)), closer, RULE, undefined, undefined, undefined, undefined, async () => [...subjects(), ...standing(2, 74, 90, 10, 146)]);
    expect(at(m, 74, 110)).toBe(1);
    // The person behind with no knee or ankle found: not judged.
    const noFeet = standing(2, 96, 18, 10, 92).filter((p) => p.part < 13);
    const n = matte(scene);
    await keepPerson(n, whole(), closer, RULE, undefined, undefined, undefined, undefined, async () => [...subjects(), ...noFeet]);
    expect(at(n, 96, 40)).toBe(1);
  });

  it("keeps a small child held in a parent's arms (feet higher, but on the parent's body)", async () => {
    const held = (x: number, y: number) => inRect(x, y, 52, 50, 70, 100);
    const withHeld = (x: number, y: number) => leftSubject(x, y) || rightSubject(x, y) || held(x, y);
    const child = standing(2, 60, 50, 12, 95);
    expect(farBehindPeople([...subjects(), ...child], H, RULE).far).toHaveLength(0);
    expect(farBehindPeople([...subjects(), ...child], H, { ...RULE, farFootClear: 0 }).far).toHaveLength(1);
    const m = matte(withHeld);
    await keepPerson(m, plane((x, y) => (withHeld(x, y) ? 0.98 : 0.01)), closer, RULE, undefined, undefined, undefined, undefined, async () => [...subjects(), ...child]);
    expect(at(m, 66, 60)).toBe(1);
  });

  it("keeps a second subject of about the same scale standing higher (a step), and finds no one far behind with one person", () => {
    const onAStep = farBehindPeople([...standing(0, 48, 30, 30, 146), ...standing(1, 178, 10, 26, 100)], H, RULE);
    expect(onAStep.far).toHaveLength(0);
    expect(farBehindPeople(standing(0, 48, 30, 30, 146), H, RULE).far).toHaveLength(0);
    const far = farBehindPeople([...subjects(), ...standing(2, 96, 18, 10, 92)], H, RULE);
    expect(far.far).toHaveLength(1);
    expect(far.near).toHaveLength(2);
  });
});
