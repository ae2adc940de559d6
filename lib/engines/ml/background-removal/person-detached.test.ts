import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";

// rule.detachedFill on drawn mattes (no model), as person-headless.test.ts: a 200 x 120 frame where "ISNet" and
// "the person model" are placed by hand. Held-out c0026375 drawn small: ISNet finds a child (head and shoulders);
// the person model is sure of the child and, apart from it, of a block of the table below (its overshoot below the
// child's arm), unsure (0.3) between the two. The solid fill paints that block, as people stand above it in its columns.
const W = 200, H = 120;
const { plane, inRect, matte, at } = drawnMattes(W, H);
const child = (x: number, y: number) => inRect(x, y, 70, 5, 130, 60);
const table = (x: number, y: number) => inRect(x, y, 70, 80, 130, 115);
const whole = (between = 0.3) =>
  plane((x, y) => (inRect(x, y, 68, 3, 132, 62) || table(x, y) ? 0.98 : inRect(x, y, 68, 62, 132, 80) ? between : 0.01));

describe("keepPerson: a fill that touches none of ISNet's kept regions (rule.detachedFill)", () => {
  it("clears the person model's block below a child, apart from the child (held-out c0026375)", async () => {
    const m = matte(child);
    await keepPerson(m, whole(), undefined, PERSON_RULE);
    expect(at(m, 100, 100)).toBe(0); // the table's block
    expect(at(m, 100, 30)).toBe(1); // the child
    // The rule before (people12): the block is painted solid.
    const before = matte(child);
    await keepPerson(before, whole(), undefined, { ...PERSON_RULE, detachedFill: false });
    expect(at(before, 100, 100)).toBe(1);
  });

  it("keeps a dark jacket ISNet missed that hangs from the head it found (the fill touches ISNet's region)", async () => {
    const m = matte(child);
    await keepPerson(m, whole(0.98), undefined, PERSON_RULE);
    expect(at(m, 100, 100)).toBe(1);
    expect(at(m, 100, 70)).toBe(1);
    expect(at(m, 100, 30)).toBe(1);
  });
});
