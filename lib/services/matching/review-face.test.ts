import { describe, expect, it } from "vitest";
import { nextCandidate } from "./review-face";

// "Not this person" walks down the engine's candidates (best, runner-up) once.
describe("nextCandidate", () => {
  it("offers the runner-up after the engine's best, then nobody", () => {
    expect(nextCandidate({ subjectId: "a", runnerUpSubjectId: "b", finalSubjectId: "a" })).toBe("b");
    expect(nextCandidate({ subjectId: "a", runnerUpSubjectId: "b", finalSubjectId: "b" })).toBeNull();
  });

  it("starts from the engine's best when nothing is proposed (a face under the threshold)", () => {
    expect(nextCandidate({ subjectId: "a", runnerUpSubjectId: "b", finalSubjectId: null })).toBe("b");
    expect(nextCandidate({ subjectId: "a", runnerUpSubjectId: null, finalSubjectId: null })).toBeNull();
    expect(nextCandidate({ subjectId: null, runnerUpSubjectId: null, finalSubjectId: null })).toBeNull();
  });

  it("after a child assigned by hand, offers the engine's best again", () => {
    expect(nextCandidate({ subjectId: "a", runnerUpSubjectId: "b", finalSubjectId: "c" })).toBe("a");
  });
});
