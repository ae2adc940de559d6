// Sweeps rules on ISNet's look at the head's top (issue 37, crop13) over crown-edge bench outputs
// (bench/crown-edge-bench.ts with the any-size graph present; CROWN_EDGE_OUT per set):
//   npx tsx bench/crown-isnet-sweep.ts /tmp/is-deepface.json /tmp/is-heldout.json [-- /tmp/is-third.json]
// Sets after "--" are held out: printed, never used to choose. Wrong answers per set (whole refused / cut
// accepted) for Face Crop's rule now and, where ISNet ran (the finer look's rows), for: "w" (cut iff ISNet's
// first-row width >= W D), "and" (now and w >= W: only un-refuses), "or" (now or w >= W: only catches cuts),
// "level" (ISNet's first-row mean >= L).
import fs from "node:fs";

type Row = { photo: string; room: number; now: boolean; isnet: { w: number; level: number; head: number; ms: number } | null; detMs: number };
const args = process.argv.slice(2);
const cut = args.indexOf("--");
const tuneFiles = cut < 0 ? args : args.slice(0, cut);
const heldFiles = cut < 0 ? [] : args.slice(cut + 1);
const load = (f: string) => ({ name: f.replace(/^.*\/(is-)?|\.json$/g, ""), rows: (JSON.parse(fs.readFileSync(f, "utf8")) as { rows: Row[] }).rows });
const tune = tuneFiles.map(load);
const held = heldFiles.map(load);
type Rule = { name: string; cut: (r: Row) => boolean };
const rules: Rule[] = [{ name: "now", cut: (r) => r.now }];
for (let W = 0.2; W <= 0.701; W += 0.05) {
  const w = +W.toFixed(2);
  rules.push({ name: `w${w}`, cut: (r) => (r.isnet ? r.isnet.w >= w : r.now) });
  rules.push({ name: `and${w}`, cut: (r) => r.now && (!r.isnet || r.isnet.w >= w) });
  rules.push({ name: `or${w}`, cut: (r) => r.now || (!!r.isnet && r.isnet.w >= w) });
}
for (let L = 0.3; L <= 0.901; L += 0.05) {
  const l = +L.toFixed(2);
  rules.push({ name: `level${l}`, cut: (r) => (r.isnet ? r.isnet.level >= l : r.now) });
}
const wrong = (rows: Row[], rule: Rule) => ({ rw: rows.filter((r) => r.room >= 0 && rule.cut(r)).length, ac: rows.filter((r) => r.room <= -5 && !rule.cut(r)).length });
const line = (rule: Rule) => [...tune, ...held].map((s) => { const w = wrong(s.rows, rule); return `${s.name} ${w.rw}/${w.ac}`; }).join("  ");
const tuneTotal = (rule: Rule) => tune.reduce((a, s) => { const w = wrong(s.rows, rule); return a + w.rw + w.ac; }, 0);
const base = rules[0]!;
console.log(`rows: ${[...tune, ...held].map((s) => `${s.name} ${s.rows.filter((r) => r.room >= 0).length} whole / ${s.rows.filter((r) => r.room <= -5).length} cut, ISNet ran on ${s.rows.filter((r) => r.isnet).length}`).join("; ")}`);
const worseNowhere = (rule: Rule) => tune.every((s) => { const a = wrong(s.rows, rule); const b = wrong(s.rows, base); return a.rw <= b.rw && a.ac <= b.ac; });
for (const rule of [...rules].sort((a, b) => tuneTotal(a) - tuneTotal(b))) console.log(`${rule.name.padEnd(10)} tune total ${String(tuneTotal(rule)).padStart(3)}${worseNowhere(rule) ? " (no error up on any tuning set)" : "                               "}  ${line(rule)}`);
