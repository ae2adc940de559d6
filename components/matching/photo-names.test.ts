import { describe, expect, it } from "vitest";
import { photoNamesByChild } from "./photo-names";

describe("photo names for a child's ZIP", () => {
  it("names each child's photos {student_id}_{last}_{first}_{nn}.jpg, numbered per child", () => {
    const named = photoNamesByChild([
      { studentId: "S-1", name: "Ada Lovelace" },
      { studentId: "S-2", name: "José María García" },
      { studentId: "S-1", name: "Ada Lovelace" },
      { studentId: "7/B 12", name: "Prince" },
    ]);
    expect(named.map((n) => n.fileName)).toEqual(["S-1_Lovelace_Ada_01.jpg", "S-2_Garcia_Jose-Maria_01.jpg", "S-1_Lovelace_Ada_02.jpg", "7-B-12_Prince_01.jpg"]);
  });
});
