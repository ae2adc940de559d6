import { describe, expect, it } from "vitest";
import { groupFaces } from "./group-faces";

// Synthetic 256-d embeddings: a person is a random unit direction, a photo of them
// that direction plus noise, scaled so same-person cosines land near `same`.
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32 - 0.5;
  };
}
const rand = rng(42);
const direction = () => Array.from({ length: 256 }, rand);
function photo(person: number[], noise: number) {
  return person.map((x) => x + noise * rand());
}
const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const cos = (a: number[], b: number[]) => unit(a).reduce((s, x, i) => s + x * unit(b)[i]!, 0);

describe("groupFaces", () => {
  it("puts each person's photos in one group and no two people together", () => {
    const people = [direction(), direction(), direction()];
    const faces = [0, 1, 2, 0, 1, 0, 2, 1].map((p) => photo(people[p]!, 0.9));
    // The noise leaves same-person pairs around cosine 0.55, strangers near 0.
    expect(cos(faces[0]!, faces[3]!)).toBeGreaterThan(0.45);
    expect(cos(faces[0]!, faces[3]!)).toBeLessThan(0.65);
    expect(groupFaces(faces)).toEqual([
      [0, 3, 5],
      [1, 4, 7],
      [2, 6],
    ]);
  });

  it("does not chain two people through one face between them (average, not single, linkage)", () => {
    const a = direction();
    const b = direction();
    // A face halfway between the two is close to both ends, but a group's mean pair is not.
    const between = a.map((x, i) => x + b[i]!);
    const faces = [photo(a, 0.3), photo(a, 0.3), between, photo(b, 0.3), photo(b, 0.3)];
    expect(cos(faces[2]!, faces[0]!)).toBeGreaterThan(0.6);
    const groups = groupFaces(faces);
    expect(groups.some((g) => g.includes(0) && g.includes(3))).toBe(false);
    expect(groups).toContainEqual(expect.arrayContaining([0, 1]));
    expect(groups).toContainEqual(expect.arrayContaining([3, 4]));
  });

  it("leaves strangers alone, each in a group of one", () => {
    const faces = [direction(), direction(), direction()];
    expect(groupFaces(faces)).toEqual([[0], [1], [2]]);
    expect(groupFaces([])).toEqual([]);
  });

  it("refuses embeddings of different lengths", () => {
    expect(() => groupFaces([direction(), direction().slice(0, 128)])).toThrow(/one model/);
  });
});
