// Issue 37 (fifth stop): the jaw net's chin and eye offsets against human markup by the face's turn,
// pitch and length, and the corrections tried for JAW_BIAS (jaw-model.ts), each scored two-fold (fit on
// every other face, scored on the rest) on the faces of a dump written by scripts/evaluate-jaw-scale.ts
// (the net's raw mirrored pass on each marked face, outside the repository: the photos' markup).
//
//   FACE_LANDMARK_DIR=/work/eval-crop6/spinkoo/helen/trainset FACE_JAW_SCALE_IODS=0 FACE_JAW_SCALE_OUT=/work/eval-crop6/out/helen-train.json npx tsx scripts/evaluate-jaw-scale.ts
//   npx tsx scripts/evaluate-jaw-chin.ts /work/eval-crop6/out/helen-train.json
//
// Offsets are in input pixels of the net's 112 px square, in the face's frame (along the net's eye
// line; down across it); t is the nose tip's offset along the eye line from the eyes' mid-point, p its
// depth below the eye line, chinB the net's chin depth, all in the net's eye distances.
import fs from "node:fs";
import type { Point } from "@/lib/engines/ml/faces/types";
import { centroid, dist } from "@/lib/engines/ml/faces/landmark-eval";
import { JAW_INPUT, correctJawPoints, blendEyes } from "@/lib/engines/ml/faces/jaw-model";
import type { Sample } from "./evaluate-jaw-scale";
const file = process.argv[2];
if (!file || !fs.existsSync(file)) {
  console.log("evaluate-jaw-chin: skipped (give the dump written by evaluate-jaw-scale.ts)");
  process.exit(0);
}
const all = JSON.parse(fs.readFileSync(file, "utf8")) as Sample[];
const med = (v: number[]) => (v.length ? [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]! : NaN);
const p90 = (v: number[]) => (v.length ? [...v].sort((a, b) => a - b)[Math.floor(0.9 * (v.length - 1))]! : NaN);
function feat(x: Sample) {
  const n = x.nearest;
  const l = centroid(n.slice(36, 42)), r = centroid(n.slice(42, 48));
  const e = { x: r.x - l.x, y: r.y - l.y };
  const iod = Math.hypot(e.x, e.y);
  const u = { x: e.x / iod, y: e.y / iod }, v = { x: -u.y, y: u.x };
  const mid = centroid([l, r]);
  const rel = (p: Point) => ({ a: ((p.x - mid.x) * u.x + (p.y - mid.y) * u.y) / iod, b: ((p.x - mid.x) * v.x + (p.y - mid.y) * v.y) / iod });
  const nose = rel(n[30]!);
  const chin = rel(n[8]!);
  const ml = centroid(x.marked.slice(36, 42)), mr = centroid(x.marked.slice(42, 48));
  const miod = dist(ml, mr);
  const px = x.side / JAW_INPUT;
  const res = { x: x.marked[8]!.x - n[8]!.x, y: x.marked[8]!.y - n[8]!.y };
  // residual in face frame, in input px
  const cu = (res.x * u.x + res.y * u.y) / px, cv = (res.x * v.x + res.y * v.y) / px;
  const roll = Math.atan2(e.y, e.x) * 180 / Math.PI;
  const q = px / x.scale;
  return { l, r, u, v, iod, px, t: nose.a, p: nose.b, chinB: chin.b, cu, cv, miod, roll, q, ml, mr, jaw0: rel(n[0]!), jaw16: rel(n[16]!) };
}
const F = all.map((x) => ({ x, f: feat(x) }));
console.log(`${all.length} samples; |yaw| ${[0, 8, 20, 30].map((lo, i, a) => `${lo}+: ${F.filter(({ x }) => Math.abs(x.yaw) >= lo && Math.abs(x.yaw) < (a[i + 1] ?? 99)).length}`).join(", ")}`);
console.log(`t quantiles: ${[0.05, 0.25, 0.5, 0.75, 0.95].map((q) => [...F.map((a) => a.f.t)].sort((a, b) => a - b)[Math.floor(q * (F.length - 1))]!.toFixed(3)).join(" ")}`);
console.log(`p quantiles: ${[0.05, 0.25, 0.5, 0.75, 0.95].map((q) => [...F.map((a) => a.f.p)].sort((a, b) => a - b)[Math.floor(q * (F.length - 1))]!.toFixed(3)).join(" ")}`);
console.log(`roll quantiles: ${[0.05, 0.25, 0.5, 0.75, 0.95].map((q) => [...F.map((a) => a.f.roll)].sort((a, b) => a - b)[Math.floor(q * (F.length - 1))]!.toFixed(1)).join(" ")}`);
const bins = (name: string, key: (a: (typeof F)[number]) => number, edges: number[]) => {
  for (let i = 0; i + 1 < edges.length; i++) {
    const b = F.filter((a) => key(a) >= edges[i]! && key(a) < edges[i + 1]!);
    if (!b.length) continue;
    const now = b.map(({ x }) => dist(correctJawPoints(x.nearest, x.side)[8]!, x.marked[8]!) / feat(x).miod);
    console.log(`${name} ${edges[i]}..${edges[i + 1]} (${b.length}): chin residual (input px) along eye line ${med(b.map((a) => a.f.cu)).toFixed(2)}, down ${med(b.map((a) => a.f.cv)).toFixed(2)}; chin err now ${med(now).toFixed(3)} p90 ${p90(now).toFixed(3)}`);
  }
};
bins("t", (a) => a.f.t, [-1, -0.15, -0.08, -0.03, 0.03, 0.08, 0.15, 1]);
bins("p", (a) => a.f.p, [0, 0.55, 0.62, 0.68, 0.74, 0.8, 2]);
bins("roll", (a) => a.f.roll, [-90, -10, -4, 4, 10, 90]);
bins("q", (a) => a.f.q, [0, 0.6, 1, 1.6, 3, 99]);
bins("chinB", (a) => a.f.chinB, [0, 1.1, 1.2, 1.3, 1.4, 3]);

