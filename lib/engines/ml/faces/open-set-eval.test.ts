import { describe, expect, it } from "vitest";
import { probit } from "simple-statistics";
import { evaluateOpenSet, fitImpostorTail, rocAuc, scoreNeeded, seeded, type EvalFaceParts } from "./open-set-eval";

// The evaluation's method at a size CI affords: 1,200 simulated people (two photos
// each) described by a net whose vectors are the person's own direction plus noise,
// so a photo's best impostor among N roster subjects is a real maximum of N draws.
// The full evaluation on real photos is `npm run calibrate:faces` with FACE_EVAL_DIR
// (lib/engines/ml/faces/README.md, "Evaluation").
function gaussian(rnd: () => number) {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}
function people(count: number, photos: number, noise: number, seed: number): EvalFaceParts[] {
  const rnd = seeded(seed);
  const out: EvalFaceParts[] = [];
  for (let p = 0; p < count; p++) {
    const centre = Float32Array.from({ length: 64 }, () => gaussian(rnd));
    for (let k = 0; k < photos; k++) out.push({ identity: `p${p}`, group: p % 3 === 0 ? "young" : "adult", parts: [centre.map((v) => v + noise * gaussian(rnd))] });
  }
  return out;
}

describe("open-set evaluation", () => {
  const faces = people(1200, 2, 0.6, 11);
  const { rows, auc } = evaluateOpenSet(faces, { rosterSizes: [10, 100, 1000], targetRate: 0.005, seed: 3 });
  const all = (n: number) => rows.find((r) => r.rosterSize === n && r.group === "all")!;

  it("holds the per-photo false-match rate at rosters of 10, 100 and 1,000 with a rule fitted on the other half", () => {
    for (const n of [10, 100, 1000]) {
      const r = all(n);
      // Both photos of each of the 600 test people, each against a roster without them.
      expect(r.guests).toBe(1200);
      // 0.5% promised: 6 of 1,200 expected; 15 would be a 1-in-1,000 binomial tail.
      expect(r.guestsMatched, `roster ${n}`).toBeLessThanOrEqual(15);
    }
    // The score needed rises with the roster, as the best of more impostors climbs.
    expect(all(10).required).toBeLessThan(all(100).required);
    expect(all(100).required).toBeLessThan(all(1000).required);
  });

  it("finds the people on the roster, the wrong one no more often than a guest, and reports each age group", () => {
    expect(auc).toBeGreaterThan(0.99);
    for (const n of [10, 100, 1000]) {
      const r = all(n);
      // A wrong subject is an impostor beating both the bar and the person's own reference: within the per-photo rate.
      expect(r.wrong, `roster ${n}`).toBeLessThanOrEqual(Math.ceil(r.probes * 0.005) + 3);
      expect(r.right / r.probes, `roster ${n}`).toBeGreaterThan(0.9);
      expect(r.right + r.wrong + r.review + r.unmatched).toBe(r.probes);
    }
    expect(rows.filter((r) => r.rosterSize === 100).map((r) => r.group)).toEqual(["all", "adult, same age", "young, same age"]);
  });

  it("a threshold fixed per pair lets the false matches grow with the roster (what the rule corrects)", () => {
    const fixed = all(10).required;
    const perPair = evaluateOpenSet(faces, { rosterSizes: [1000], targetRate: 0.005, seed: 3 }, (best) => (best >= fixed ? "matched" : "unmatched"));
    expect(perPair.rows[0]!.guestsMatched).toBeGreaterThan(5 * Math.max(1, all(1000).guestsMatched));
  });

  it("several references per subject find more of the people on the roster, and counting references in N holds the guests' rate", () => {
    const four = people(1200, 4, 0.6, 13);
    const at = (references: number, countReferences: boolean) =>
      evaluateOpenSet(four, { rosterSizes: [100], targetRate: 0.005, seed: 3, referencesPerSubject: references, minPhotos: 4, countReferences }).rows.find((r) => r.group === "all")!;
    const one = at(1, false), three = at(3, true);
    // The same probes either way (people with 4 photos: up to 3 references and a probe).
    expect(three.probes).toBe(one.probes);
    expect(three.right).toBeGreaterThan(one.right);
    expect(three.wrong).toBeLessThanOrEqual(Math.ceil(three.probes * 0.005) + 3);
    // Each guest photo meets 100 subjects of 3 references: 300 impostor draws, and the bar is set for 300.
    expect(three.guests).toBe(one.guests);
    expect(three.guestsMatched).toBeLessThanOrEqual(Math.ceil(three.guests * 0.005 * 2.5));
    // Given the number of subjects instead, the same rosters let several times more guests through (19 against 3 of 2,400 here).
    expect(at(3, false).guestsMatched).toBeGreaterThan(2 * Math.max(1, three.guestsMatched));
  });

  it("fits the impostor tail: the score needed for one pair at 1 in 1,000 sits at the sample's 0.1% point", () => {
    const rnd = seeded(5);
    const scores = Array.from({ length: 100_000 }, () => 0.1 + 0.05 * gaussian(rnd));
    const model = fitImpostorTail(scores);
    expect(model.mean).toBeCloseTo(0.1, 2);
    expect(model.sd).toBeCloseTo(0.05, 2);
    expect(scoreNeeded(model, 0.001, 1)).toBeCloseTo(0.1 - 0.05 * probit(0.001), 2);
  });

  it("ROC AUC is 0.5 for a net that tells nobody apart", () => {
    const rnd = seeded(9);
    const noise = Array.from({ length: 400 }, (_, i) => ({ identity: `p${i % 100}`, group: "adult", vector: Float32Array.from({ length: 16 }, () => gaussian(rnd)).map((v, _k, a) => v / Math.hypot(...a)) }));
    expect(Math.abs(rocAuc(noise, 20_000, 1) - 0.5)).toBeLessThan(0.05);
  });
});
