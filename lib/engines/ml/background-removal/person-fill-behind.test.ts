import { describe, expect, it } from "vitest";
import { filledBehindPeople, keepPerson, PERSON_RULE, type Box } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";
import type { BodyPoint } from "./pose-arms";

// rule.fillBehind on drawn mattes (no model), as person-far-behind.test.ts: two subjects ISNet keeps, and between them,
// touching both, a smaller person standing behind whom ISNet leaves faint (0.2) and the person model covers as one
// blob with the subjects, so the rule's core fill makes them solid (fresh v237's man between two women). The pose
// model finds that person's head and shoulders, no knees or ankles (farBehind never judges them).
const W = 240, H = 160;
const { plane, inRect, matte, at } = drawnMattes(W, H);

const leftSubject = (x: number, y: number) => inRect(x, y, 30, 30, 66, 150);
const rightSubject = (x: number, y: number) => inRect(x, y, 100, 30, 136, 150);
const behind = (x: number, y: number) => inRect(x, y, 66, 24, 100, 110);
const subjectsOnly = (x: number, y: number) => leftSubject(x, y) || rightSubject(x, y);
const isnet = () => matte((x, y) => (subjectsOnly(x, y) ? 0.98 : behind(x, y) ? 0.2 : 0.01));
const personMask = (part: (x: number, y: number) => boolean) => plane((x, y) => (subjectsOnly(x, y) || part(x, y) ? 0.98 : 0.01));
const closer = async (box: Box) => new Float32Array(box.width * box.height).fill(0.97);

const point = (who: number, part: number, x: number, y: number, score = 0.8): BodyPoint => ({ who, part, x, y, score });
/** Nose, eyes, ears, shoulders (scale = shoulder width) and hips; with `feet`, knees and ankles too (the feet at `foot`). */
const body = (who: number, cx: number, top: number, shoulders: number, foot: number, feet = true): BodyPoint[] => {
  const s = shoulders / 2, b = foot - top;
  const pts = [
    point(who, 0, cx, top + 0.08 * b),
    point(who, 1, cx + s * 0.2, top + 0.07 * b), point(who, 2, cx - s * 0.2, top + 0.07 * b),
    point(who, 3, cx + s * 0.45, top + 0.09 * b), point(who, 4, cx - s * 0.45, top + 0.09 * b),
    point(who, 5, cx + s, top + 0.25 * b), point(who, 6, cx - s, top + 0.25 * b),
    point(who, 11, cx + s * 0.6, top + 0.55 * b), point(who, 12, cx - s * 0.6, top + 0.55 * b),
  ];
  if (feet) pts.push(point(who, 13, cx + s * 0.6, top + 0.78 * b), point(who, 14, cx - s * 0.6, top + 0.78 * b), point(who, 15, cx + s * 0.6, foot), point(who, 16, cx - s * 0.6, foot));
  return pts;
};
const subjects = () => [...body(0, 48, 30, 30, 146), ...body(1, 118, 30, 30, 146)];
const personBehind = () => body(2, 83, 26, 12, 110, false);
const ON = { ...PERSON_RULE, fillBehind: 0.6 };

describe("keepPerson: people behind the subjects whom only the fills add (rule.fillBehind)", () => {
  it("gives a smaller person behind, between two subjects, whose head ISNet leaves out, back to ISNet (fresh v237)", async () => {
    const pose = async () => [...subjects(), ...personBehind()];
    const m = isnet();
    await keepPerson(m, personMask(behind), closer, ON, undefined, undefined, undefined, undefined, pose);
    expect(at(m, 83, 40)).toBeCloseTo(0.2); // the person behind: ISNet's matte again
    expect(at(m, 83, 60)).toBeCloseTo(0.2);
    expect(at(m, 48, 60)).toBe(1); // the subjects
    expect(at(m, 118, 60)).toBe(1);
    expect(at(m, 64, 60)).toBe(1); // a subject's edge beside the person behind stays the subject's
    // The rule before (people15): the fills make the person behind solid.
    const before = isnet();
    await keepPerson(before, personMask(behind), closer, { ...PERSON_RULE, fillBehind: 0 }, undefined, undefined, undefined, undefined, pose);
    expect(at(before, 83, 40)).toBe(1);
    expect(at(before, 83, 60)).toBe(1);
  });

  it("keeps what the fills add without a head of its own (an arm ISNet leaves faint), and a second subject of the same scale", async () => {
    const m = isnet();
    await keepPerson(m, personMask(behind), closer, ON, undefined, undefined, undefined, undefined, async () => subjects());
    expect(at(m, 83, 60)).toBe(1);
    const same = body(2, 83, 26, 30, 110, false);
    const n = isnet();
    await keepPerson(n, personMask(behind), closer, ON, undefined, undefined, undefined, undefined, async () => [...subjects(), ...same]);
    expect(at(n, 83, 60)).toBe(1);
    expect(filledBehindPeople([...subjects(), ...same], isnet().data, plane(() => 1), W, H, ON).behind).toHaveLength(0);
    expect(filledBehindPeople([...subjects(), ...personBehind()], isnet().data, plane(() => 1), W, H, ON).behind).toHaveLength(1);
    // A person whose head ISNet keeps is never judged, however small.
    expect(filledBehindPeople([...subjects(), ...body(2, 48, 40, 8, 80, false)], isnet().data, plane(() => 1), W, H, ON).behind).toHaveLength(0);
  });
});