// ---- linear fits of the chin residual (input px, face frame) with 2-fold CV
type Row = { f: ReturnType<typeof feat>; x: Sample };
const rows: Row[] = F.map(({ x, f }) => ({ x, f }));
function solve(A: number[][], b: number[]): number[] {
  const n = A[0]!.length;
  const M = Array.from({ length: n }, (_, i) => Array.from({ length: n + 1 }, (_, j) => (j < n ? A.reduce((s, r) => s + r[i]! * r[j]!, 0) + (i === j ? 1e-6 : 0) : A.reduce((s, r, k) => s + r[i]! * b[k]!, 0))));
  for (let i = 0; i < n; i++) {
    let p = i; for (let k = i + 1; k < n; k++) if (Math.abs(M[k]![i]!) > Math.abs(M[p]![i]!)) p = k;
    [M[i], M[p]] = [M[p]!, M[i]!];
    for (let k = 0; k < n; k++) if (k !== i) { const c = M[k]![i]! / M[i]![i]!; for (let j = i; j <= n; j++) M[k]![j]! -= c * M[i]![j]!; }
  }
  return M.map((r, i) => r[n]! / r[i]!);
}
// robust: iteratively reweighted (Huber at 1.5 px)
function fitRobust(X: number[][], y: number[]): number[] {
  let w = y.map(() => 1);
  let beta = solve(X, y);
  for (let it = 0; it < 8; it++) {
    const res = X.map((r, i) => y[i]! - r.reduce((s, v, j) => s + v * beta[j]!, 0));
    w = res.map((r) => (Math.abs(r) <= 1.5 ? 1 : 1.5 / Math.abs(r)));
    const sw = w.map(Math.sqrt);
    beta = solve(X.map((r, i) => r.map((v) => v * sw[i]!)), y.map((v, i) => v * sw[i]!));
  }
  return beta;
}
type Model = { name: string; fu: (r: Row) => number[]; fv: (r: Row) => number[] };
function chinOf(r: Row, bu: number[], bv: number[], m: Model): Point {
  const du = m.fu(r).reduce((s, v, j) => s + v * bu[j]!, 0) * r.f.px;
  const dv = m.fv(r).reduce((s, v, j) => s + v * bv[j]!, 0) * r.f.px;
  const c = r.x.nearest[8]!;
  return { x: c.x + du * r.f.u.x + dv * r.f.v.x, y: c.y + du * r.f.u.y + dv * r.f.v.y };
}
const err = (r: Row, c: Point) => dist(c, r.x.marked[8]!) / r.f.miod;
const chinA = (r: Row) => { const n = r.x.nearest; const l = centroid(n.slice(36, 42)), rr = centroid(n.slice(42, 48)); const mid = centroid([l, rr]); return ((n[8]!.x - mid.x) * r.f.u.x + (n[8]!.y - mid.y) * r.f.u.y) / r.f.iod; };
const ipx = (r: Row) => r.f.iod / r.f.px; // net's eye distance in input px
const models: Model[] = [
  { name: "const (face frame)", fu: () => [1], fv: () => [1] },
  { name: "const + t·iod (≈ now, face frame)", fu: (r) => [1, r.f.t * ipx(r)], fv: () => [1] },
  { name: "+ p", fu: (r) => [1, r.f.t * ipx(r)], fv: (r) => [1, (r.f.p - 0.6) * ipx(r)] },
  { name: "+ p, t² (|t|) on v", fu: (r) => [1, r.f.t * ipx(r)], fv: (r) => [1, (r.f.p - 0.6) * ipx(r), Math.abs(r.f.t) * ipx(r)] },
  { name: "+ p, |t|, t³ on u", fu: (r) => [1, r.f.t * ipx(r), r.f.t ** 3 * ipx(r)], fv: (r) => [1, (r.f.p - 0.6) * ipx(r), Math.abs(r.f.t) * ipx(r)] },
  { name: "+ p, chinB on v", fu: (r) => [1, r.f.t * ipx(r)], fv: (r) => [1, (r.f.p - 0.6) * ipx(r), (r.f.chinB - 1.6) * ipx(r)] },
  { name: "chinB only on v", fu: (r) => [1, r.f.t * ipx(r)], fv: (r) => [1, (r.f.chinB - 1.6) * ipx(r)] },
  { name: "chinB on v, chinA on u", fu: (r) => [1, r.f.t * ipx(r), chinA(r) * ipx(r)], fv: (r) => [1, (r.f.chinB - 1.6) * ipx(r)] },
  { name: "chinB,p on v, chinA on u", fu: (r) => [1, r.f.t * ipx(r), chinA(r) * ipx(r)], fv: (r) => [1, (r.f.p - 0.6) * ipx(r), (r.f.chinB - 1.6) * ipx(r)] },
  { name: "chinB,p,|t| on v", fu: (r) => [1, r.f.t * ipx(r)], fv: (r) => [1, (r.f.p - 0.6) * ipx(r), (r.f.chinB - 1.6) * ipx(r), Math.abs(r.f.t) * ipx(r)] },
  { name: "chosen (JAW_BIAS's form): t on u; chinB, p on v, clamped", fu: (r) => [1, r.f.t * ipx(r)], fv: (r) => [1, (Math.min(2.3, Math.max(1.4, r.f.chinB)) - 1.8) * ipx(r), (Math.min(0.85, Math.max(0.25, r.f.p)) - 0.6) * ipx(r)] },
  { name: "+ p, |t|, roll", fu: (r) => [1, r.f.t * ipx(r), r.f.roll / 10], fv: (r) => [1, (r.f.p - 0.6) * ipx(r), Math.abs(r.f.t) * ipx(r), r.f.roll / 10] },
];
const now = rows.map((r) => err(r, correctJawPoints(r.x.nearest, r.x.side)[8]!));
console.log(`\nchin now (JAW_BIAS): ${med(now).toFixed(4)} p90 ${p90(now).toFixed(4)}`);
for (const m of models) {
  const folds = [0, 1].map((k) => rows.filter((_, i) => i % 2 === k));
  const cv: number[] = [];
  for (const k of [0, 1]) {
    const tr = folds[k]!, te = folds[1 - k]!;
    const bu = fitRobust(tr.map(m.fu), tr.map((r) => r.f.cu));
    const bv = fitRobust(tr.map(m.fv), tr.map((r) => r.f.cv));
    for (const r of te) cv.push(err(r, chinOf(r, bu, bv, m)));
  }
  const bu = fitRobust(rows.map(m.fu), rows.map((r) => r.f.cu));
  const bv = fitRobust(rows.map(m.fv), rows.map((r) => r.f.cv));
  const fit = rows.map((r) => err(r, chinOf(r, bu, bv, m)));
  const turned = rows.map((r, i) => [r, i] as const).filter(([r]) => Math.abs(r.x.yaw) >= 20).map(([r]) => err(r, chinOf(r, bu, bv, m)));
  console.log(`${m.name}: CV ${med(cv).toFixed(4)} p90 ${p90(cv).toFixed(4)} | all-fit ${med(fit).toFixed(4)} (|yaw|≥20: ${med(turned).toFixed(4)}) u=[${bu.map((v) => v.toFixed(3))}] v=[${bv.map((v) => v.toFixed(3))}]`);
}
const turnedNow = rows.filter((r) => Math.abs(r.x.yaw) >= 20).map((r) => err(r, correctJawPoints(r.x.nearest, r.x.side)[8]!));
console.log(`now on |yaw|≥20: ${med(turnedNow).toFixed(4)}`);

