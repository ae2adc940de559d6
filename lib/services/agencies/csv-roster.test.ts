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
      { line: 1, field: "student_id", message: expect.stringContaining("The header row has no student_id column") },
    ]);
    expect(parseRosterCsv("student_id,name\nS1,A,extra\n").errors).toEqual([{ line: 2, message: expect.stringContaining("3 fields") }]);
  });
});

describe("school roster exports", () => {
  it("reads the usual school columns: First Name, Last Name, Student ID, Grade, Teacher", () => {
    const csv = "First Name,Last Name,Student ID,Grade,Teacher\nAnn,Archer,S1,4,Ms. Jameson\nMary Ann,Van der Berg,S2,K,Mr. Stephens\n";
    const { rows, errors } = parseRosterCsv(csv);
    expect(errors).toEqual([]);
    expect(rows.map((r) => r.values)).toEqual([
      { student_id: "S1", name: "Ann Archer", grade: "4", teacher: "Ms. Jameson" },
      // A last name of several words keeps its comma form, so the lab's {last}_{first} splits it exactly.
      { student_id: "S2", name: "Van der Berg, Mary Ann", grade: "K", teacher: "Mr. Stephens" },
    ]);
  });

  it("accepts common spellings whatever the case, spaces, underscores or hyphens", () => {
    for (const header of ["student_id,name", "Student ID,Name", "STUDENT-ID,Full Name", "student number,student name", "Student #,NAME", "StudentID , name "]) {
      const { rows, errors } = parseRosterCsv(`${header}\nS1,Ann Archer\n`);
      expect(errors, header).toEqual([]);
      expect(rows[0]!.values, header).toEqual({ student_id: "S1", name: "Ann Archer" });
    }
    const { rows } = parseRosterCsv("Pupil ID,Surname,Forename,Grade Level,Homeroom Teacher,Home Room,Class\nP7,Brook,Ben,5,Mrs. Lee,202,5B\n");
    expect(rows[0]!.values).toEqual({ student_id: "P7", name: "Ben Brook", grade: "5", teacher: "Mrs. Lee", homeroom: "202", class_name: "5B" });
  });

  it("prefers a filled name column to the parts, and takes a row with only a first or last name", () => {
    const { rows } = parseRosterCsv("student_id,name,first name,last name\nS1,Ann Archer,A,X\nS2,,Ben,Brook\nS3,,,Crane\n");
    expect(rows.map((r) => r.values.name)).toEqual(["Ann Archer", "Ben Brook", "Crane"]);
  });

  it("lists every accepted column when a header is unknown, and names the two columns that mean the same", () => {
    const unknown = parseRosterCsv("Student ID,Name,Bus Route\nS1,A,7\n").errors;
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.field).toBe("Bus Route");
    for (const column of ["student_id", "name", "First Name", "class_name", "reference_photo_url", "grade", "homeroom", "teacher", "period", "track", "department", "title"]) {
      expect(unknown[0]!.message).toContain(column);
    }
    expect(parseRosterCsv("Student ID,Student Number,Name\nS1,2,A\n").errors).toEqual([
      { line: 1, field: "student_id", message: 'Columns "Student ID" and "Student Number" are both student_id: keep one.' },
    ]);
    expect(parseRosterCsv("Student ID,Grade\nS1,4\n").errors).toEqual([{ line: 1, field: "name", message: expect.stringContaining("First Name and Last Name") }]);
  });

  it("allows an unnamed column only while it is empty (a trailing separator)", () => {
    expect(parseRosterCsv("student_id,name,\nS1,Ann,\n").errors).toEqual([]);
    expect(parseRosterCsv("student_id,name,\nS1,Ann,x\n").errors).toEqual([{ line: 1, field: "column 3", message: expect.stringContaining("no header") }]);
  });
});
