import { describe, expect, it } from "vitest";
import { fileSafe, labFileName, splitName } from "./export-names";

describe("lab file names", () => {
  it("names a subject's photos {student_id}_{last}_{first}_{nn}.jpg", () => {
    expect(labFileName("S1", "Ann Archer", 1)).toBe("S1_Archer_Ann_01.jpg");
    expect(labFileName("S-2", "Ann Marie Archer", 12)).toBe("S-2_Archer_AnnMarie_12.jpg");
    expect(labFileName("S:3", "O'Brien, Siobhán", 2)).toBe("S3_OBrien_Siobhan_02.jpg");
    expect(labFileName("S4", "Zoë Ørsted-Nguyễn", 3)).toBe("S4_Orsted-Nguyen_Zoe_03.jpg");
    expect(labFileName("S5", "山田 太郎", 1)).toBe("S5_01.jpg");
    expect(labFileName("../..", "Cher", 1)).toBe("unknown_Cher_01.jpg");
  });

  it("splits names", () => {
    expect(splitName("Cher")).toEqual({ last: "Cher", first: "" });
    expect(splitName("Archer, Ann")).toEqual({ last: "Archer", first: "Ann" });
    expect(fileSafe("a/b\\c d")).toBe("abcd");
  });
});
