import { describe, expect, it } from "vitest";
import { qrPayload } from "@/lib/services/qr/payload";
import { assignRuns, type FrameInput } from "./assign-runs";
import { captureOrder } from "./capture-order";

const roster = [
  { subjectId: "sub_a", studentId: "S1", name: "Ann" },
  { subjectId: "sub_b", studentId: "S2", name: "Ben" },
  { subjectId: "sub_c", studentId: "S3", name: "Cat" },
];
const at = (s: number) => new Date(Date.UTC(2026, 4, 14, 9, 0, s));
let nextId = 1;
const frame = (filename: string, seconds: number | null, codes: string[] = [], unreadable = false): FrameInput => ({ fileId: nextId++, filename, capturedAt: seconds === null ? null : at(seconds), codes, unreadable });
const card = (studentId: string) => [qrPayload("PICTURE-DAY", studentId)];

describe("QR sort rules", () => {
  it("files every frame after a card under its subject until the next card; frames before the first card stay unfiled", () => {
    const frames = [frame("IMG_1.jpg", 1), frame("IMG_2.jpg", 2, card("S1")), frame("IMG_3.jpg", 3), frame("IMG_4.jpg", 4), frame("IMG_5.jpg", 5, ["S2"]), frame("IMG_6.jpg", 6)];
    const { outcomes, warnings } = assignRuns(frames, roster);
    expect(outcomes.map((o) => [o.role, o.subjectId, o.studentId])).toEqual([
      ["before_first_card", null, null],
      ["card", "sub_a", "S1"],
      ["subject", "sub_a", "S1"],
      ["subject", "sub_a", "S1"],
      ["card", "sub_b", "S2"], // a plain QR holding a roster student id is a card too
      ["subject", "sub_b", "S2"],
    ]);
    expect(outcomes[0]!.review).toEqual(["before_first_card"]);
    expect(outcomes[1]!.cardPayload).toBe("psqr1:PICTURE-DAY:S1");
    expect(warnings).toEqual([]);
  });

  it("starts an unknown_card run for a card not on the roster, reports a card without portraits, and keeps one run for a card shot twice", () => {
    const frames = [frame("a.jpg", 1, card("S9")), frame("b.jpg", 2), frame("c.jpg", 3, card("S3")), frame("d.jpg", 4, card("S1")), frame("e.jpg", 5, card("S1")), frame("f.jpg", 6), frame("g.jpg", 7, ["https://example.com/t-shirt"])];
    const { outcomes, warnings } = assignRuns(frames, roster);
    expect(outcomes.map((o) => o.role)).toEqual(["card", "unknown_card", "card", "card", "card", "subject", "subject"]);
    expect(outcomes[0]).toMatchObject({ subjectId: null, studentId: "S9", review: ["unknown_card"] });
    expect(outcomes[1]).toMatchObject({ subjectId: null, studentId: "S9", review: ["unknown_card"] });
    expect(outcomes[6]).toMatchObject({ subjectId: "sub_a", cardPayload: null }); // a QR that is no card is just a photo
    expect(warnings.map((w) => [w.code, w.student_id])).toEqual([
      ["unknown_card", "S9"],
      ["card_without_portraits", "S3"],
      ["card_repeated", "S1"],
    ]);
    expect(warnings[2]!.file_ids).toEqual([frames[3]!.fileId, frames[4]!.fileId]);
  });

  it("orders by capture time across cameras, then file name; an untimed frame follows its file-name predecessor", () => {
    const frames = [frame("B_0002.jpg", 20), frame("A_0001.jpg", 10), frame("B_0001.jpg", 5), frame("A_0002.jpg", null), frame("A_0010.jpg", 30), frame("A_0009.jpg", 30)];
    expect(captureOrder(frames).map((i) => frames[i]!.filename)).toEqual(["B_0001.jpg", "A_0001.jpg", "A_0002.jpg", "B_0002.jpg", "A_0009.jpg", "A_0010.jpg"]);
    const { outcomes } = assignRuns(frames, roster);
    expect(outcomes[3]!.review).toContain("no_capture_time");
  });

  it("falls back to file-name order (numbers as numbers) when no frame has a time, and says so", () => {
    const frames = [frame("IMG_10.jpg", null), frame("IMG_9.jpg", null, card("S2")), frame("IMG_11.jpg", null)];
    const { outcomes, warnings } = assignRuns(frames, roster);
    expect(outcomes.map((o) => o.sequence)).toEqual([1, 0, 2]);
    expect(outcomes.map((o) => o.role)).toEqual(["subject", "card", "subject"]);
    expect(outcomes.every((o) => !o.review.includes("no_capture_time"))).toBe(true);
    expect(warnings.map((w) => w.code)).toEqual(["no_capture_times"]);
  });

  it("a frame whose face clearly matches another subject stays in its run and goes to review", () => {
    const frames = [frame("1.jpg", 1, card("S1")), { ...frame("2.jpg", 2), faceSubjectId: "sub_a" }, { ...frame("3.jpg", 3), faceSubjectId: "sub_b" }, frame("4.jpg", 4)];
    const { outcomes } = assignRuns(frames, roster);
    expect(outcomes.map((o) => [o.subjectId, o.review])).toEqual([
      ["sub_a", []],
      ["sub_a", []],
      ["sub_a", ["face_disagrees"]],
      ["sub_a", []],
    ]);
  });

  it("an unreadable frame stays in its run and goes to review", () => {
    const { outcomes } = assignRuns([frame("1.jpg", 1, card("S1")), frame("2.jpg", 2, [], true)], roster);
    expect(outcomes[1]).toMatchObject({ role: "subject", subjectId: "sub_a", review: ["unreadable"] });
  });
});