// ---- eyes: residual of the blended eyes (marked − blend), face frame, input px, by t
const eyeRes = rows.map((r) => {
  const net = r.x.nearest;
  const q = r.f.q;
  const eyes = blendEyes(net, r.x.contourEyes, q);
  const m = [r.f.ml, r.f.mr];
  const res = [0, 1].map((i) => ({ x: m[i]!.x - eyes[i]!.x, y: m[i]!.y - eyes[i]!.y }));
  const c = (p: Point) => ({ u: (p.x * r.f.u.x + p.y * r.f.u.y) / r.f.px, v: (p.x * r.f.v.x + p.y * r.f.v.y) / r.f.px });
  const e = (eyes[0] && eyes[1]) ? (dist(eyes[0], m[0]!) + dist(eyes[1], m[1]!)) / 2 / r.f.miod : NaN;
  return { r, L: c(res[0]!), R: c(res[1]!), e };
});
console.log(`\neyes now (blend): ${med(eyeRes.map((a) => a.e)).toFixed(4)} p90 ${p90(eyeRes.map((a) => a.e)).toFixed(4)}`);
for (const [lo, hi] of [[-1, -0.15], [-0.15, -0.05], [-0.05, 0.05], [0.05, 0.15], [0.15, 1]] as const) {
  const b = eyeRes.filter((a) => a.r.f.t >= lo && a.r.f.t < hi);
  console.log(`t ${lo}..${hi} (${b.length}): left eye u ${med(b.map((a) => a.L.u)).toFixed(2)} v ${med(b.map((a) => a.L.v)).toFixed(2)}; right eye u ${med(b.map((a) => a.R.u)).toFixed(2)} v ${med(b.map((a) => a.R.v)).toFixed(2)}; err ${med(b.map((a) => a.e)).toFixed(4)}`);
}
// fit: each eye += (a0 + a1·t·ipx) u + (b0) v, with per-eye a1 sign? try common shift + spread
for (const variant of ["const", "const+t", "const+t+spread"] as const) {
  const fu = (a: (typeof eyeRes)[number], side: 0 | 1) => variant === "const" ? [1] : variant === "const+t" ? [1, a.r.f.t * ipx(a.r)] : [1, a.r.f.t * ipx(a.r), (side ? 1 : -1)];
  const cvErr: number[] = [];
  const fitOn = (set: typeof eyeRes) => {
    const X: number[][] = [], yu: number[] = [], yv: number[] = [];
    for (const a of set) for (const side of [0, 1] as const) { X.push(fu(a, side)); yu.push(side ? a.R.u : a.L.u); yv.push(side ? a.R.v : a.L.v); }
    return { bu: fitRobust(X, yu), bv: fitRobust(X.map((r) => [r[0]!]), yv) };
  };
  const apply = (a: (typeof eyeRes)[number], b: { bu: number[]; bv: number[] }) => {
    const eyes = blendEyes(a.r.x.nearest, a.r.x.contourEyes, a.r.f.q);
    const out = eyes.map((p, side) => { const du = fu(a, side as 0 | 1).reduce((s, v, j) => s + v * b.bu[j]!, 0) * a.r.f.px; const dv = b.bv[0]! * a.r.f.px; return { x: p.x + du * a.r.f.u.x + dv * a.r.f.v.x, y: p.y + du * a.r.f.u.y + dv * a.r.f.v.y }; });
    return (dist(out[0]!, a.r.f.ml) + dist(out[1]!, a.r.f.mr)) / 2 / a.r.f.miod;
  };
  for (const k of [0, 1]) { const tr = eyeRes.filter((_, i) => i % 2 === k); const te = eyeRes.filter((_, i) => i % 2 !== k); const b = fitOn(tr); for (const a of te) cvErr.push(apply(a, b)); }
  const b = fitOn(eyeRes);
  console.log(`eyes ${variant}: CV ${med(cvErr).toFixed(4)} p90 ${p90(cvErr).toFixed(4)} u=[${b.bu.map((v) => v.toFixed(3))}] v=[${b.bv.map((v) => v.toFixed(3))}]`);
}
