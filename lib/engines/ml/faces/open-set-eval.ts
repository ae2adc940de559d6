/**
 * Open-set identification, measured: how a description net (or a fusion of nets)
 * behaves when each photo is compared with a whole roster, some photos being of
 * people NOT on it. Used by scripts/evaluate-faces.ts on a large labelled set and by
 * open-set-eval.test.ts on a small one. Pure: vectors in, counts out.
 *
 * Method (identities are split in two halves by a seeded shuffle):
 * - calibration half: impostor cosine similarities (two different people) are
 *   sampled and a normal model is fitted to their upper tail (the 1%, 0.1% and
 *   0.01% points, least squares on the probit scale), as decide-match.ts does for
 *   the production net. The score a match needs against N subjects is the point
 *   above which the best of N impostors lies with at most `targetRate` per photo:
 *   per pair p = 1 − (1 − rate)^(1/N). Review starts where a guest would reach it
 *   with at most `reviewRate` per photo; a best within `margin` of the runner-up
 *   goes to review (half an impostor standard deviation).
 * - test half, never seen by the calibration: each identity with two photos gives
 *   genuine probes (its reference on a roster of N − 1 other people's references)
 *   and guest probes (one of its photos against N other people's references).
 *   With `referencesPerSubject` R, every roster subject has up to R photos as
 *   references and scores as the best of them (as rankCandidates does).
 */
import { probit } from "simple-statistics";

export type EvalFace = { identity: string; group: string; vector: Float32Array };
/** A face as each net describes it (unit vectors), before fusion. */
export type EvalFaceParts = { identity: string; group: string; parts: Float32Array[] };
export type OpenSetRow = {
  rosterSize: number;
  group: string;
  required: number;
  guests: number;
  guestsMatched: number;
  guestsReview: number;
  probes: number;
  right: number;
  wrong: number;
  review: number;
  unmatched: number;
};
export type OpenSetOptions = {
  rosterSizes: number[];
  targetRate: number;
  reviewRate?: number;
  seed: number;
  maxGenuinePerIdentity?: number;
  center?: boolean;
  /** References per roster subject (photos of that person on the roster; default 1). A subject scores as the best of its references. */
  referencesPerSubject?: number;
  /** Test identities need this many photos (default 2): the same probes for every referencesPerSubject when set to its largest + 1. */
  minPhotos?: number;
  /** The roster size the rule is given: subjects (default) or references (every reference is an impostor draw for a guest). */
  countReferences?: boolean;
};

/** A small seeded generator (mulberry32): the same split and rosters every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function shuffle<T>(xs: T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function byIdentity(faces: EvalFace[]): Map<string, EvalFace[]> {
  const m = new Map<string, EvalFace[]>();
  for (const f of faces) (m.get(f.identity) ?? m.set(f.identity, []).get(f.identity)!).push(f);
  return m;
}

/** Impostor similarities sampled at random from faces of different identities. */
export function sampleImpostors(faces: EvalFace[], count: number, rnd: () => number): number[] {
  const out: number[] = [];
  if (new Set(faces.map((f) => f.identity)).size < 2) return out;
  while (out.length < count) {
    const a = faces[Math.floor(rnd() * faces.length)]!, b = faces[Math.floor(rnd() * faces.length)]!;
    if (a.identity !== b.identity) out.push(cosine(a.vector, b.vector));
  }
  return out;
}

/**
 * A normal model of the impostor similarities' upper tail: mean and sd fitted by
 * least squares to the empirical points at the given upper-tail rates (those the
 * sample can resolve), so the extreme quantiles a large roster needs extrapolate
 * from the tail rather than from the bulk.
 */
