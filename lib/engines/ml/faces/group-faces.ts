import { normalise } from "./matching";

/**
 * Groups faces that look like one person, so a reviewer files a whole group with
 * one decision (issue 32, "review by cluster").
 *
 * Average linkage, agglomerative: two groups join while the mean cosine between
 * all their faces' pairs is at least `minCosine`. Average linkage rather than single
 * (one close pair would chain two classmates into one group through a look-alike)
 * or complete (one poor photo, turned or blurred, would split a child's group).
 * Exact and deterministic; each group keeps its nearest group, so a merge costs
 * O(n); O(n²) memory for the pair sums, so a job's faces are grouped in one call
 * up to MAX_GROUPED_FACES (2,000 faces: 32 MB of float64).
 */
export const MAX_GROUPED_FACES = 2000;

/**
 * Cosine 0.40 is where the calibrated scale reads 0.85 (the default match
 * threshold: about 1 in 3,000 adult impostor pairs above it; matching.ts). A
 * group's mean pair must clear it, so a group's faces are, on average, as close
 * as a match the engine would file by itself; the reviewer sees them side by side.
 */
export const GROUP_MIN_COSINE = 0.4;

/** Indices of `embeddings` per group; groups in order of their first face, faces in input order. */
export function groupFaces(embeddings: ArrayLike<number>[], minCosine = GROUP_MIN_COSINE): number[][] {
  const n = embeddings.length;
  if (n > MAX_GROUPED_FACES) throw new Error(`${n} faces: group at most ${MAX_GROUPED_FACES} at once`);
  if (n === 0) return [];
  const unit = embeddings.map(normalise);
  const dim = unit[0]!.length;
  // Sum of pairwise cosines between groups i and j (symmetric); a group's size in `size`.
  const sum = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = unit[i]!;
    if (a.length !== dim) throw new Error(`face ${i} has ${a.length} numbers, expected ${dim}: group embeddings of one model`);
    for (let j = i + 1; j < n; j++) {
      const b = unit[j]!;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += a[k]! * b[k]!;
      sum[i * n + j] = dot;
      sum[j * n + i] = dot;
    }
  }
  const size = new Array<number>(n).fill(1);
  const members: number[][] = Array.from({ length: n }, (_, i) => [i]);
  const alive = new Array<boolean>(n).fill(true);
  const mean = (i: number, j: number) => sum[i * n + j]! / (size[i]! * size[j]!);
  // Each group's nearest other group (by mean cosine), so a merge costs O(n), not O(n²).
  const near = new Int32Array(n).fill(-1);
  const nearValue = new Float64Array(n).fill(-Infinity);
  const refresh = (i: number) => {
    near[i] = -1;
    nearValue[i] = -Infinity;
    for (let j = 0; j < n; j++) {
      if (j === i || !alive[j]) continue;
      const v = mean(i, j);
      if (v > nearValue[i]!) {
        nearValue[i] = v;
        near[i] = j;
      }
    }
  };
  for (let i = 0; i < n; i++) refresh(i);
  for (;;) {
    let bi = -1;
    for (let i = 0; i < n; i++) if (alive[i] && near[i]! >= 0 && (bi < 0 || nearValue[i]! > nearValue[bi]!)) bi = i;
    if (bi < 0 || nearValue[bi]! < minCosine) break;
    const bj = near[bi]!;
    // j joins i: i's sums with every other group gain j's.
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === bi || k === bj) continue;
      const s = sum[bi * n + k]! + sum[bj * n + k]!;
      sum[bi * n + k] = s;
      sum[k * n + bi] = s;
    }
    size[bi] = size[bi]! + size[bj]!;
    members[bi] = [...members[bi]!, ...members[bj]!].sort((x, y) => x - y);
    alive[bj] = false;
    refresh(bi);
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === bi) continue;
      // Means with the merged group changed; others did not.
      if (near[k] === bi || near[k] === bj) refresh(k);
      else if (mean(k, bi) > nearValue[k]!) {
        nearValue[k] = mean(k, bi);
        near[k] = bi;
      }
    }
  }
  return members.filter((_, i) => alive[i]).sort((x, y) => x[0]! - y[0]!);
}
