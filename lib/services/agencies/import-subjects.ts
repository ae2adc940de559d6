import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { subjectPortraits, subjects } from "@/lib/foundation/db/schema";
import { MAX_REFERENCE_PORTRAITS } from "./limits";
import { ApiError } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { requireAgency } from "./agencies";
import { parseRosterCsv, type CsvError } from "./csv-roster";
import { resolveReferencePhoto } from "./reference-photo";
import { pspaValues } from "./subjects";
import { createSubjectBody, type SubjectInput } from "./schemas";

/** Rows per import: a whole school, with room to spare. */
export const MAX_IMPORT_ROWS = 10_000;
/** Errors listed in the answer; the total is always given. */
const MAX_LISTED_ERRORS = 200;
const CHUNK = 500;
const URL_CHECKS_AT_ONCE = 16;

/**
 * Imports a roster CSV all or nothing: every row is checked first (fields,
 * duplicates within the file and against the roster, reference photo URLs),
 * and any problem refuses the whole file with a 400 listing each error by
 * line. Only a clean file is written, in one transaction.
 */
export async function importSubjectsCsv(db: Db, accountId: string, agencyId: number, csv: string, onConflict: "error" | "update") {
  await requireAgency(db, accountId, agencyId);
  const { rows, errors } = parseRosterCsv(csv);
  if (rows.length === 0 && errors.length === 0) errors.push({ line: 2, message: "The CSV has a header but no rows." });
  if (rows.length > MAX_IMPORT_ROWS) errors.push({ line: rows[MAX_IMPORT_ROWS]!.line, message: `At most ${MAX_IMPORT_ROWS} rows per import.` });

  const valid: Array<{ line: number; input: SubjectInput }> = [];
  const firstLine = new Map<string, number>();
  for (const row of rows.slice(0, MAX_IMPORT_ROWS)) {
    const parsed = createSubjectBody.safeParse(row.values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.push({ line: row.line, field: issue.path.map(String).join(".") || undefined, message: issue.message });
      continue;
    }
    const seen = firstLine.get(parsed.data.student_id);
    if (seen !== undefined) {
      errors.push({ line: row.line, field: "student_id", message: `student_id ${JSON.stringify(parsed.data.student_id)} is already on line ${seen}.` });
      continue;
    }
    firstLine.set(parsed.data.student_id, row.line);
    valid.push({ line: row.line, input: parsed.data });
  }

  const photos = new Map<number, Awaited<ReturnType<typeof resolveReferencePhoto>>>();
  // A few at a time: each foreign URL costs a DNS lookup.
  for (let i = 0; i < valid.length; i += URL_CHECKS_AT_ONCE) {
    await Promise.all(
      valid.slice(i, i + URL_CHECKS_AT_ONCE).map(async ({ line, input }) => {
        try {
          photos.set(line, await resolveReferencePhoto(accountId, input.reference_photo_url, "reference_photo_url"));
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          errors.push({ line, field: "reference_photo_url", message: err.message });
        }
      }),
    );
  }

  const existing = new Set<string>();
  const ids = valid.map((v) => v.input.student_id);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const found = await db
      .select({ studentId: subjects.studentId })
      .from(subjects)
      .where(and(eq(subjects.agencyId, agencyId), inArray(subjects.studentId, ids.slice(i, i + CHUNK))));
    for (const f of found) existing.add(f.studentId);
  }
  // As on PATCH: a subject with five uploaded portraits has no room for a URL photo as well.
  const full = await subjectsWithFullPortraits(db, agencyId, valid.filter((v) => existing.has(v.input.student_id) && v.input.reference_photo_url).map((v) => v.input.student_id));
  for (const { line, input } of valid) {
    if (full.has(input.student_id) && input.reference_photo_url) {
      errors.push({ line, field: "reference_photo_url", message: `student_id ${JSON.stringify(input.student_id)} already has ${MAX_REFERENCE_PORTRAITS} uploaded reference portraits: delete one before giving a reference_photo_url.` });
    }
  }
  if (onConflict === "error") {
    for (const { line, input } of valid) {
      if (existing.has(input.student_id)) {
        errors.push({ line, field: "student_id", message: `student_id ${JSON.stringify(input.student_id)} is already on the roster (import with on_conflict=update to update it).` });
      }
    }
  }
  if (errors.length > 0) throw csvInvalid(errors);

  const values = (v: (typeof valid)[number]) => ({
    studentId: v.input.student_id,
    name: v.input.name,
    className: v.input.class_name ?? null,
    ...pspaValues(v.input),
    // A file without the column keeps the addresses already on the roster (an empty cell clears one).
    ...(v.input.parent_email !== undefined ? { parentEmail: v.input.parent_email } : {}),
    ...photos.get(v.line)!,
  });
  const fresh = valid.filter((v) => !existing.has(v.input.student_id));
  const updates = valid.filter((v) => existing.has(v.input.student_id));
  await db.transaction(async (tx) => {
    for (let i = 0; i < fresh.length; i += CHUNK) {
      await tx.insert(subjects).values(fresh.slice(i, i + CHUNK).map((v) => ({ id: newId("sub"), accountId, agencyId, ...values(v) })));
    }
    for (const v of updates) {
      await tx
        .update(subjects)
        .set({ ...values(v), updatedAt: sql`now()` })
        .where(and(eq(subjects.agencyId, agencyId), eq(subjects.studentId, v.input.student_id)));
    }
  });
  return { created: fresh.length, updated: updates.length, total: valid.length };
}

/** Student ids of the agency whose subjects hold the most uploaded portraits a subject may have. */
async function subjectsWithFullPortraits(db: Db, agencyId: number, studentIds: string[]): Promise<Set<string>> {
  const full = new Set<string>();
  for (let i = 0; i < studentIds.length; i += CHUNK) {
    const rows = await db
      .select({ studentId: subjects.studentId })
      .from(subjects)
      .innerJoin(subjectPortraits, eq(subjectPortraits.subjectId, subjects.id))
      .where(and(eq(subjects.agencyId, agencyId), inArray(subjects.studentId, studentIds.slice(i, i + CHUNK))))
      .groupBy(subjects.studentId)
      .having(sql`count(*) >= ${MAX_REFERENCE_PORTRAITS}`);
    for (const r of rows) full.add(r.studentId);
  }
  return full;
}

function csvInvalid(errors: CsvError[]): ApiError {
  const sorted = [...errors].sort((a, b) => a.line - b.line);
  const listed = sorted.slice(0, MAX_LISTED_ERRORS);
  const first = listed[0]!;
  return new ApiError(
    400,
    "VALIDATION_ERROR",
    `The CSV has ${errors.length} error${errors.length === 1 ? "" : "s"}; nothing was imported. First: line ${first.line}${first.field ? ` (${first.field})` : ""}: ${first.message}`,
    {
      in: "csv",
      error_count: errors.length,
      errors: listed,
      fields: listed.map((e) => ({ field: `line ${e.line}${e.field ? `: ${e.field}` : ""}`, message: e.message })),
    },
  );
}
