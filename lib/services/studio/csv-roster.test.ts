import { describe, expect, it } from "vitest";
import { parseRosterCsv } from "./csv-roster";

describe("parseRosterCsv", () => {
  it("keeps the line each row starts on, across quoted line breaks, blank lines, CRLF and a BOM", () => {
    const csv = '\uFEFFName,Student_ID,class_name\r\n"Ada ""The"" Lovelace",S1,5A\r\n\r\n"Multi\nLine",S2,\nBob,S3,5B\n';
    const { rows, errors } = parseRosterCsv(csv);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { line: 2, values: { name: 'Ada "The" Lovelace', student_id: "S1", class_name: "5A" } },
      { line: 4, values: { name: "Multi\nLine", student_id: "S2", class_name: "" } },
      { line: 6, values: { name: "Bob", student_id: "S3", class_name: "5B" } },
    ]);
  });

  it("reads semicolon and tab separated files", () => {
    expect(parseRosterCsv("student_id;name\nS1;Zoë\n").rows[0]!.values).toEqual({ student_id: "S1", name: "Zoë" });
    expect(parseRosterCsv("student_id\tname\nS1\t山田 太郎\n").rows[0]!.values).toEqual({ student_id: "S1", name: "山田 太郎" });
  });

  it("reports header problems on line 1 and extra fields on their line", () => {
    expect(parseRosterCsv("").errors[0]).toMatchObject({ line: 1 });
    expect(parseRosterCsv("id,name\n1,A").errors).toEqual([
      { line: 1, field: "id", message: expect.stringContaining("Unknown column") },
      { line: 1, field: "student_id", message: "The header row has no student_id column." },
    ]);
    expect(parseRosterCsv("student_id,name\nS1,A,extra\n").errors).toEqual([{ line: 2, message: expect.stringContaining("3 fields") }]);
  });
});
