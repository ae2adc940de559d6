import Papa from "papaparse";

export const ROSTER_COLUMNS = ["student_id", "name", "class_name", "reference_photo_url", "grade", "homeroom", "teacher", "period", "track", "department", "title"] as const;
export type RosterColumn = (typeof ROSTER_COLUMNS)[number];
const REQUIRED: RosterColumn[] = ["student_id", "name"];

export type CsvRow = { line: number; values: Partial<Record<RosterColumn, string>> };
export type CsvError = { line: number; field?: string; message: string };

/**
 * Reads a roster CSV: a header row naming the columns (any order, any case;
 * `student_id` and `name` required, `class_name`, `reference_photo_url` and
 * the PSPA fields `grade`, `homeroom`, `teacher`, `period`, `track`,
 * `department`, `title` optional), then one subject per row. Every row keeps the line number it starts
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
  if (!header) return { rows: [], errors: [{ line: 1, message: `The CSV is empty: start with a header row such as ${ROSTER_COLUMNS.join(",")}.` }] };
  const columns = header.data.map((h) => h.trim().toLowerCase());
  const index = new Map<RosterColumn, number>();
  columns.forEach((name, i) => {
    if (!(ROSTER_COLUMNS as readonly string[]).includes(name)) {
      errors.push({ line: header.line, field: name || `column ${i + 1}`, message: `Unknown column ${JSON.stringify(header.data[i])}: the columns are ${ROSTER_COLUMNS.join(", ")}.` });
    } else if (index.has(name as RosterColumn)) {
      errors.push({ line: header.line, field: name, message: `Column ${name} appears twice.` });
    } else index.set(name as RosterColumn, i);
  });
  for (const required of REQUIRED) {
    if (!index.has(required)) errors.push({ line: header.line, field: required, message: `The header row has no ${required} column.` });
  }
  if (errors.some((e) => e.line === header.line)) return { rows: [], errors };

  const rows: CsvRow[] = records.map((record) => {
    if (record.data.length > columns.length && record.data.slice(columns.length).some((v) => v.trim())) {
      errors.push({ line: record.line, message: `This row has ${record.data.length} fields but the header names ${columns.length}.` });
    }
    const values: CsvRow["values"] = {};
    for (const [column, i] of index) {
      const value = record.data[i];
      if (value !== undefined) values[column] = value;
    }
    return { line: record.line, values };
  });
  return { rows, errors };
}
