import Papa from "papaparse";
import { ACCEPTED_COLUMNS_TEXT, ROSTER_COLUMNS, joinName, rosterColumnOf, type HeaderColumn, type RosterColumn } from "./roster-columns";

export type CsvRow = { line: number; values: Partial<Record<RosterColumn, string>> };
export type CsvError = { line: number; field?: string; message: string };

/**
 * Reads a roster CSV: a header row naming the columns (any order, in the
 * spellings of COLUMN_SYNONYMS; `student_id` and `name`, or first and last
 * names, required; `class_name`, `reference_photo_url` and the PSPA fields
 * `grade`, `homeroom`, `teacher`, `period`, `track`, `department`, `title`
 * optional), then one subject per row. Every row keeps the line number it starts
 * on in the file (a quoted field may span lines), so errors point at the line a
 * person sees in their editor. Comma, semicolon or tab separated.
 */
export function parseRosterCsv(input: string): { rows: CsvRow[]; errors: CsvError[] } {
  const text = input.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const records: Array<{ line: number; data: string[] }> = [];
  const errors: CsvError[] = [];
  let consumed = 0;
  let line = 1;
  const advance = (to: number) => {
    for (let i = consumed; i < to; i++) if (text.charCodeAt(i) === 10) line++;
    consumed = to;
  };
  Papa.parse<string[]>(text, {
    skipEmptyLines: "greedy",
    delimitersToGuess: [",", ";", "\t"],
    step: (result) => {
      let start = consumed;
      while (text[start] === "\n") start++;
      advance(start);
      const rowLine = line;
      for (const e of result.errors) {
        if (e.code !== "UndetectableDelimiter") errors.push({ line: rowLine, message: `CSV syntax: ${e.message}.` });
      }
      records.push({ line: rowLine, data: result.data });
      advance(result.meta.cursor);
    },
  });

  const header = records.shift();
  if (!header) return { rows: [], errors: [{ line: 1, message: `The CSV is empty: start with a header row such as student_id,name,grade,teacher. The columns are ${ACCEPTED_COLUMNS_TEXT}.` }] };
  const columns = header.data.map((h) => h.trim());
  const index = new Map<HeaderColumn, number>();
  columns.forEach((title, i) => {
    const column = rosterColumnOf(title);
    if (!title) {
      // An unnamed column is allowed only when it is empty on every row (a trailing separator).
      if (records.some((r) => r.data[i]?.trim())) errors.push({ line: header.line, field: `column ${i + 1}`, message: `Column ${i + 1} has values but no header: name it, or remove it. The columns are ${ACCEPTED_COLUMNS_TEXT}.` });
    } else if (!column) {
      errors.push({ line: header.line, field: title, message: `Unknown column ${JSON.stringify(title)}: the columns are ${ACCEPTED_COLUMNS_TEXT}.` });
    } else if (index.has(column)) {
      errors.push({ line: header.line, field: column, message: `Columns ${JSON.stringify(columns[index.get(column)!])} and ${JSON.stringify(title)} are both ${column}: keep one.` });
    } else index.set(column, i);
  });
  if (!index.has("student_id")) errors.push({ line: header.line, field: "student_id", message: `The header row has no student_id column (Student ID, Student Number, … are read as it).` });
  if (!index.has("name") && !index.has("first_name") && !index.has("last_name")) {
    errors.push({ line: header.line, field: "name", message: "The header row has no name column, nor First Name and Last Name columns." });
  }
  if (errors.some((e) => e.line === header.line)) return { rows: [], errors };

  const rows: CsvRow[] = records.map((record) => {
    if (record.data.length > columns.length && record.data.slice(columns.length).some((v) => v.trim())) {
      errors.push({ line: record.line, message: `This row has ${record.data.length} fields but the header names ${columns.length}.` });
    }
    const cell = (column: HeaderColumn) => {
      const i = index.get(column);
      return i === undefined ? undefined : record.data[i];
    };
    const values: CsvRow["values"] = {};
    for (const column of ROSTER_COLUMNS) {
      const value = cell(column);
      if (value !== undefined) values[column] = value;
    }
    // A name column wins where it is filled; otherwise the first and last names make it.
    if (!values.name?.trim() && (index.has("first_name") || index.has("last_name"))) values.name = joinName(cell("first_name"), cell("last_name"));
    return { line: record.line, values };
  });
  return { rows, errors };
}
