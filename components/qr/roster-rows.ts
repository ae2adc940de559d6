import { MAX_QR_SUBJECTS, type Layout } from "@/lib/services/qr/values";
import { parseRosterCsv, type CsvError } from "@/lib/services/agencies/csv-roster";

/** One editable roster row of the QR editor (a local id keeps React keys stable across edits). */
export type RosterRowDraft = { key: number; student_id: string; name: string; class_name: string };

export const MAX_SUBJECTS = MAX_QR_SUBJECTS;
export type QrLayout = Layout;

let nextKey = 1;
export const newRow = (values: Partial<Omit<RosterRowDraft, "key">> = {}): RosterRowDraft => ({ key: nextKey++, student_id: "", name: "", class_name: "", ...values });

/** A pasted CSV (same header rules as the roster import) as rows, with errors by line. */
export function rowsFromCsv(text: string): { rows: RosterRowDraft[]; errors: CsvError[] } {
  const { rows, errors } = parseRosterCsv(text);
  return {
    rows: rows.map((r) => newRow({ student_id: r.values.student_id?.trim() ?? "", name: r.values.name?.trim() ?? "", class_name: r.values.class_name?.trim() ?? "" })),
    errors,
  };
}

export type RowErrors = Record<number, Partial<Record<"student_id" | "name" | "class_name", string>>>;

/**
 * The checks the API makes, run as the person types so mistakes show on their
 * row before anything is sent: required fields, lengths, duplicate ids.
 */
export function validateRows(rows: RosterRowDraft[]): { rowErrors: RowErrors; count: number; problems: number; tooMany: boolean } {
  const rowErrors: RowErrors = {};
  const seen = new Map<string, number>();
  let problems = 0;
  const flag = (i: number, field: "student_id" | "name" | "class_name", message: string) => {
    rowErrors[i] = { ...rowErrors[i], [field]: message };
    problems++;
  };
  rows.forEach((row, i) => {
    const id = row.student_id.trim();
    if (!id) flag(i, "student_id", "Required.");
    else if (id.length > 64) flag(i, "student_id", "At most 64 characters.");
    else if (seen.has(id)) flag(i, "student_id", `Duplicate of row ${seen.get(id)! + 1}.`);
    else seen.set(id, i);
    if (!row.name.trim()) flag(i, "name", "Required.");
    else if (row.name.trim().length > 200) flag(i, "name", "At most 200 characters.");
    if (row.class_name.trim().length > 100) flag(i, "class_name", "At most 100 characters.");
  });
  return { rowErrors, count: rows.length, problems, tooMany: rows.length > MAX_SUBJECTS };
}

/** The API's `subjects.N.field` errors, onto their rows. */
export function rowErrorsFromApi(fields: Array<{ field: string; message: string }>): RowErrors {
  const out: RowErrors = {};
  for (const f of fields) {
    const m = /^subjects\.(\d+)\.(student_id|name|class_name)$/.exec(f.field);
    if (m) out[Number(m[1])] = { ...out[Number(m[1])], [m[2]!]: f.message };
  }
  return out;
}

export function toSubjects(rows: RosterRowDraft[]) {
  return rows.map((r) => ({ student_id: r.student_id.trim(), name: r.name.trim(), ...(r.class_name.trim() ? { class_name: r.class_name.trim() } : {}) }));
}