export function fitImpostorTail(scores: number[], rates = [0.01, 0.001, 0.0001]): { mean: number; sd: number } {
  const sorted = [...scores].sort((x, y) => y - x);
  const pts = rates.filter((r) => r * sorted.length >= 5).map((r) => ({ z: -probit(r), s: sorted[Math.floor(r * sorted.length)]! }));
  if (pts.length < 2) {
    const mean = scores.reduce((s, v) => s + v, 0) / scores.length;
    const sd = Math.sqrt(scores.reduce((s, v) => s + (v - mean) ** 2, 0) / scores.length);
    return { mean, sd };
  }
  const zm = pts.reduce((s, p) => s + p.z, 0) / pts.length, sm = pts.reduce((s, p) => s + p.s, 0) / pts.length;
  const sd = pts.reduce((s, p) => s + (p.z - zm) * (p.s - sm), 0) / pts.reduce((s, p) => s + (p.z - zm) ** 2, 0);
  return { mean: sm - sd * zm, sd };
}

/** The score the best of `n` impostors passes with at most `rate` per photo, under the fitted model. */
export function scoreNeeded(model: { mean: number; sd: number }, rate: number, n: number): number {
  const pairRate = -Math.expm1(Math.log1p(-rate) / Math.max(1, n));
  return model.mean - model.sd * probit(pairRate);
}

