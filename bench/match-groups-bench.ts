// Review by group (issue 32): how many decisions a reviewer makes per 100 photos, face
// by face against group by group, on a labelled set of people.
//
//   FACE_EVAL_DIR=<set> npx tsx bench/match-groups-bench.ts
//
// The set: one folder per person, their photos in it (the layout scripts/evaluate-faces.ts
// reads). The first photo of the first half of the people is their roster portrait; the
// rest of their photos, and every photo of the other half (on the roster without a
// portrait, or guests), are the job. Each photo's largest face is matched as production
// matches it (match-photo.ts, default threshold); a face the engine does not file is one
// decision face by face. By group: one decision per group holding such faces, plus one per
// face of the group that is not the group's majority person (it must be fixed alone),
// one per face left in a group of one. Without FACE_EVAL_DIR it runs on the committed
// fixtures (test/fixtures/faces: two people, a handful of photos) and says so.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describeFaces, DEFAULT_MATCH_THRESHOLD, shutDownFaces, type DescribedFace } from "@/lib/engines/ml/faces";
import { groupFaces, GROUP_MIN_COSINE } from "@/lib/engines/ml/faces/group-faces";
import { matchPhoto, type Reference } from "@/lib/services/matching/match-photo";

const DIR = process.env.FACE_EVAL_DIR;
const PEOPLE = Number(process.env.FACE_GROUPS_PEOPLE ?? "60");
const PER_PERSON = Number(process.env.FACE_GROUPS_PHOTOS ?? "6");

function fixtureSet(): { person: string; file: string }[] {
  const dir = path.resolve("test/fixtures/faces");
  const people: Record<string, string[]> = { obama: ["obama.jpg", "obama2.jpg", "obama3.jpg", "obama-1080p.jpg"], biden: ["biden.jpg", "biden2.jpg"] };
  return Object.entries(people).flatMap(([person, files]) => files.map((f) => ({ person, file: path.join(dir, f) })));
}

function labelledSet(dir: string): { person: string; file: string }[] {
  const people = fs
    .readdirSync(dir)
    .filter((d) => fs.statSync(path.join(dir, d)).isDirectory())
    .sort()
    .slice(0, PEOPLE);
  return people.flatMap((person) =>
    fs
      .readdirSync(path.join(dir, person))
      .filter((f) => /\.(jpe?g|png)$/i.test(f))
      .sort()
      .slice(0, PER_PERSON)
      .map((f) => ({ person, file: path.join(dir, person, f) })),
  );
}

const largest = (faces: DescribedFace[]) => faces.sort((a, b) => b.box.w * b.box.h - a.box.w * a.box.h)[0];

async function main() {
  const usingFixtures = !DIR || !fs.existsSync(DIR);
  if (usingFixtures) console.log(`match-groups-bench: FACE_EVAL_DIR ${DIR ? `${DIR} does not exist` : "is not set"}: the committed fixtures only (2 people; not a measurement of quality)`);
  const set = usingFixtures ? fixtureSet() : labelledSet(DIR!);
  const people = [...new Set(set.map((s) => s.person))];
  const withPortrait = new Set(people.slice(0, Math.ceil(people.length / 2)));
  const refs: Reference[] = [];
  const job: { person: string; face: DescribedFace }[] = [];
  const started = performance.now();
  for (const s of set) {
    const face = largest((await describeFaces(fs.readFileSync(s.file), { maxFaces: 5 })).faces);
    if (!face) continue;
    if (withPortrait.has(s.person) && !refs.some((r) => r.subjectId === s.person)) refs.push({ subjectId: s.person, embedding: face.embedding });
    else job.push({ person: s.person, face });
  }
  const describeMs = performance.now() - started;
  const open = job.filter((j) => matchPhoto([j.face], refs, DEFAULT_MATCH_THRESHOLD)[0]!.decision !== "matched");

  const isOpen = new Set(open);
  const per100 = (n: number) => Math.round((1000 * n) / Math.max(1, job.length)) / 10;
  // The production cut and one either side, on the same faces.
  const rows = [GROUP_MIN_COSINE - 0.1, GROUP_MIN_COSINE, GROUP_MIN_COSINE + 0.1].map((cut) => {
    const t0 = performance.now();
    const groups = groupFaces(
      job.map((j) => j.face.embedding),
      cut,
    );
    const groupMs = performance.now() - t0;
    let byGroup = 0;
    let misplaced = 0;
    for (const g of groups) {
      const members = g.map((i) => job[i]!).filter((j) => isOpen.has(j));
      if (members.length === 0) continue;
      const counts = new Map<string, number>();
      for (const m of members) counts.set(m.person, (counts.get(m.person) ?? 0) + 1);
      const majority = Math.max(...counts.values());
      byGroup += 1 + (members.length - majority);
      misplaced += members.length - majority;
    }
    return {
      group_min_cosine: Math.round(cut * 100) / 100,
      production: cut === GROUP_MIN_COSINE,
      groups: groups.length,
      decisions_face_by_face_per_100: per100(open.length),
      decisions_by_group_per_100: per100(byGroup),
      ratio: Math.round((100 * byGroup) / Math.max(1, open.length)) / 100,
      faces_in_another_persons_group: misplaced,
      grouping_ms: Math.round(groupMs),
    };
  });
  const about = {
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}`,
    set: usingFixtures ? "fixtures" : path.basename(DIR!),
    people: people.length,
    roster_with_portrait: withPortrait.size,
    job_photos: job.length,
    faces_to_decide: open.length,
    describe_ms_per_photo: Math.round(describeMs / set.length),
  };
  console.log(about);
  console.table(rows);
  console.log(JSON.stringify({ ...about, rows }));
  await shutDownFaces();
}

void main();
