// The roster CSV's columns and the spellings a school export uses for them.
// Beside the parser, without it: the import page lists them too.

export const ROSTER_COLUMNS = ["student_id", "name", "class_name", "reference_photo_url", "grade", "homeroom", "teacher", "period", "track", "department", "title", "parent_email"] as const;
export type RosterColumn = (typeof ROSTER_COLUMNS)[number];
// A bare "Email" is not read as parent_email: in a school's export it is as often the pupil's own address.

/** Columns a school's export often has in place of `name`: joined into it on import. */
type NamePart = "first_name" | "last_name";
export type HeaderColumn = RosterColumn | NamePart;

/**
 * The header spellings accepted for each column, beside its own name. A header
 * is compared without case, spaces, underscores, hyphens or dots ("Student ID",
 * "student-id", "STUDENTID" are one), and "#" reads as "number" ("Student #").
 * A bare "id" or "student" is not among them: it could as well be a database id or the name.
 */
export const COLUMN_SYNONYMS: Record<HeaderColumn, readonly string[]> = {
  student_id: ["Student ID", "Student Number", "Student No", "Student Num", "Student #", "Pupil ID", "Pupil Number", "Learner ID", "SIS ID", "ID Number", "Student Code"],
  name: ["Full Name", "Student Name", "Display Name"],
  first_name: ["First Name", "First", "Given Name", "Forename", "First Names"],
  last_name: ["Last Name", "Last", "Surname", "Family Name"],
  class_name: ["Class", "Class Name", "Section", "Group"],
  reference_photo_url: ["Photo URL", "Reference Photo", "Image URL", "Picture URL"],
  grade: ["Grade Level", "Grade Lvl", "Year", "Year Group", "Gr"],
  homeroom: ["Home Room", "Homeroom Number", "Room"],
  teacher: ["Teacher Name", "Homeroom Teacher", "Class Teacher"],
  period: [],
  track: [],
  department: ["Dept"],
  title: ["Job Title", "Position"],
  parent_email: ["Parent Email", "Parent E-mail", "Guardian Email", "Guardian E-mail", "Parent/Guardian Email", "Parent Email Address", "Guardian Email Address", "Family Email", "Mother Email", "Father Email"],
};

const headerKey = (h: string) => h.normalize("NFKC").toLowerCase().replace(/#/g, "number").replace(/[^\p{L}\p{N}]+/gu, "");
const HEADER_LOOKUP = new Map<string, HeaderColumn>(
  (Object.entries(COLUMN_SYNONYMS) as Array<[HeaderColumn, readonly string[]]>).flatMap(([column, spellings]) => [column, ...spellings].map((s) => [headerKey(s), column] as const)),
);

/** The column a header names, or undefined when it is none of the accepted spellings. */
export function rosterColumnOf(header: string): HeaderColumn | undefined {
  return HEADER_LOOKUP.get(headerKey(header));
}

/** Every accepted column, for errors and the import page: `student_id` (or Student ID, Student Number, …), … */
export const ACCEPTED_COLUMNS_TEXT = [
  `student_id (or ${COLUMN_SYNONYMS.student_id.slice(0, 3).join(", ")}, …)`,
  "name (or First Name and Last Name)",
  ...ROSTER_COLUMNS.filter((c) => c !== "student_id" && c !== "name").map((c) => (COLUMN_SYNONYMS[c].length ? `${c} (or ${COLUMN_SYNONYMS[c].slice(0, 2).join(", ")})` : c)),
].join(", ");

/**
 * A roster name from a school export's first and last name. "First Last" reads
 * naturally and is split back at its last word (lab file names, PSPA); a
 * last name of several words is kept as "Last, First", which splits exactly.
 */
export function joinName(first: string | undefined, last: string | undefined): string {
  const f = (first ?? "").trim();
  const l = (last ?? "").trim();
  if (!f || !l) return f || l;
  return /\s/.test(l) ? `${l}, ${f}` : `${f} ${l}`;
}
