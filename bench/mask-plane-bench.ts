/**
 * The person rule's 0/1 planes: `Uint8Array.from` with a mapping function against matte-ops.ts `maskWhere` (a plain loop),
 * on a 1024 × 768 plane of region labels, in one run (bench/README.md, "The rule's planes by a plain loop").
 * Run: npx tsx bench/mask-plane-bench.ts
 */
import os from "node:os";
import { maskWhere } from "../lib/engines/ml/background-removal/matte-ops";

const n = 1024 * 768;
const labels = new Int32Array(n);
for (let i = 0; i < n; i++) labels[i] = (i * 7919) % 9;
const keep = [false, true, true, false, true, true, true, false, true];

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = (f: () => Uint8Array) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const viaFrom = () => Uint8Array.from(labels, (l) => (l > 0 && keep[l] ? 1 : 0));
const viaLoop = () => maskWhere(n, (i) => labels[i]! > 0 && keep[labels[i]!]!);

// Same planes first (the change is byte-identical), then alternating runs.
const a = viaFrom(), b = viaLoop();
if (a.length !== b.length || a.some((v, i) => v !== b[i])) throw new Error("maskWhere and Uint8Array.from disagree");
const from: number[] = [], loop: number[] = [];
for (let r = 0; r < 15; r++) {
  from.push(time(viaFrom));
  loop.push(time(viaLoop));
}
console.log(`${os.cpus().length} cores, ${os.cpus()[0]?.model}, Node ${process.version}; a 1024 x 768 plane, 15 runs each, alternating`);
console.log(`Uint8Array.from(labels, fn): median ${median(from).toFixed(1)} ms`);
console.log(`maskWhere (a plain loop):    median ${median(loop).toFixed(1)} ms  (${(median(loop) / median(from)).toFixed(3)}x)`);
