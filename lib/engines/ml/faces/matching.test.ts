import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AMBIGUITY_MARGIN,
  DEFAULT_MATCH_THRESHOLD,
  DISTANCE_TO_SIMILARITY,
  EMBEDDING_MODEL,
  FaceInputError,
  REVIEW_BAND,
  decideMatch,
  describeFaces,
  faceSimilarity,
  rankCandidates,
  shutDownFaces,
  similarityOfDistance,
  type DescribedFace,
} from "@/lib/engines/ml/faces";
import { exifRotatedPortrait, faceFixture, iou } from "@/test/support/face-fixtures";
import { pairFigures } from "./pair-figures";

// Real photos, the real models in their worker thread: one load for the whole file.
afterAll(() => shutDownFaces());

const leftToRight = (faces: DescribedFace[]) => [...faces].sort((a, b) => a.box.x - b.box.x);
const one = async (name: string) => {
  const { faces } = await describeFaces(faceFixture(name));
  expect(faces, name).toHaveLength(1);
  return faces[0]!.embedding;
};

describe("face embeddings on real photos", () => {
  const ref: Record<string, Float32Array> = {};
  beforeAll(async () => {
    ref.obama = await one("obama.jpg");
    ref.biden = await one("biden2.jpg");
  }, 60_000);

  it("gives each face a unit-length 256-number embedding beside its detection", async () => {
    const d = await describeFaces(faceFixture("obama2.jpg"));
    expect(d.faces).toHaveLength(1);
    const e = d.faces[0]!.embedding;
    expect(e).toBeInstanceOf(Float32Array);
    expect(e).toHaveLength(256);
    expect(Math.hypot(...e)).toBeCloseTo(1, 4);
    expect(d.faces[0]!.landmarks.eyeMid.y).toBeLessThan(d.faces[0]!.landmarks.chin.y);
    expect(d.timingsMs.embed).toBeGreaterThan(0);
    expect(EMBEDDING_MODEL).toMatch(/face-reidentification-retail-0095/);
  });

  it("measures what the quality gates read: a sharp frontal face, the same face blurred, a child looking aside", async () => {
    const [clear] = (await describeFaces(faceFixture("obama.jpg"))).faces;
    expect(clear!.sharpness).toBeGreaterThan(90);
    expect(Math.abs(clear!.yaw)).toBeLessThan(10);
    expect(clear!.outsideShare).toBe(0);
    const width = (await sharp(faceFixture("obama.jpg")).metadata()).width!;
    const blurred = await sharp(faceFixture("obama.jpg")).rotate().blur(width / 50).jpeg().toBuffer();
    const [soft] = (await describeFaces(blurred)).faces;
    expect(soft!.sharpness).toBeLessThan(30);
    // obama_and_biden.jpg: the girl in front, half behind the men and looking aside.
    const faces = (await describeFaces(faceFixture("obama_and_biden.jpg"))).faces;
    const girl = faces.reduce((a, b) => (b.score < a.score ? b : a));
    expect(girl.score).toBeLessThan(0.6);
    expect(Math.abs(girl.yaw)).toBeGreaterThan(35);
    // A tight headshot: a sixth of the mesh outside the frame, the whole face visible.
    const [partial] = (await describeFaces(faceFixture("obama_partial_face.jpg"))).faces;
    expect(partial!.outsideShare).toBeGreaterThan(0.1);
    expect(partial!.outsideShare).toBeLessThan(0.25);
  }, 60_000);

  it("scores the same person above the default threshold and different people below the review band", async () => {
    const obama2 = await one("obama2.jpg");
    expect(faceSimilarity(ref.obama!, obama2)).toBeGreaterThan(0.95);
    const biden = await one("biden.jpg");
    expect(faceSimilarity(biden, ref.biden!)).toBeGreaterThan(0.95);
    for (const o of [ref.obama!, obama2]) {
      expect(faceSimilarity(o, biden)).toBeLessThan(DEFAULT_MATCH_THRESHOLD - REVIEW_BAND);
      expect(faceSimilarity(o, ref.biden!)).toBeLessThan(DEFAULT_MATCH_THRESHOLD - REVIEW_BAND);
    }
  });

  it("finds both men in the group photo and matches each to his own reference; the girl matches nobody", async () => {
    const { faces } = await describeFaces(faceFixture("obama_and_biden.jpg"));
    const [biden, obama, girl] = leftToRight(faces);
    const refs = [
      { subjectId: "obama", embedding: ref.obama! },
      { subjectId: "biden", embedding: ref.biden! },
    ];
    for (const [face, who] of [[biden!, "biden"], [obama!, "obama"]] as const) {
      const [best, runnerUp] = rankCandidates(face.embedding, refs);
      expect(best!.subjectId).toBe(who);
      expect(best!.similarity).toBeGreaterThan(DEFAULT_MATCH_THRESHOLD);
      expect(runnerUp!.similarity).toBeLessThan(DEFAULT_MATCH_THRESHOLD - REVIEW_BAND);
      expect(decideMatch(best, runnerUp, DEFAULT_MATCH_THRESHOLD, refs.length)).toBe("matched");
    }
    if (girl) {
      const [best, runnerUp] = rankCandidates(girl.embedding, refs);
      expect(decideMatch(best, runnerUp, DEFAULT_MATCH_THRESHOLD, refs.length)).toBe("unmatched");
    }
  });

  it("aligns by the eyes: a tilted copy and an EXIF-rotated copy embed like the upright photo", async () => {
    const tilted = await sharp(faceFixture("obama.jpg")).rotate(20, { background: "#777" }).jpeg({ quality: 85 }).toBuffer();
    const t = await describeFaces(tilted);
    expect(t.faces).toHaveLength(1);
    expect(Math.abs(t.faces[0]!.roll)).toBeGreaterThan(15);
    expect(faceSimilarity(ref.obama!, t.faces[0]!.embedding)).toBeGreaterThan(0.95);
    const r = await describeFaces(await exifRotatedPortrait());
    expect(faceSimilarity(ref.obama!, r.faces[0]!.embedding)).toBeGreaterThan(0.95);
  });

  it("describes the same faces detectFaces finds, at the same places", async () => {
    const { detectFaces } = await import("@/lib/engines/ml/faces");
    const a = await detectFaces(faceFixture("two_people.jpg"));
    const b = await describeFaces(faceFixture("two_people.jpg"));
    expect(b.faces).toHaveLength(a.faces.length);
    a.faces.forEach((f, i) => expect(iou(f.box, b.faces[i]!.box)).toBeGreaterThan(0.9));
    const one = await describeFaces(faceFixture("two_people.jpg"), { maxFaces: 1 });
    expect(one.faces).toHaveLength(1);
  });

  it("refuses what cannot be a photo as detectFaces does, and finds no face in a coffee cup", async () => {
    const err = await describeFaces(Buffer.from("not a photo")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FaceInputError);
    expect((err as FaceInputError).code).toBe("UNREADABLE_IMAGE");
    expect((await describeFaces(faceFixture("coffee.jpg"))).faces).toEqual([]);
  });
});

