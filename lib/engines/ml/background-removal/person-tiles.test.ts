import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE, type Box, type PersonReport } from "./person-matte";
import { lookInTiles } from "./person-tiles";
import { drawnMattes } from "./drawn-mattes";

// The tile look's arithmetic on drawn mattes (no model), as person-matte.test.ts: a wide 200 x 100
// frame where "ISNet", "the person model on the whole frame" and "the person model on a closer
// square" are shapes we place. The group is held-out v21's failure drawn small: a row of people
// sitting side by side, ISNet's one region from the first to the last, the whole frame's mask on
// the first only.
const W = 200, H = 100;
const { plane, inRect, matte, at } = drawnMattes(W, H);

// Six people, 16 px wide, from y 40 (the head) to y 80, touching at their laps (y 70..80).
const lefts = [20, 47, 74, 101, 128, 155];
const seated = (x: number, y: number) => lefts.some((l) => inRect(x, y, l, 40, l + 16, 80)) || inRect(x, y, 20, 70, 171, 80);
// The person model on a closer square sees each of them (0.97); on the whole frame only the first.
const closer = (look: Box[], sees: (x: number, y: number) => boolean) => async (box: Box) => {
  look.push(box);
  const p = new Float32Array(box.width * box.height);
  for (let y = 0; y < box.height; y++) for (let x = 0; x < box.width; x++) p[y * box.width + x] = sees(box.left + x, box.top + y) ? 0.97 : 0.02;
  return p;
};

describe("lookInTiles", () => {
  it("keeps a whole row of small people the whole frame's mask found one of (held-out v21), and counts them", async () => {
    const whole = plane((x, y) => (inRect(x, y, 20, 40, 36, 80) ? 0.95 : 0.01));
    const looked: Box[] = [];
    const mask = await lookInTiles(matte(seated), whole, closer(looked, seated), PERSON_RULE);
    expect(mask).toBeDefined();
    // Squares along the row, each larger than the people's height, none as large as the frame.
    expect(looked.length).toBeGreaterThanOrEqual(2);
    for (const b of looked) expect(b.width).toBeLessThan(0.75 * W);
    const m = matte(seated);
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, mask!, undefined, PERSON_RULE, report);
    for (const l of lefts) expect(at(m, l + 8, 55)).toBe(1); // every one of them
    expect(report.people).toBe(1); // one region (they touch at their laps): the faces tell them apart (count-people.ts)
    // Before (no tile look): the five beyond the first were one piece of ISNet too large to be a hand, cleared.
    const before = matte(seated);
    await keepPerson(before, whole, undefined, PERSON_RULE);
    expect(at(before, 28, 55)).toBe(1);
    for (const l of lefts.slice(2)) expect(at(before, l + 8, 55)).toBe(0);
  });

  it("does not look again where ISNet's subject is the person the mask found", async () => {
    const person = (x: number, y: number) => inRect(x, y, 80, 20, 120, 100);
    const looked: Box[] = [];
    const mask = await lookInTiles(matte(person), plane((x, y) => (person(x, y) ? 0.98 : 0.01)), closer(looked, person), PERSON_RULE);
    expect(mask).toBeUndefined();
    expect(looked).toHaveLength(0);
  });

  it("still clears a poster merged with the person when the closer squares see no one on it", async () => {
    const person = (x: number, y: number) => inRect(x, y, 120, 20, 150, 100);
    const withPoster = (x: number, y: number) => person(x, y) || inRect(x, y, 40, 10, 122, 70);
    const looked: Box[] = [];
    const whole = plane((x, y) => (person(x, y) ? 0.98 : 0.01));
    const mask = await lookInTiles(matte(withPoster), whole, closer(looked, person), PERSON_RULE);
    expect(looked.length).toBeGreaterThan(0); // most of ISNet's subject lies outside the mask: looked at
    const m = matte(withPoster);
    await keepPerson(m, mask ?? whole, undefined, PERSON_RULE);
    expect(at(m, 70, 40)).toBe(0); // the poster
    expect(at(m, 135, 60)).toBe(1); // the person
  });

  it("is off at tileLook 0", async () => {
    const looked: Box[] = [];
    const whole = plane((x, y) => (inRect(x, y, 20, 40, 36, 80) ? 0.95 : 0.01));
    expect(await lookInTiles(matte(seated), whole, closer(looked, seated), { ...PERSON_RULE, tileLook: 0 })).toBeUndefined();
    expect(looked).toHaveLength(0);
  });
});
