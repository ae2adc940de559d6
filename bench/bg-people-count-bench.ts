// What counting people by their faces costs a person cut-out (issue 38): removeBackground on a
// 1 MP photo as "person" with BG_REMOVAL_COUNT_FACES on and off, alternated in one process
// (the setting is read at every call), the order swapped every round; the figure is the median of
// the rounds' own ratios (neighbours in time), plus the process's peak RSS after each half.
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
  await warmUpBackgroundRemoval();
  const opts = { subjectType: "person", edgeSoftness: 3, highDetail: false, background: "transparent" } as const;
  const run = async (photo: Buffer, faces: boolean) => {
    process.env.BG_REMOVAL_COUNT_FACES = String(faces);
    const t = performance.now();
    const r = await removeBackground(photo, opts);
    return { ms: performance.now() - t, people: r.quality.peopleKept };
  };
  // One of each first: the face engine's load is not a round's cost.
  for (const photo of Object.values(photos)) await run(photo, true);
  const rows = [];
  for (const [name, photo] of Object.entries(photos)) {
    const ratios: number[] = [], withMs: number[] = [], withoutMs: number[] = [];
    let people = { with: null as number | null, without: null as number | null };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [false, true] : [true, false];
      const got: Record<string, { ms: number; people: number | null }> = {};
      for (const faces of order) got[String(faces)] = await run(photo, faces);
      ratios.push(got.true!.ms / got.false!.ms);
      withMs.push(got.true!.ms);
      withoutMs.push(got.false!.ms);
      people = { with: got.true!.people, without: got.false!.people };
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    rows.push({ photo: name, rounds: ROUNDS, medianWithMs: Math.round(median(withMs)), medianWithoutMs: Math.round(median(withoutMs)), ratio: Number(median(ratios).toFixed(3)), ratios: ratios.map((r) => Number(r.toFixed(2))), peopleWith: people.with, peopleWithout: people.without });
  }
  const result = { when: new Date().toISOString(), loadAverage: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "), peakRssMb: peakRssMb(), rows };
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