function normalised(v: Float32Array): Float32Array {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

/**
 * One vector per face from its nets' vectors: each part optionally centred (the mean
 * vector of `calibration` faces taken off: a net whose outputs are all positive,
 * like faceres's pooled features, otherwise has every cosine crowded near 1),
 * re-normalised, then concatenated and normalised, so the fused cosine is the mean of
 * the nets' cosines.
 */
export function fuse(faces: EvalFaceParts[], calibration: EvalFaceParts[], center: boolean): EvalFace[] {
  const k = faces[0]?.parts.length ?? 0;
  const means = Array.from({ length: k }, (_, p) => {
    const dim = faces[0]!.parts[p]!.length;
    const m = new Float32Array(dim);
    if (center && calibration.length) for (const f of calibration) for (let i = 0; i < dim; i++) m[i]! += f.parts[p]![i]! / calibration.length;
    return m;
  });
  return faces.map((f) => ({
    identity: f.identity,
    group: f.group,
    vector: normalised(Float32Array.from(f.parts.flatMap((v, p) => Array.from(normalised(v.map((x, i) => x - means[p]![i]!)))))),
  }));
}

export type Decide = (best: number, runnerUp: number, rosterSize: number) => "matched" | "review" | "unmatched";

/**
 * Open-set figures and ROC AUC on the test half (see the method at the top), deciding
 * with the rule fitted on the calibration half, or with `decide` when given (the
 * production rule, say, on the production net's vectors).
 */
export function evaluateOpenSet(input: EvalFaceParts[], opts: OpenSetOptions, decide?: Decide): { rows: OpenSetRow[]; auc: number } {
  const rnd = seeded(opts.seed);
  const names = shuffle([...new Set(input.map((f) => f.identity))].sort(), rnd);
  const calib = new Set(names.slice(0, Math.floor(names.length / 2)));
  const faces = fuse(input, input.filter((f) => calib.has(f.identity)), opts.center ?? true);
  const ids = byIdentity(faces);
  const calibFaces = faces.filter((f) => calib.has(f.identity));
  const model = fitImpostorTail(sampleImpostors(calibFaces, Math.min(400_000, Math.max(20_000, calibFaces.length * 50)), rnd));
  const margin = model.sd / 2;
  const fitted: Decide = (best, runnerUp, N) =>
    best >= scoreNeeded(model, opts.targetRate, N) && best - runnerUp >= margin ? "matched" : best >= scoreNeeded(model, opts.reviewRate ?? 0.1, N) ? "review" : "unmatched";
  const rule = decide ?? fitted;
  const R = Math.max(1, opts.referencesPerSubject ?? 1);
  const testIds = names.filter((n) => !calib.has(n) && ids.get(n)!.length >= Math.max(2, opts.minPhotos ?? 2));
  const rows: OpenSetRow[] = [];
  for (const N of opts.rosterSizes) {
    const required = decide ? NaN : scoreNeeded(model, opts.targetRate, N);
    const tally = new Map<string, OpenSetRow>();
    const row = (group: string) => tally.get(group) ?? tally.set(group, { rosterSize: N, group, required, guests: 0, guestsMatched: 0, guestsReview: 0, probes: 0, right: 0, wrong: 0, review: 0, unmatched: 0 }).get(group)!;
    /** A roster of `count` people other than `except`, drawn from every identity, with up to R random photos each as references. */
    const others = (except: string, count: number) => {
      const out: EvalFace[] = [];
      const pool = shuffle(names.filter((n) => n !== except), rnd).slice(0, count);
      for (const n of pool) out.push(...(R === 1 ? [ids.get(n)![Math.floor(rnd() * ids.get(n)!.length)]!] : shuffle(ids.get(n)!, rnd).slice(0, R)));
      return out;
    };
    // A subject's score is the best of its references; the runner-up is the best OTHER subject.
    const best2 = (probe: EvalFace, refs: EvalFace[]) => {
      const bySubject = new Map<string, number>();
      for (const ref of refs) {
        const s = cosine(probe.vector, ref.vector);
        if (s > (bySubject.get(ref.identity) ?? -Infinity)) bySubject.set(ref.identity, s);
      }
      let b: { s: number; id: string } = { s: -Infinity, id: "" }, r = -Infinity;
      for (const [id, s] of bySubject) {
        if (s > b.s) {
          r = b.s;
          b = { s, id };
        } else if (s > r) r = s;
      }
      return { best: b, runnerUp: r };
    };
    const sizeFor = (roster: EvalFace[]) => (opts.countReferences ? roster.length : N);
    for (const id of testIds) {
      const list = ids.get(id)!;
      // Genuine: a photo of the same age group as the reference where there is one, every other photo a probe (capped).
      let taken = 0;
      for (const probe of list) {
        const ref = list.find((f) => f !== probe && f.group === probe.group) ?? list.find((f) => f !== probe)!;
        if (taken++ >= (opts.maxGenuinePerIdentity ?? 4)) break;
        const own = R === 1 ? [ref] : [ref, ...shuffle(list.filter((f) => f !== probe && f !== ref), rnd).slice(0, R - 1)];
        const roster = [...own, ...others(id, Math.min(N, names.length) - 1)];
        const { best, runnerUp } = best2(probe, roster);
        const d = rule(best.s, runnerUp, sizeFor(roster));
        for (const g of ["all", ref.group === probe.group ? `${probe.group}, same age` : "across ages"]) {
          const t = row(g);
          t.probes++;
          if (d === "matched" && best.id === id) t.right++;
          else if (d === "matched") t.wrong++;
          else if (d === "review") t.review++;
          else t.unmatched++;
        }
      }
      // Guests: each photo of this person (capped alike) against a roster without them.
      for (const guest of list.slice(0, (opts.maxGenuinePerIdentity ?? 4) + 1)) {
        const roster = others(id, Math.min(N, names.length - 1));
        const { best, runnerUp } = best2(guest, roster);
        const d = rule(best.s, runnerUp, sizeFor(roster));
        for (const g of ["all", `${guest.group}, same age`]) {
          const t = row(g);
          t.guests++;
          if (d === "matched") t.guestsMatched++;
          else if (d === "review") t.guestsReview++;
        }
      }
    }
    rows.push(...[...tally.values()].sort((a, b) => (a.group === "all" ? -1 : b.group === "all" ? 1 : a.group.localeCompare(b.group))));
  }
  return { rows, auc: rocAuc(faces.filter((f) => !calib.has(f.identity)), 200_000, opts.seed) };
}

/** ROC AUC over every genuine pair and up to `maxImpostors` sampled impostor pairs (Mann-Whitney). */
export function rocAuc(faces: EvalFace[], maxImpostors: number, seed: number): number {
  const genuine: number[] = [];
  for (const list of byIdentity(faces).values()) for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) genuine.push(cosine(list[i]!.vector, list[j]!.vector));
  const impostors = sampleImpostors(faces, maxImpostors, seeded(seed));
  const all = [...genuine.map((s) => ({ s, g: 1 })), ...impostors.map((s) => ({ s, g: 0 }))].sort((a, b) => a.s - b.s);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.g) rankSum += rank;
    i = j;
  }
  const G = genuine.length, I = impostors.length;
  return G && I ? (rankSum - (G * (G + 1)) / 2) / (G * I) : NaN;
}