describe("the evaluation's pair figures on the committed photos (the CI subset of scripts/evaluate-faces.ts)", () => {
  it("separates every same-person pair from every different-person pair, all on the right side of the default threshold", async () => {
    const faces: { identity: string; group: string; vector: Float32Array }[] = [];
    for (const [file, identity] of [
      ["obama.jpg", "obama"], ["obama2.jpg", "obama"], ["obama3.jpg", "obama"], ["obama-1080p.jpg", "obama"], ["obama_partial_face.jpg", "obama"],
      ["biden.jpg", "biden"], ["biden2.jpg", "biden"],
    ] as const) faces.push({ identity, group: "adult", vector: await one(file) });
    const [biden, obama, girl] = leftToRight((await describeFaces(faceFixture("obama_and_biden.jpg"))).faces);
    faces.push({ identity: "biden", group: "adult", vector: biden!.embedding }, { identity: "obama", group: "adult", vector: obama!.embedding });
    if (girl) faces.push({ identity: "girl", group: "young", vector: girl.embedding });
    const [all] = pairFigures(faces, () => ["all"]);
    expect(all).toMatchObject({ key: "all", genuine: 18, auc: 1, impostorAtDefault: 0 });
    expect(all!.genuineAtDefault).toBe(all!.genuine);
    expect(all!.maxImpostor).toBeLessThan(0.26); // below the review band's floor (cosine 0.26 = similarity 0.70)
  }, 60_000);
});

