import { DEFAULT_MATCH_THRESHOLD, similarityOfDistance } from "./matching";

type Face = { identity: string; group: string; vector: Float32Array };
export type PairFigures = {
  key: string;
  genuine: number;
  impostor: number;
  /** The impostor cosine above which 5%, 1%, 0.1%, 0.01%, 0.001% of impostor pairs lie (null: too few pairs to say). */
  impostorAbove: (number | null)[];
  maxImpostor: number;
  /** The genuine cosine below which 1%, 5%, 50% of genuine pairs lie. */
  genuineBelow: number[];
  auc: number;
  /** Pairs at or above the default threshold on the calibrated scale. */
  genuineAtDefault: number;
  impostorAtDefault: number;
};

/**
 * The figures the similarity scale and the impostor model are set from (scripts/evaluate-faces.ts,
 * lib/engines/ml/faces/README.md "Calibration and evaluation"): every pair of unit vectors, genuine (one
 * identity) or impostor, counted under each key `keysOf` gives the pair (all, an age group, a
 * demographic group), with cosine quantiles, ROC AUC and the shares at the default threshold.
 * Pure: vectors in, figures out.
 */
export function pairFigures(faces: Face[], keysOf: (a: Face, b: Face) => string[]): PairFigures[] {
  const by = new Map<string, { genuine: number[]; impostor: number[] }>();
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const a = faces[i]!, b = faces[j]!;
      let c = 0;
      for (let k = 0; k < a.vector.length; k++) c += a.vector[k]! * b.vector[k]!;
      for (const key of keysOf(a, b)) {
        const entry = by.get(key) ?? { genuine: [], impostor: [] };
        by.set(key, entry);
        (a.identity === b.identity ? entry.genuine : entry.impostor).push(c);
      }
    }
  }
  const sim = (c: number) => similarityOfDistance(Math.sqrt(Math.max(0, 2 - 2 * c)));
  const rows: PairFigures[] = [];
  for (const [key, p] of [...by.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const imp = Float64Array.from(p.impostor).sort();
    const gen = Float64Array.from(p.genuine).sort();
    if (gen.length === 0 || imp.length === 0) continue;
    // AUC: the share of (genuine, impostor) pairs ordered right, by a merge of the two sorted lists.
    let below = 0, k = 0;
    for (const x of gen) {
      while (k < imp.length && imp[k]! < x) k++;
      below += k;
    }
    rows.push({
      key,
      genuine: gen.length,
      impostor: imp.length,
      impostorAbove: [0.05, 0.01, 0.001, 0.0001, 0.00001].map((r) => (imp.length * r >= 1 ? imp[Math.min(imp.length - 1, Math.floor(imp.length * (1 - r)))]! : null)),
      maxImpostor: imp[imp.length - 1]!,
      genuineBelow: [0.01, 0.05, 0.5].map((r) => gen[Math.floor(gen.length * r)]!),
      auc: below / (gen.length * imp.length),
      genuineAtDefault: gen.filter((c) => sim(c) >= DEFAULT_MATCH_THRESHOLD).length,
      impostorAtDefault: imp.filter((c) => sim(c) >= DEFAULT_MATCH_THRESHOLD).length,
    });
  }
  return rows;
}
