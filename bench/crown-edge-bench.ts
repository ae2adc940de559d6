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
// (that level ≥ CROWN_RULE.fineLevel and the hair's chord at the edge; Face Crop's default) and
// colour (crop9's, and where it says whole the hair's colour across the top row: hairCutsTop,
// HAIR_COLOUR), the counts, and the refusals per room; each row's levels, chord and hair colour
// (separation, width) go to bench/results/crown-edge.json (CROWN_EDGE_OUT).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";

// The fetched set's marks drop photos whose hair lies within 10 px of the top (the mark cannot be told from a cut).
/** crop8's rule: the finer matte's edge level alone, cut from 0.46. */
const CROP8_FINE_LEVEL = 0.46;
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
  const { crownFromMatte, headMatte, edgeLevel, chordWidth, hairCutsTop, CROWN_RULE, TOP_SQUARE } = await import("@/lib/engines/ml/faces/person-crown");
  const { faceCutBySource } = await import("@/lib/services/face-crop/crop-face");
  const { CROWN_FROM_EYES } = await import("@/lib/engines/ml/faces/landmarks");
  const { hairAtTop } = await import("@/lib/engines/ml/faces/hair-colour");
  const { matteAt } = await import("@/lib/engines/ml/faces/person-crown");
  const cfg = { maxPixels: 60e6, detectLongEdge: 1024, minScore: 0.25 };
  const model = await selfieModel();
  const rows: { photo: string; room: number; level: number; fine: number | null; chord: number | null; hair: { sep: number; width: number; dist: number } | null; before: boolean; crop8: boolean; now: boolean; colour: boolean }[] = [];
  for (const p of photos()) {
    const meta = await sharp(p.file).metadata();
    for (const room of ROOMS) {
      const top = p.hair - room;
      if (top < 0) continue;
      const jpeg = await sharp(p.file).extract({ left: 0, top, width: meta.width!, height: meta.height! - top }).jpeg({ quality: 92 }).toBuffer();
      const det = await detectInThread({ bytes: jpeg, ...cfg, crown: true, hairColour: false });
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
      // The finer square where the rule reads it (headCutAtTop): its edge level (crop8's rule) and the hair's chord (now).
      const fineM = m && level >= CROWN_RULE.fineFrom && m.top < 0 && m.eye.y - TOP_SQUARE.eyeFromTop * m.D < 0 ? await headMatte(model, img, { eyeMid, chin }, TOP_SQUARE) : null;
      const fine = fineM ? +edgeLevel(fineM).toFixed(3) : null;
      const chord = fineM ? +chordWidth(fineM).toFixed(3) : null;
      const hc = fineM ? hairAtTop(img, fineM, (q) => matteAt(fineM, q)) : null;
      const hair = hc ? { sep: +hc.separation.toFixed(3), width: +hc.width.toFixed(3), dist: +hc.distance.toFixed(1) } : null;
      const size = { width: det.width, height: det.height };
      const answer = (c: { crown: { x: number; y: number }; source: "matte" | "landmarks"; touchesEdge: boolean }) => faceCutBySource({ ...face, landmarks: { ...face.landmarks, crown: c.crown }, crownSource: c.source, crownTouchesEdge: c.touchesEdge }, size);
      const before = answer(old);
      const crop8Cut = level < CROWN_RULE.fineFrom ? false : fine !== null ? fine >= CROP8_FINE_LEVEL : level >= CROWN_RULE.edgeLevel;
      const crop8 = m ? answer(crownFromMatte(m, img.scale, estimate, crop8Cut)) : before;
      // crop9: Face Crop's own decision on the engine's face (FACE_CUT_BY_EDGE) without the hair's colour.
      const crop9 = faceCutBySource(face, size);
      // colour: where crop9's finer matte says whole, the hair's colour across the top row (hairCutsTop, HAIR_COLOUR).
      const colour = crop9 || (fineM && m && !(fine! >= CROWN_RULE.fineLevel && chord! >= CROWN_RULE.chord) && hairCutsTop(img, fineM) ? answer(crownFromMatte(m, img.scale, estimate, true)) : crop9);
      rows.push({ photo: p.name, room, level: +level.toFixed(3), fine, chord, hair, before, crop8, now: crop9, colour });
    }
  }
  const scored = (r: (typeof rows)[number], key: "before" | "crop8" | "now" | "colour") => (r.room >= 0 && r[key] ? "refusedWhole" : r.room <= -5 && !r[key] ? "acceptedCut" : null);
  const count = (key: "before" | "crop8" | "now" | "colour") => ({
    refusedWhole: rows.filter((r) => scored(r, key) === "refusedWhole").length,
    whole: rows.filter((r) => r.room >= 0).length,
    acceptedCut: rows.filter((r) => scored(r, key) === "acceptedCut").length,
    cut: rows.filter((r) => r.room <= -5).length,
  });
  const byPhoto = new Map<string, typeof rows>();
  for (const r of rows) byPhoto.set(r.photo, [...(byPhoto.get(r.photo) ?? []), r]);
  const mark = (r: (typeof rows)[number], key: "before" | "crop8" | "now" | "colour") => (r[key] ? "R" : "a") + (scored(r, key) ? "!" : " ");
  console.log(`rooms ${ROOMS.join(" ")}; R refused, a accepted, ! wrong (before → crop8 → crop9 → colour)`);
  for (const [photo, rs] of byPhoto) console.log(`${photo.padEnd(12)} ${rs.map((r) => `${r.room}:${mark(r, "before")}${mark(r, "crop8")}${mark(r, "now")}${mark(r, "colour")}`).join(" ")}`);
  const before = count("before");
  const crop8 = count("crop8");
  const now = count("now");
  const colour = count("colour");
  console.log(`before: whole refused ${before.refusedWhole} of ${before.whole}, cut accepted ${before.acceptedCut} of ${before.cut}`);
  console.log(`crop8:  whole refused ${crop8.refusedWhole} of ${crop8.whole}, cut accepted ${crop8.acceptedCut} of ${crop8.cut}`);
  console.log(`crop9:  whole refused ${now.refusedWhole} of ${now.whole}, cut accepted ${now.acceptedCut} of ${now.cut}`);
  console.log(`colour: whole refused ${colour.refusedWhole} of ${colour.whole}, cut accepted ${colour.acceptedCut} of ${colour.cut}`);
  // Per room: refused (R) of photos, before → now; a whole head refused (room ≥ 0) or a cut one accepted (≤ −5) is wrong.
  console.log("room  photos  refused before → crop8 → crop9 → colour");
  for (const room of ROOMS) {
    const rs = rows.filter((r) => r.room === room);
    console.log(`${String(room).padStart(4)}  ${String(rs.length).padStart(6)}  ${rs.filter((r) => r.before).length} → ${rs.filter((r) => r.crop8).length} → ${rs.filter((r) => r.now).length} → ${rs.filter((r) => r.colour).length}`);
  }
  fs.mkdirSync("bench/results", { recursive: true });
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  fs.writeFileSync(process.env.CROWN_EDGE_OUT ?? "bench/results/crown-edge.json", JSON.stringify({ machine, at: new Date().toISOString(), before, crop8, crop9: now, colour, rows }, null, 1));
}

void main().then(() => process.exit(0));
