import { describe, expect, it } from "vitest";
import { distanceToMask, keepPerson, looksLikePortrait, PERSON_RULE, type Box, type PersonReport } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";
import type { ArmSegment } from "./pose-arms";

// The person rule's arithmetic on drawn mattes (no model): 100 x 100 frames where
// "ISNet" and "the person model" are rectangles and discs we place.
const W = 100, H = 100;
const { plane, inRect, matte, at } = drawnMattes(W, H);

// A person standing at x 50..80 from y 20 down to the bottom edge.
const personBox = (x: number, y: number) => inRect(x, y, 50, 20, 80, 100);

describe("keepPerson", () => {
  it("drops a poster beside the person and keeps the person", async () => {
    const m = matte((x, y) => (personBox(x, y) || inRect(x, y, 5, 10, 35, 60) ? 1 : 0));
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : 0.01));
    expect(await keepPerson(m, p)).toBe(true);
    expect(at(m, 20, 30)).toBe(0); // the poster
    expect(at(m, 65, 50)).toBe(1); // the person
  });

  it("fills a face ISNet called background, but not a gap the person model is unsure of", async () => {
    const m = matte((x, y) => (personBox(x, y) && !inRect(x, y, 58, 28, 70, 40) && !inRect(x, y, 54, 70, 60, 80) ? 1 : 0));
    // Sure of the face (0.99), unsure of the gap between arm and body (0.6).
    const p = plane((x, y) => (inRect(x, y, 54, 70, 60, 80) ? 0.6 : personBox(x, y) ? 0.99 : 0.01));
    await keepPerson(m, p);
    expect(at(m, 64, 34)).toBe(1);
    expect(at(m, 56, 74)).toBe(0);
  });

  it("makes a dark jacket solid below the person's top, never the mask's overshoot above it", async () => {
    // ISNet found the head (y 20..40) only; the person model's mask also covers the body and a blob beside the head.
    const m = matte((x, y) => (inRect(x, y, 55, 20, 75, 40) ? 1 : 0));
    const p = plane((x, y) => (inRect(x, y, 50, 20, 80, 100) || inRect(x, y, 10, 0, 50, 30) ? 0.99 : 0.01));
    await keepPerson(m, p);
    expect(at(m, 65, 80)).toBe(1); // the jacket
    expect(at(m, 15, 5)).toBe(0); // overshoot far from the person's columns
  });

  it("never makes solid the mask's overshoot beside the head: the person is on one side only", async () => {
    // ISNet: the head (x 55..75) and the body's lit edges; the mask also covers a blob left of the head.
    const m = matte((x, y) => (inRect(x, y, 55, 10, 75, 35) || inRect(x, y, 50, 35, 55, 100) || inRect(x, y, 75, 35, 80, 100) ? 1 : 0));
    const p = plane((x, y) => (inRect(x, y, 50, 10, 80, 100) || inRect(x, y, 25, 10, 50, 45) ? 0.99 : 0.01));
    await keepPerson(m, p);
    expect(at(m, 65, 70)).toBe(1); // the dark body between the lit edges
    expect(at(m, 48, 25)).toBe(0); // the blob beside the head (the first rule made it solid)
    const first = matte((x, y) => (inRect(x, y, 55, 10, 75, 35) || inRect(x, y, 50, 35, 55, 100) || inRect(x, y, 75, 35, 80, 100) ? 1 : 0));
    await keepPerson(first, p, undefined, { ...PERSON_RULE, bothSides: false, edgeFillGap: 0 });
    expect(at(first, 48, 25)).toBe(1);
  });

  it("carries a jacket ISNet missed out to the frame's edge, and up to the mask's edge", async () => {
    // ISNet found the head only; the mask runs out of the frame on the right.
    const m = matte((x, y) => (inRect(x, y, 40, 10, 60, 40) ? 1 : 0));
    const p = plane((x, y) => (inRect(x, y, 35, 10, 100, 100) ? 0.99 : 0.01));
    await keepPerson(m, p);
    expect(at(m, 95, 80)).toBe(1); // beyond the reach of both the head and the frame's edge
    expect(at(m, 95, 11)).toBeGreaterThan(0.9); // the band inside the mask's edge, far from ISNet's own edge
    expect(at(m, 20, 80)).toBe(0); // outside the mask
  });

  it("a second look drops a region the person model rejects on its own (a statue)", async () => {
    const m = matte((x, y) => (personBox(x, y) || inRect(x, y, 20, 30, 35, 100) ? 1 : 0));
    const p = plane((x, y) => (personBox(x, y) || inRect(x, y, 20, 30, 35, 100) ? 0.99 : 0.01));
    const looked: Box[] = [];
    await keepPerson(m, p, async (box) => {
      looked.push(box);
      return new Float32Array(box.width * box.height).fill(0.2);
    });
    expect(looked).toHaveLength(1);
    expect(at(m, 27, 60)).toBe(0);
    expect(at(m, 65, 60)).toBe(1);
  });

  it("takes no second look at a region much smaller than the person (a glass in a hand): no square hole in the shirt", async () => {
    // ISNet: the head, an arm down to the legs, and a glass held in front of a dark shirt it
    // missed (a region of its own); the person model is sure of all of it.
    const isnet = (x: number, y: number) =>
      inRect(x, y, 55, 20, 75, 40) || inRect(x, y, 74, 30, 80, 70) || inRect(x, y, 50, 70, 80, 100) || inRect(x, y, 61, 50, 67, 56) ? 1 : 0;
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : 0.01));
    // A close crop of a hand shows the person model no one.
    const sees = (looked: Box[]) => async (box: Box) => (looked.push(box), new Float32Array(box.width * box.height));
    const now = matte(isnet), looked: Box[] = [];
    await keepPerson(now, p, sees(looked));
    expect(looked).toHaveLength(0);
    expect(at(now, 64, 53)).toBe(1); // the glass
    expect(at(now, 58, 52)).toBe(1); // the shirt beside it, made solid
    // Before (every second look taken): the glass and its square were cleared out of the shirt.
    const before = matte(isnet), lookedBefore: Box[] = [];
    await keepPerson(before, p, sees(lookedBefore), { ...PERSON_RULE, secondLookMinShare: 0 });
    expect(lookedBefore).toHaveLength(1);
    expect(at(before, 64, 53)).toBe(0);
  });

  it("keeps a raised hand the coarse mask misses, and reports it for a look", async () => {
    // An arm raised from the right shoulder up to y 2, 17 px above the mask (the band is 3 px).
    const arm = (x: number, y: number) => inRect(x, y, 72, 2, 76, 21);
    const m = matte((x, y) => (personBox(x, y) || arm(x, y) ? 1 : 0));
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : 0.01));
    const report: PersonReport = { people: 0, doubtful: [] };
    expect(await keepPerson(m, p, undefined, PERSON_RULE, report)).toBe(true);
    expect(at(m, 74, 3)).toBe(1); // the hand
    expect(at(m, 74, 12)).toBe(1); // the forearm
    expect(at(m, 65, 60)).toBe(1); // the body
    expect(report.people).toBe(1);
    expect(report.doubtful).toEqual([{ reason: "kept_outside_person", box: { left: 72, top: 2, width: 4, height: 15 }, area: 0.006 }]);
    // The rule as it was (attachments off) cut the hand away.
    const before = matte((x, y) => (personBox(x, y) || arm(x, y) ? 1 : 0));
    await keepPerson(before, p, undefined, { ...PERSON_RULE, attachedMaxShare: 0 });
    expect(at(before, 74, 3)).toBe(0);
  });

  it("still clears a large block merged with the person (a poster behind a shoulder), and reports it", async () => {
    const poster = (x: number, y: number) => inRect(x, y, 5, 5, 52, 70);
    const m = matte((x, y) => (personBox(x, y) || poster(x, y) ? 1 : 0));
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : 0.01));
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, p, undefined, PERSON_RULE, report);
    expect(at(m, 20, 30)).toBe(0);
    expect(at(m, 65, 60)).toBe(1);
    expect(report.doubtful.map((r) => r.reason)).toEqual(["removed_touching_person"]);
  });

  it("keeps and counts two people", async () => {
    const two = (x: number, y: number) => inRect(x, y, 8, 25, 35, 100) || inRect(x, y, 60, 20, 90, 100);
    const m = matte((x, y) => (two(x, y) ? 1 : 0));
    const p = plane((x, y) => (two(x, y) ? 0.99 : 0.01));
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, p, undefined, PERSON_RULE, report);
    expect(at(m, 20, 60)).toBe(1);
    expect(at(m, 75, 60)).toBe(1);
    expect(report.people).toBe(2);
    expect(report.doubtful).toEqual([]);
  });

  it("reports where the person model is sure of a person the cut-out removed", async () => {
    // The person model sees a second person at the left that ISNet did not draw at all.
    const m = matte((x, y) => (personBox(x, y) ? 1 : 0));
    const p = plane((x, y) => (personBox(x, y) || inRect(x, y, 5, 40, 25, 100) ? 0.99 : 0.01));
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, p, undefined, PERSON_RULE, report);
    expect(report.people).toBe(1);
    expect(report.doubtful.map((r) => r.reason)).toContain("removed_person");
  });

  it("fills a raised arm ISNet missed where the person model is sure of it (over a busy poster)", async () => {
    // ISNet: the body only; the person model: the body and an arm raised from the shoulder to the top.
    const arm = (x: number, y: number) => inRect(x, y, 74, 0, 80, 22);
    const m = matte((x, y) => (personBox(x, y) ? 1 : 0));
    const p = plane((x, y) => (personBox(x, y) || arm(x, y) ? 0.99 : 0.01));
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, p, undefined, PERSON_RULE, report);
    expect(at(m, 77, 3)).toBe(1); // the hand
    expect(at(m, 77, 15)).toBe(1); // the forearm
    expect(at(m, 60, 10)).toBe(0); // beside it, above the shoulder: background
    expect(report.doubtful.map((r) => r.reason)).not.toContain("removed_person");
    // The rule as it was (no sure fill) left the arm out and reported it.
    const before = matte((x, y) => (personBox(x, y) ? 1 : 0));
    await keepPerson(before, p, undefined, { ...PERSON_RULE, sureFill: 0, keptTops: false });
    expect(at(before, 77, 3)).toBe(0);
  });

  it("fills a sure hand joined to the person only by an arm the model is unsure of (hysteresis)", async () => {
    // v35: the person model is sure of the raised hand (0.99) but only 0.5-0.8 of the arm below
    // it; the sure hand alone does not touch the body ISNet kept.
    const hand = (x: number, y: number) => inRect(x, y, 73, 0, 80, 8);
    const arm = (x: number, y: number) => inRect(x, y, 74, 8, 80, 22);
    // A halo the model is unsure of around the body, with no sure island in it: left as it was.
    const halo = (x: number, y: number) => inRect(x, y, 44, 30, 50, 100);
    const p = plane((x, y) => (personBox(x, y) || hand(x, y) ? 0.99 : arm(x, y) ? 0.7 : halo(x, y) ? 0.7 : 0.01));
    const body = (x: number, y: number) => (personBox(x, y) ? 1 : 0);
    const m = matte(body);
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, p, undefined, PERSON_RULE, report);
    expect(at(m, 76, 3)).toBe(1); // the hand
    expect(at(m, 77, 15)).toBe(1); // the arm between
    expect(at(m, 60, 10)).toBe(0); // above the shoulder: background
    expect(at(m, 46, 60)).toBe(0); // the halo with no island in it
    expect(report.doubtful.map((r) => r.reason)).not.toContain("removed_person");
    // Without the hysteresis the hand stays out and is reported.
    const before = matte(body);
    const beforeReport: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(before, p, undefined, { ...PERSON_RULE, sureGrow: 0 }, beforeReport);
    expect(at(before, 76, 3)).toBe(0);
    expect(beforeReport.doubtful.map((r) => r.reason)).toContain("removed_person");
    // A sure piece the lower threshold does not join to the person (a poster's figure) stays out.
    const apart = plane((x, y) => (personBox(x, y) ? 0.99 : inRect(x, y, 20, 0, 30, 10) ? 0.99 : inRect(x, y, 20, 10, 30, 15) ? 0.7 : 0.01));
    const m2 = matte(body);
    await keepPerson(m2, apart);
    expect(at(m2, 25, 5)).toBe(0);
  });

  it("with softJoin (off by default), takes a hand ISNet faded at the end of an arm; an ordinary soft edge stays ISNet's", async () => {
    // v49: ISNet keeps the outstretched arm but fades the hand at its end to 0.3; the person model
    // is 0.7 there. The body's edge has ISNet's usual one-pixel ramp (0.3) inside the mask's halo (0.7).
    const arm = (x: number, y: number) => inRect(x, y, 30, 40, 50, 45);
    const hand = (x: number, y: number) => inRect(x, y, 18, 40, 30, 44); // thin fingers (a round blob is refused as an object)
    const ramp = (x: number, y: number) => x === 49 && y >= 55;
    const isnet = (x: number, y: number) => (personBox(x, y) || arm(x, y) ? 1 : hand(x, y) || ramp(x, y) ? 0.3 : 0);
    const p = plane((x, y) => (personBox(x, y) || arm(x, y) ? 0.99 : hand(x, y) || inRect(x, y, 47, 50, 50, 100) ? 0.7 : 0.01));
    const m = matte(isnet);
    await keepPerson(m, p, undefined, { ...PERSON_RULE, softJoin: 0.1, poseArmShare: 0 });
    expect(at(m, 24, 42)).toBeCloseTo(0.7); // the fingers: the person model's probability
    expect(at(m, 49, 80)).toBeCloseTo(0.3); // the ramp along the body: ISNet's
    const before = matte(isnet);
    await keepPerson(before, p, undefined, { ...PERSON_RULE, softJoin: 0, limbReach: 0 });
    expect(at(before, 24, 42)).toBeCloseTo(0.3); // the rule as it was: under 0.5, cut away
  });

  it("keeps an arm the person model is only fairly sure of, reaching out of the body, when the pose model finds an arm there", async () => {
    // v261: a back-lit arm raised against a window, ISNet 0, the person model 0.6 along it (no
    // island of 0.9 for the hysteresis to start from); the pose model finds her shoulder, elbow and
    // wrist along it. A band of 0.6 along the body stays out, and so does a piece running out of
    // the frame (a table under the hands, v107).
    const arm = (x: number, y: number) => inRect(x, y, 20, 24, 50, 30);
    const halo = (x: number, y: number) => inRect(x, y, 80, 40, 86, 100);
    const table = (x: number, y: number) => inRect(x, y, 20, 85, 50, 100);
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : arm(x, y) || halo(x, y) || table(x, y) ? 0.6 : 0.01));
    const body = (x: number, y: number) => (personBox(x, y) ? 1 : 0);
    // Shoulder (55, 27) → elbow (40, 27) → wrist (26, 27), radius 6 (0.4 of the forearm).
    const arms = async (): Promise<ArmSegment[]> => [
      { x0: 55, y0: 27, x1: 40, y1: 27, radius: 6 },
      { x0: 40, y0: 27, x1: 26, y1: 27, radius: 6 },
      { x0: 26, y0: 27, x1: 19, y1: 27, radius: 6 },
    ];
    const m = matte(body);
    await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, arms);
    expect(at(m, 25, 27)).toBe(1); // the arm's far end
    expect(at(m, 45, 27)).toBe(1); // where it joins the body
    expect(at(m, 83, 70)).toBe(0); // the halo's band along the body
    expect(at(m, 35, 10)).toBe(0); // above the arm
    expect(at(m, 25, 95)).toBe(0); // the table running out of the frame
    const before = matte(body);
    await keepPerson(before, p, undefined, { ...PERSON_RULE, limbReach: 0, poseArmShare: 0 }, undefined, undefined, arms);
    expect(at(before, 25, 27)).toBe(0); // the rule as it was (people6): the arm cut away
  });

  it("refuses a piece reaching out where the pose model finds no arm: background beside raised hands", async () => {
    // v285: the person model's 0.6 spills into the background beside her raised hands; limbReach
    // alone took it as a limb (0.971 → 0.947). Her arms, as the pose model finds them, are on the
    // body's other side (or not found at all): the spill stays out.
    const spill = (x: number, y: number) => inRect(x, y, 20, 24, 50, 30);
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : spill(x, y) ? 0.6 : 0.01));
    const body = (x: number, y: number) => (personBox(x, y) ? 1 : 0);
    const elsewhere = async (): Promise<ArmSegment[]> => [{ x0: 80, y0: 30, x1: 95, y1: 10, radius: 5 }];
    for (const arms of [elsewhere, async () => [], undefined]) {
      const m = matte(body);
      await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, arms);
      expect(at(m, 25, 27)).toBe(0);
    }
    const ungated = matte(body);
    await keepPerson(ungated, p, undefined, { ...PERSON_RULE, poseArmShare: 0 });
    expect(at(ungated, 25, 27)).toBe(1); // limbReach without the pose cue (people6's measured version) takes it
  });

  it("keeps the rest of that arm (poseGrow) where the person model is unsure of it, along the arm only", async () => {
    // v261's back-lit left arm: the person model 0.6 over part of it (which asks for the pose model),
    // 0.35 over the rest; the pose model finds the arm. Another 0.35 strip, along no arm, stays out.
    const arm = (x: number, y: number) => inRect(x, y, 20, 24, 50, 30);
    const armRest = (x: number, y: number) => inRect(x, y, 20, 30, 50, 33);
    const stray = (x: number, y: number) => inRect(x, y, 30, 60, 50, 63);
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : arm(x, y) ? 0.6 : armRest(x, y) || stray(x, y) ? 0.35 : 0.01));
    const body = (x: number, y: number) => (personBox(x, y) ? 1 : 0);
    const arms = async (): Promise<ArmSegment[]> => [
      { x0: 55, y0: 28, x1: 40, y1: 28, radius: 10 },
      { x0: 40, y0: 28, x1: 26, y1: 28, radius: 10 },
      { x0: 26, y0: 28, x1: 19, y1: 28, radius: 10 },
    ];
    const m = matte(body);
    await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, arms);
    expect(at(m, 30, 27)).toBe(1); // the arm the person model is fairly sure of
    expect(at(m, 30, 31)).toBe(1); // its unsure rest, along the arm
    expect(at(m, 40, 61)).toBe(0); // the unsure strip along no arm
    const before = matte(body);
    await keepPerson(before, p, undefined, { ...PERSON_RULE, poseGrow: 0 }, undefined, undefined, arms);
    expect(at(before, 30, 27)).toBe(1);
    expect(at(before, 30, 31)).toBe(0); // without poseGrow the unsure rest is cut away
  });

  it("does not fill a thick, round blob of the mask beside the head, and says so", async () => {
    const m = matte((x, y) => (inRect(x, y, 55, 20, 75, 100) ? 1 : 0));
    // The mask also covers a 30 x 30 block left of the head, joined to the person.
    const p = plane((x, y) => (inRect(x, y, 55, 20, 75, 100) || inRect(x, y, 25, 15, 55, 45) ? 0.99 : 0.01));
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, p, undefined, PERSON_RULE, report);
    expect(at(m, 38, 30)).toBe(0);
    expect(at(m, 65, 60)).toBe(1);
    expect(report.doubtful.map((r) => r.reason)).toContain("removed_person");
  });

  it("fills a thick, round body piece that runs out of the frame at the bottom (a shoulder ISNet missed)", async () => {
    // v43: ISNet found the head and neck (x 20..50); the person model is also sure of a dark
    // shoulder to the right of the neck, 35 x 40, running out of the frame at the bottom. No person
    // top within reach on its right, so the solid fill does not take it; it is round for its thickness.
    const neck = (x: number, y: number) => inRect(x, y, 20, 10, 50, 100);
    const shoulder = (x: number, y: number) => inRect(x, y, 50, 60, 85, 100);
    const p = plane((x, y) => (neck(x, y) || shoulder(x, y) ? 0.99 : 0.01));
    const m = matte((x, y) => (neck(x, y) ? 1 : 0));
    const report: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(m, p, undefined, PERSON_RULE, report);
    expect(at(m, 70, 85)).toBe(1); // the shoulder
    expect(at(m, 70, 50)).toBe(0); // above it: background
    expect(report.doubtful.map((r) => r.reason)).not.toContain("removed_person");
    // The rule as it was refused it as a round overshoot and reported it.
    const before = matte((x, y) => (neck(x, y) ? 1 : 0));
    const beforeReport: PersonReport = { people: 0, doubtful: [] };
    await keepPerson(before, p, undefined, { ...PERSON_RULE, sureFrameBottom: false }, beforeReport);
    expect(at(before, 70, 85)).toBe(0);
    expect(beforeReport.doubtful.map((r) => r.reason)).toContain("removed_person");
  });

  it("does not fill the rim of a round blob it refused: the strip of mask over a head beside a sculpture", async () => {
    // The sculpture photo (P3M p_71bcce3a): the 256 px mask runs from the man's head over to the
    // sculpture's top as a thick blob (refused), and on in a thin strip along the top of his head.
    // Farther than the refused blob's reach the strip is thin and touches the head, so the fill
    // took it: a rim of mask spill, not a limb.
    const head = (x: number, y: number) => inRect(x, y, 55, 20, 75, 100);
    const mask = (x: number, y: number) => head(x, y) || inRect(x, y, 25, 15, 55, 45) || inRect(x, y, 45, 17, 76, 20);
    const p = plane((x, y) => (mask(x, y) ? 0.99 : 0.01));
    const m = matte((x, y) => (head(x, y) ? 1 : 0));
    await keepPerson(m, p);
    expect(at(m, 38, 30)).toBe(0); // the blob
    expect(at(m, 68, 18)).toBe(0); // the strip over the head, beyond the blob's reach
    expect(at(m, 65, 60)).toBe(1);
    const before = matte((x, y) => (head(x, y) ? 1 : 0));
    await keepPerson(before, p, undefined, { ...PERSON_RULE, sureRim: false });
    expect(at(before, 68, 18)).toBe(1); // the rule as it was took the strip
  });

  it("makes a second person's dark body solid below that person's own head", async () => {
    // Two people: ISNet found both heads and the right one's body; the left one's body is dark.
    const left = (x: number, y: number) => inRect(x, y, 5, 30, 35, 100);
    const m = matte((x, y) => (inRect(x, y, 12, 30, 28, 45) || inRect(x, y, 12, 45, 14, 100) || inRect(x, y, 26, 45, 28, 100) || personBox(x, y) ? 1 : 0));
    const p = plane((x, y) => (left(x, y) || personBox(x, y) ? 0.99 : 0.01));
    await keepPerson(m, p, undefined, { ...PERSON_RULE, sureFill: 0 });
    expect(at(m, 20, 75)).toBe(1);
    const before = matte((x, y) => (inRect(x, y, 12, 30, 28, 45) || inRect(x, y, 12, 45, 14, 100) || inRect(x, y, 26, 45, 28, 100) || personBox(x, y) ? 1 : 0));
    await keepPerson(before, p, undefined, { ...PERSON_RULE, sureFill: 0, keptTops: false });
    expect(at(before, 20, 75)).toBe(0);
  });

  it("leaves the ground between two people under their joined hands to ISNet when it has the background's colours (gapColour)", async () => {
    // v88: two people (x 10..40 and 50..80) holding hands (a 6 px bridge at y 50..56); below the hands
    // ISNet sees the boardwalk (0), the person model is sure of a person over it too. Above the hands
    // the same grey boardwalk lies outside the mask; the people are red and beige.
    const left = (x: number, y: number) => inRect(x, y, 10, 20, 40, 100);
    const right = (x: number, y: number) => inRect(x, y, 50, 20, 80, 100);
    const hands = (x: number, y: number) => inRect(x, y, 40, 50, 50, 56);
    const gap = (x: number, y: number) => inRect(x, y, 40, 56, 50, 100);
    const isnet = (x: number, y: number) => (left(x, y) || right(x, y) || hands(x, y) ? 1 : 0);
    const p = plane((x, y) => (left(x, y) || right(x, y) || hands(x, y) || gap(x, y) ? 0.99 : 0.01));
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) rgb.set(left(x, y) ? [200, 30, 40] : right(x, y) ? [210, 180, 140] : hands(x, y) ? [230, 190, 170] : [120, 110, 100], (y * W + x) * 3);
    }
    const m = matte(isnet);
    await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, undefined, rgb);
    expect(at(m, 45, 80)).toBe(0); // the ground between them
    expect(at(m, 25, 80)).toBe(1);
    expect(at(m, 45, 53)).toBe(1); // the hands
    // The rule as it was filled the gap solid (groundColour, people18, would clear this gap too: it runs to the frame's bottom under the people).
    const before = matte(isnet);
    await keepPerson(before, p, undefined, { ...PERSON_RULE, gapColour: 0, groundColour: 0 }, undefined, undefined, undefined, rgb);
    expect(at(before, 45, 80)).toBe(1);
  });

  it("still fills a dark jacket ISNet missed below the head, in the background's colours (gapColour)", async () => {
    // The sculpture photo's man: ISNet found the head (y 20..40) and the jacket's lit edges; the jacket is
    // as grey as the wall. Above the jacket is a whole head, not a thin bridge: not a gap between people.
    const head = (x: number, y: number) => inRect(x, y, 50, 20, 80, 40);
    const edges = (x: number, y: number) => inRect(x, y, 50, 40, 53, 100) || inRect(x, y, 77, 40, 80, 100);
    const p = plane((x, y) => (personBox(x, y) ? 0.99 : 0.01));
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.set(head(x, y) ? [220, 180, 160] : [90, 90, 90], (y * W + x) * 3);
    const m = matte((x, y) => (head(x, y) || edges(x, y) ? 1 : 0));
    await keepPerson(m, p, undefined, PERSON_RULE, undefined, undefined, undefined, rgb);
    expect(at(m, 65, 75)).toBe(1);
  });

  it("leaves the matte alone when there is no person", async () => {
    const m = matte((x, y) => (inRect(x, y, 20, 20, 60, 60) ? 1 : 0));
    const before = new Float32Array(m.data);
    expect(await keepPerson(m, plane(() => 0.02))).toBe(false);
    expect(m.data).toEqual(before);
  });
});

describe("looksLikePortrait", () => {
  it("is a portrait when the subject is mostly a confidently found person", () => {
    const m = matte((x, y) => (personBox(x, y) ? 1 : 0));
    expect(looksLikePortrait(m, plane((x, y) => (personBox(x, y) ? 0.95 : 0)))).toBe(true);
    expect(looksLikePortrait(m, plane(() => 0.1))).toBe(false); // no person
    expect(looksLikePortrait(m, plane((x, y) => (personBox(x, y) ? 0.8 : 0)))).toBe(false); // unsure
  });
});

describe("distanceToMask", () => {
  it("measures to the mask, not to the frame's edge", () => {
    const mask = new Uint8Array(W * H);
    mask[50 * W + 50] = 1;
    const d = distanceToMask(mask, W, H);
    expect(d[50 * W + 50]).toBe(0);
    expect(d[50 * W + 60]).toBeCloseTo(10, 0);
    expect(d[0]).toBeGreaterThan(60); // the corner is far from the mask, however near the edge
  });
});
