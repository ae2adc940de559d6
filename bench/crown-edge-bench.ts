// Is the head cut by the photo's top edge? (issue 37, Face Crop's FACE_CUT_BY_EDGE). Each portrait
// is cut to a room above the hair (−30 … +20 px; the hair's top marked by hand on the fixtures and
// in `$CROWN_EDGE_SET/marks.json` for a fetched set) and run through the real engine (detection, jaw
// net, crown step, in this thread); a room ≥ 0 is a whole head (refusing it is wrong), a room ≤ −5
// a cut one (accepting it is wrong); −3 … −1 lie within the marks' ±3 px and are shown, not scored.
//
//   npx tsx bench/crown-edge-bench.ts                       (the fixtures only)
//   CROWN_SOURCES=/work/.mirror npx tsx bench/crown-set.ts /work/eval-x   (the sets, from fetched mirrors)
//   CROWN_EDGE_SET=/work/eval-x/deepface npx tsx bench/crown-edge-bench.ts
//   CROWN_EDGE_SET=/work/eval-x/heldout CROWN_EDGE_FIXTURES=0 npx tsx bench/crown-edge-bench.ts   (a set alone)
//
// Prints, per photo and room, the rule's answer before (the selfie matte's level at the photo's
// edge alone), with crop8's finer look (the finer matte's edge level ≥ 0.46 alone), crop9's
// (that level ≥ CROWN_RULE.fineLevel and the hair's chord at the edge; Face Crop's default, the
// finer look read only where the head square's edge level is ≥ CROWN_RULE.fineFrom 0.1) and the
// same rule with the finer look read from a lower level (FINE_FROM: 0.05, 0.02, 0), crop10's rule
// (crop9's with fineFrom 0.05) and crop11's (Face Crop's default now: also the chord's own width,
// CROWN_RULE.topWidth; TOP_WIDTH sweeps it), the counts, and the refusals per room; each row's levels,
// chord and top width, and the finer look's time where only a lower fineFrom reads it, go to
// bench/results/crown-edge.json (CROWN_EDGE_OUT).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";

// The fetched set's marks drop photos whose hair lies within 10 px of the top (the mark cannot be told from a cut).
/** crop8's rule: the finer matte's edge level alone, cut from 0.46. */
const CROP8_FINE_LEVEL = 0.46;
/** The lower levels from which the finer look is read, against CROWN_RULE.fineFrom (crop10, round 2). */
const FINE_FROM = [0.05, 0.02, 0];
/** The chord's own width in D (CROWN_RULE.topWidth, crop11) swept beside Face Crop's; 0 is crop10's rule. */
const TOP_WIDTH = [0, 0.25, 0.35];
const ROOMS = [20, 10, 5, 3, 0, -3, -5, -8, -13, -20, -30];
const FIXTURES = path.resolve("test/fixtures/faces");
/** The fixtures' hair tops (test/fixtures/faces/landmarks.json, ±3 px). */
const FIXTURE_HAIR: Record<string, number> = { "biden.jpg": 37, "obama.jpg": 21, "biden2.jpg": 23, "obama2.jpg": 110 };

type Photo = { name: string; file: string; hair: number };

function photos(): Photo[] {
  const out: Photo[] = process.env.CROWN_EDGE_FIXTURES === "0" ? [] : Object.entries(FIXTURE_HAIR).map(([name, hair]) => ({ name, file: path.join(FIXTURES, name), hair }));
  const dir = process.env.CROWN_EDGE_SET;
  if (!dir) {
    console.log("CROWN_EDGE_SET unset: the fixtures only.");
    return out;
  }
  const marks = JSON.parse(fs.readFileSync(path.join(dir, "marks.json"), "utf8")) as { hair: Record<string, number> };
  for (const [name, hair] of Object.entries(marks.hair)) out.push({ name, file: path.join(dir, name), hair });
  return out;
}

