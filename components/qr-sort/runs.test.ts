import { describe, expect, it } from "vitest";
import { runColours, toRuns } from "./runs";
import type { SortFrame } from "./types";

const frame = (sequence: number, over: Partial<SortFrame>): SortFrame => ({
  file_id: sequence + 1,
  filename: `IMG_${sequence}.jpg`,
  sequence,
  captured_at: null,
  subject_id: null,
  student_id: null,
  name: null,
  role: "subject",
  card_payload: null,
  review: [],
  manual: false,
  thumbnail_url: null,
  ...over,
});

describe("contact sheet runs", () => {
  it("cuts the frames wherever the filing changes: before the first card, each child, an unknown card, a frame moved to nobody", () => {
    const runs = toRuns([
      frame(0, { role: "before_first_card" }),
      frame(1, { role: "card", subject_id: "sub_a", student_id: "S1", name: "Ann" }),
      frame(2, { subject_id: "sub_a", student_id: "S1", name: "Ann" }),
      frame(3, { role: "card", student_id: "S9" }),
      frame(4, { role: "unknown_card", student_id: "S9" }),
      frame(5, { role: "unknown_card", manual: true }),
      frame(6, { role: "card", subject_id: "sub_a", student_id: "S1", name: "Ann" }),
      frame(7, { role: "before_first_card", manual: true }),
    ]);
    expect(runs.map((r) => [r.label, r.subjectId, r.frames.map((f) => f.sequence)])).toEqual([
      ["Before the first card", null, [0]],
      ["Ann", "sub_a", [1, 2]],
      ["Card S9 (not on the roster)", null, [3, 4]],
      ["Filed under nobody", null, [5]],
      ["Ann", "sub_a", [6]],
      ["Filed under nobody", null, [7]],
    ]);
    const colours = runColours(runs);
    // One colour per filing (Ann's two runs share hers), distinct between children, grey for nobody.
    expect(colours.size).toBe(4);
    expect(colours.get("s:sub_a")).not.toBe(colours.get("u:S9"));
    expect(colours.get("before")).toBe(colours.get("none"));
  });
});
