// What counting people by their faces costs a person cut-out (issue 38): removeBackground on a
// 1 MP photo as "person" with BG_REMOVAL_COUNT_FACES off, `always` (the face detector beside
// every cut-out, as first merged) and on (faces looked for only when a kept region could hold
// more than one person), alternated in one process (the setting is read at every call), the
// order rotated every round; the figures are the medians of the rounds' own ratios to "off"
// (neighbours in time).
// Two photos: a woman beside a poster (one person) and two men who touch (test/fixtures/faces,
// MIT), each scaled to 1 MP.
//
//   npx tsx bench/bg-people-count-bench.ts        (writes bench/results/bg-people-count.json)
import fs from "node:fs";
import path from "node:path";
import { atMegapixels, peakRssMb } from "./bg-bench-support";

process.env.BG_REMOVAL_MATTE_CACHE = "0"; // the same photos again and again: the model must run every time
const ROUNDS = Number(process.env.ROUNDS ?? 3);

async function main() {
  const { removeBackground, shutDownBackgroundRemoval, warmUpBackgroundRemoval } = await import("@/lib/engines/ml/background-removal");
  const { shutDownFaces } = await import("@/lib/engines/ml/faces");
  const photos = {
    "one person, 1 MP": await atMegapixels(path.resolve("lib/engines/ml/background-removal/fixtures/person-poster.jpg"), 1),
    "two who touch, 1 MP": await atMegapixels(path.resolve("test/fixtures/faces/obama_and_biden.jpg"), 1),
  };
  const loadAtStart = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  await warmUpBackgroundRemoval();
  const opts = { subjectType: "person", edgeSoftness: 3, highDetail: false, background: "transparent" } as const;
  const modes = ["false", "always", "true"] as const;
  const run = async (photo: Buffer, faces: (typeof modes)[number]) => {
    process.env.BG_REMOVAL_COUNT_FACES = faces;
    const t = performance.now();
    const r = await removeBackground(photo, opts);
    return { ms: performance.now() - t, people: r.quality.peopleKept, facesMs: r.timingsMs.faces ?? null };
  };
  // One of each first: the face engine's load is not a round's cost.
  for (const photo of Object.values(photos)) await run(photo, "always");
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows = [];
  for (const [name, photo] of Object.entries(photos)) {
    const ms: Record<string, number[]> = { false: [], always: [], true: [] };
    const ratios: Record<string, number[]> = { always: [], true: [] };
    const people: Record<string, number | null> = {};
    const facesRun: Record<string, boolean> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const order = modes.map((_, k) => modes[(k + round) % modes.length]!);
      const got: Record<string, { ms: number; people: number | null; facesMs: number | null }> = {};
      for (const mode of order) got[mode] = await run(photo, mode);
      for (const mode of modes) {
        ms[mode]!.push(got[mode]!.ms);
        people[mode] = got[mode]!.people;
        facesRun[mode] = got[mode]!.facesMs !== null;
      }
      for (const mode of ["always", "true"]) ratios[mode]!.push(got[mode]!.ms / got.false!.ms);
    }
    rows.push({
      photo: name,
      rounds: ROUNDS,
      offMs: Math.round(median(ms.false!)),
      alwaysMs: Math.round(median(ms.always!)),
      onMs: Math.round(median(ms.true!)),
      alwaysRatio: Number(median(ratios.always!).toFixed(3)),
      onRatio: Number(median(ratios.true!).toFixed(3)),
      onRatios: ratios.true!.map((r) => Number(r.toFixed(2))),
      facesLookedFor: facesRun.true,
      peopleOff: people.false,
      peopleAlways: people.always,
      peopleOn: people.true,
    });
  }
  const result = { when: new Date().toISOString(), loadAtStart, loadAverage: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "), peakRssMb: peakRssMb(), rows };
  console.table(rows);
  console.log(JSON.stringify(result, null, 2));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/bg-people-count.json", JSON.stringify(result, null, 2));
  await shutDownBackgroundRemoval();
  await shutDownFaces();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