async function main() {
  const { detectInThread, selfieModel } = await import("@/lib/engines/ml/faces/detect-in-thread");
  const { decodeUpright } = await import("@/lib/engines/ml/faces/decode-upright");
  const { crownFromMatte, headMatte, edgeLevel, chordWidth, topWidth, CROWN_RULE, TOP_SQUARE } = await import("@/lib/engines/ml/faces/person-crown");
  const { faceCutBySource } = await import("@/lib/services/face-crop/crop-face");
  const { CROWN_FROM_EYES } = await import("@/lib/engines/ml/faces/landmarks");
  const cfg = { maxPixels: 60e6, detectLongEdge: 1024, minScore: 0.25 };
  const model = await selfieModel();
  type Row = { photo: string; room: number; level: number; fine: number | null; chord: number | null; topW: number | null; fineMs: number | null; before: boolean; crop8: boolean; now: boolean; from: Record<string, boolean>; tw: Record<string, boolean> };
  const rows: Row[] = [];
  let recomputedOff = 0;
  for (const p of photos()) {
    const meta = await sharp(p.file).metadata();
    for (const room of ROOMS) {
      const top = p.hair - room;
      if (top < 0) continue;
      const jpeg = await sharp(p.file).extract({ left: 0, top, width: meta.width!, height: meta.height! - top }).jpeg({ quality: 92 }).toBuffer();
      const det = await detectInThread({ bytes: jpeg, ...cfg, crown: true });
      const face = det.faces[0];
      if (!face) {
        console.log(`${p.name} ${room}: no face`);
        continue;
      }
      const img = await decodeUpright(jpeg, cfg);
      const { eyeMid, chin } = face.landmarks;
      const estimate = { x: eyeMid.x + (eyeMid.x - chin.x) * CROWN_FROM_EYES, y: eyeMid.y + (eyeMid.y - chin.y) * CROWN_FROM_EYES };
      // Before: the same crown step with the cut decided by the level on the head's square alone (CROWN_RULE.edgeLevel).
      const m = await headMatte(model, img, { eyeMid, chin });
      const level = m ? edgeLevel(m) : 0;
      const old = m ? crownFromMatte(m, img.scale, estimate, level >= CROWN_RULE.edgeLevel) : { crown: estimate, source: "landmarks" as const, touchesEdge: false };
      // The finer square wherever headCutAtTop could read it (any fineFrom ≥ 0): its edge level and the hair's chord.
      const t0 = performance.now();
      const fineM = m && m.top < 0 && m.eye.y - TOP_SQUARE.eyeFromTop * m.D < 0 ? await headMatte(model, img, { eyeMid, chin }, TOP_SQUARE) : null;
      const fineMs = fineM && level < CROWN_RULE.fineFrom ? +(performance.now() - t0).toFixed(1) : null;
      // The finer matte's three readings, once a row (the sweeps below compare them unrounded, as the engine does).
      const read = fineM ? { level: edgeLevel(fineM), chord: chordWidth(fineM), topW: topWidth(fineM) } : null;
      const fine = read ? +read.level.toFixed(3) : null;
      const chord = read ? +read.chord.toFixed(3) : null;
      const topW = read ? read.topW : null;
      const size = { width: det.width, height: det.height };
      const answer = (c: { crown: { x: number; y: number }; source: "matte" | "landmarks"; touchesEdge: boolean }) => faceCutBySource({ ...face, landmarks: { ...face.landmarks, crown: c.crown }, crownSource: c.source, crownTouchesEdge: c.touchesEdge }, size);
      const before = answer(old);
      const crop8Cut = level < CROWN_RULE.fineFrom ? false : fine !== null ? fine >= CROP8_FINE_LEVEL : level >= CROWN_RULE.edgeLevel;
      const crop8 = m ? answer(crownFromMatte(m, img.scale, estimate, crop8Cut)) : before;
      // headCutAtTop with its finer look read from `from` and the chord at least `tw` D wide (crop10's rule: tw 0).
      const cutFrom = (from: number, tw = 0) => (level < from ? false : read ? read.level >= CROWN_RULE.fineLevel && read.chord >= CROWN_RULE.chord && read.topW >= tw : level >= CROWN_RULE.edgeLevel);
      const withFrom = (from: number, tw = 0) => (m ? answer(crownFromMatte(m, img.scale, estimate, cutFrom(from, tw))) : before);
      // Now (crop11): Face Crop's own decision on the engine's face (FACE_CUT_BY_EDGE).
      const now = faceCutBySource(face, size);
      if (withFrom(CROWN_RULE.fineFrom, CROWN_RULE.topWidth) !== now) recomputedOff++;
      rows.push({ photo: p.name, room, level: +level.toFixed(3), fine, chord, topW: topW === null ? null : +topW.toFixed(3), fineMs, before, crop8, now, from: Object.fromEntries(FINE_FROM.map((f) => [String(f), withFrom(f)])), tw: Object.fromEntries(TOP_WIDTH.map((w) => [String(w), withFrom(CROWN_RULE.fineFrom, w)])) });
    }
  }
  const keys = ["before", "crop8", ...FINE_FROM.map((f) => `from${f}`), ...TOP_WIDTH.map((w) => `tw${w}`), "now"];
  const answerOf = (r: Row, key: string) => (key.startsWith("from") ? r.from[key.slice(4)]! : key.startsWith("tw") ? r.tw[key.slice(2)]! : r[key as "before" | "crop8" | "now"]);
  const scored = (r: Row, key: string) => (r.room >= 0 && answerOf(r, key) ? "refusedWhole" : r.room <= -5 && !answerOf(r, key) ? "acceptedCut" : null);
  const count = (key: string) => ({
    refusedWhole: rows.filter((r) => scored(r, key) === "refusedWhole").length,
    whole: rows.filter((r) => r.room >= 0).length,
    acceptedCut: rows.filter((r) => scored(r, key) === "acceptedCut").length,
    cut: rows.filter((r) => r.room <= -5).length,
  });
  const byPhoto = new Map<string, Row[]>();
  for (const r of rows) byPhoto.set(r.photo, [...(byPhoto.get(r.photo) ?? []), r]);
  const mark = (r: Row, key: string) => (answerOf(r, key) ? "R" : "a") + (scored(r, key) ? "!" : " ");
  console.log(`rooms ${ROOMS.join(" ")}; R refused, a accepted, ! wrong (${keys.join(" → ")})`);
  for (const [photo, rs] of byPhoto) console.log(`${photo.padEnd(12)} ${rs.map((r) => `${r.room}:${keys.map((k) => mark(r, k)).join("")}`).join(" ")}`);
  const counts = Object.fromEntries(keys.map((k) => [k, count(k)]));
  for (const k of keys) console.log(`${k.padEnd(9)} whole refused ${counts[k]!.refusedWhole} of ${counts[k]!.whole}, cut accepted ${counts[k]!.acceptedCut} of ${counts[k]!.cut}`);
  console.log(`rows where the bench's own rule (fineFrom ${CROWN_RULE.fineFrom}, topWidth ${CROWN_RULE.topWidth}) differs from the engine's: ${recomputedOff}`);
  const extra = rows.filter((r) => r.fineMs !== null);
  const med = extra.map((r) => r.fineMs!).sort((a, b) => a - b)[Math.floor(extra.length / 2)];
  console.log(`the finer look run only below fineFrom ${CROWN_RULE.fineFrom}: ${extra.length} of ${rows.length} rows (level ≥ 0.05: ${extra.filter((r) => r.level >= 0.05).length}, ≥ 0.02: ${extra.filter((r) => r.level >= 0.02).length}), median ${med ?? "-"} ms each`);
  // Per room: refused (R) of photos by each rule; a whole head refused (room ≥ 0) or a cut one accepted (≤ −5) is wrong.
  console.log(`room  photos  refused ${keys.join(" → ")}`);
  for (const room of ROOMS) {
    const rs = rows.filter((r) => r.room === room);
    console.log(`${String(room).padStart(4)}  ${String(rs.length).padStart(6)}  ${keys.map((k) => rs.filter((r) => answerOf(r, k)).length).join(" → ")}`);
  }
  fs.mkdirSync("bench/results", { recursive: true });
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  fs.writeFileSync(process.env.CROWN_EDGE_OUT ?? "bench/results/crown-edge.json", JSON.stringify({ machine, at: new Date().toISOString(), counts, recomputedOff, rows }, null, 1));
}

void main().then(() => process.exit(0));