describe("the first-run demo set (lib/engines/ml/faces/demo-photos)", () => {
  it("matches every roster face in the event photos to the right subject and nobody else's", async () => {
    const dir = path.join(process.cwd(), "lib/engines/ml/faces/demo-photos");
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as {
      subjects: { id: string; reference: string }[];
      photos: { file: string; people: (string | null)[] }[];
    };
    const refs: { subjectId: string; embedding: Float32Array }[] = [];
    for (const s of manifest.subjects) {
      const { faces } = await describeFaces(fs.readFileSync(path.join(dir, s.reference)));
      expect(faces, s.reference).toHaveLength(1);
      refs.push({ subjectId: s.id, embedding: faces[0]!.embedding });
    }
    const decisions: string[] = [];
    for (const p of manifest.photos) {
      const { faces } = await describeFaces(fs.readFileSync(path.join(dir, p.file)));
      const ordered = leftToRight(faces);
      expect(ordered.length, p.file).toBeGreaterThanOrEqual(p.people.filter(Boolean).length);
      ordered.forEach((face, i) => {
        const [best, runnerUp] = rankCandidates(face.embedding, refs, 2);
        const decision = decideMatch(best, runnerUp, DEFAULT_MATCH_THRESHOLD, refs.length);
        const who = p.people[i] ?? null;
        decisions.push(`${p.file}#${i} ${who} ${decision}`);
        if (who === null) expect(decision, `${p.file}#${i}`).toBe("unmatched");
        else {
          expect(best!.subjectId, `${p.file}#${i}`).toBe(who);
          expect(decision, `${p.file}#${i}`).not.toBe("unmatched");
        }
      });
    }
    // Most are matched outright; a profile-cut or older photo may go to review, never to another child.
    expect(decisions.filter((d) => d.endsWith(" matched")).length).toBeGreaterThanOrEqual(5);
  });
});

describe("similarity scale, ranking and the decision", () => {
  const unit = (...v: number[]) => {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };

  it("maps raw distance onto 0-1 monotonically through the calibrated anchors", () => {
    for (const [d, s] of DISTANCE_TO_SIMILARITY) expect(similarityOfDistance(d)).toBeCloseTo(s, 10);
    let prev = 2;
    for (let d = 0; d <= 2; d += 0.01) {
      const s = similarityOfDistance(d);
      expect(s).toBeLessThanOrEqual(prev);
      expect(s).toBeGreaterThanOrEqual(0);
      prev = s;
    }
    expect(faceSimilarity([1, 0, 0], [2, 0, 0])).toBe(1); // compared as unit vectors
    expect(faceSimilarity([1, 0, 0], [0, 1, 0])).toBe(0);
    expect(() => faceSimilarity([1, 0], [1, 0, 0])).toThrow(/different lengths/);
  });

  it("ranks a roster best first, one entry per subject, k at most", () => {
    const q = unit(1, 0.2, 0);
    const refs = [
      { subjectId: "far", embedding: unit(0, 1, 0) },
      { subjectId: "near", embedding: unit(1, 0.25, 0) },
      { subjectId: "mid", embedding: unit(1, 0.5, 0.1) },
      { subjectId: "near", embedding: unit(0, 0, 1) }, // a second, worse reference of "near"
    ];
    const ranked = rankCandidates(q, refs, 2);
    expect(ranked.map((c) => c.subjectId)).toEqual(["near", "mid"]);
    expect(ranked[0]!.similarity).toBeGreaterThan(ranked[1]!.similarity);
    expect(rankCandidates(q, [])).toEqual([]);
  });

  it("decides matched, needs_review (close below, or two subjects too close to call) and unmatched, on a small roster", () => {
    const t = DEFAULT_MATCH_THRESHOLD;
    const c = (subjectId: string, similarity: number) => ({ subjectId, similarity });
    expect(decideMatch(undefined, undefined, t, 2)).toBe("unmatched");
    expect(decideMatch(c("a", 0.97), c("b", 0.4), t, 2)).toBe("matched");
    expect(decideMatch(c("a", 0.97), undefined, t, 2)).toBe("matched");
    expect(decideMatch(c("a", 0.9), undefined, t, 2)).toBe("needs_review"); // above 0.85, below what even 2 references need
    expect(decideMatch(c("a", t - REVIEW_BAND / 2), c("b", 0.3), t, 2)).toBe("needs_review");
    expect(decideMatch(c("a", t - REVIEW_BAND - 0.01), undefined, t, 2)).toBe("unmatched");
    expect(decideMatch(c("a", 0.95), c("b", 0.95 - AMBIGUITY_MARGIN / 2), t, 2)).toBe("needs_review");
    expect(decideMatch(c("a", 0.97), c("b", 0.9), 0.95, 2)).toBe("matched");
    expect(decideMatch(c("a", 0.9), c("b", 0.4), 0.95, 2)).toBe("needs_review");
  });
});
