import { recordAudit } from "@/lib/domain/audit/record-audit";
import { and, asc, count, desc, eq, ilike, isNull, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceReferences, subjectPortraits, subjects } from "@/lib/foundation/db/schema";
import { isUniqueViolation } from "@/lib/foundation/db/errors";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { requireAgency } from "./agencies";
import { deleteStoredFiles } from "./stored-files";
import { referencePhotoUrlFor, resolveReferencePhoto } from "./reference-photo";
import { PSPA_FIELDS, type SubjectInput } from "./schemas";
import { MAX_REFERENCE_PORTRAITS as MAX_REFERENCE_PHOTOS } from "./limits";

type SubjectRow = typeof subjects.$inferSelect;

export async function toPublicSubject(row: SubjectRow) {
  return {
    id: row.id,
    agency_id: row.agencyId,
    student_id: row.studentId,
    name: row.name,
    class_name: row.className,
    grade: row.grade,
    homeroom: row.homeroom,
    teacher: row.teacher,
    period: row.period,
    track: row.track,
    department: row.department,
    title: row.title,
    parent_email: row.parentEmail,
    reference_photo_url: await referencePhotoUrlFor(row),
    exclude_from_matching: row.excludeFromMatching,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The PSPA roster fields of an input, null where not given (create, import). */
export function pspaValues(input: Partial<SubjectInput>) {
  return Object.fromEntries(PSPA_FIELDS.map((f) => [f, input[f] ?? null])) as Record<(typeof PSPA_FIELDS)[number], string | null>;
}

export const duplicateStudentId = (studentId: string) =>
  new ApiError(409, "DUPLICATE_STUDENT_ID", `This agency already has a subject with student_id ${JSON.stringify(studentId)}.`, { field: "student_id" });

const SORT_COLUMNS = { name: subjects.name, student_id: subjects.studentId, class_name: subjects.className, created_at: subjects.createdAt };

/** LIKE treats % and _ as wildcards; a search for "a_b" means those characters. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listSubjects(
  db: Db,
  accountId: string,
  agencyId: number,
  opts: { limit: number; offset: number; sort: string; q?: string },
) {
  await requireAgency(db, accountId, agencyId);
  const filters: SQL[] = [eq(subjects.agencyId, agencyId), eq(subjects.accountId, accountId)];
  if (opts.q) {
    const p = likePattern(opts.q);
    filters.push(or(ilike(subjects.name, p), ilike(subjects.studentId, p), ilike(subjects.className, p))!);
  }
  const where = and(...filters);
  const descending = opts.sort.startsWith("-");
  const column = SORT_COLUMNS[opts.sort.replace(/^-/, "") as keyof typeof SORT_COLUMNS];
  const order = descending ? desc(column) : asc(column);
  const [rows, [total]] = await Promise.all([
    // The id breaks ties so pages never repeat or skip a subject.
    db.select().from(subjects).where(where).orderBy(order, asc(subjects.id)).limit(opts.limit).offset(opts.offset),
    db.select({ n: count() }).from(subjects).where(where),
  ]);
  return { items: await Promise.all(rows.map(toPublicSubject)), total: total?.n ?? 0 };
}

export async function createSubject(db: Db, accountId: string, agencyId: number, input: SubjectInput) {
  await requireAgency(db, accountId, agencyId);
  const photo = await resolveReferencePhoto(accountId, input.reference_photo_url, "reference_photo_url");
  try {
    const [row] = await db
      .insert(subjects)
      .values({ id: newId("sub"), accountId, agencyId, studentId: input.student_id, name: input.name, className: input.class_name ?? null, ...pspaValues(input), parentEmail: input.parent_email ?? null, excludeFromMatching: input.exclude_from_matching ?? false, ...photo })
      .returning();
    return toPublicSubject(row!);
  } catch (err) {
    if (isUniqueViolation(err, "subjects_agency_student_key")) throw duplicateStudentId(input.student_id);
    throw err;
  }
}

export async function requireSubject(db: Db, accountId: string, agencyId: number, subjectId: string) {
  await requireAgency(db, accountId, agencyId);
  const [row] = await db.select().from(subjects).where(and(eq(subjects.id, subjectId), eq(subjects.agencyId, agencyId), eq(subjects.accountId, accountId)));
  if (!row) throw notFound("Subject");
  return row;
}

export async function getSubject(db: Db, accountId: string, agencyId: number, subjectId: string) {
  return toPublicSubject(await requireSubject(db, accountId, agencyId, subjectId));
}

export async function updateSubject(db: Db, accountId: string, agencyId: number, subjectId: string, input: Partial<SubjectInput>) {
  const current = await requireSubject(db, accountId, agencyId, subjectId);
  if (input.reference_photo_url && !current.referencePhotoUrl && !current.referencePhotoKey) await requireRoomForUrlPhoto(db, subjectId);
  const changes: Partial<typeof subjects.$inferInsert> = { updatedAt: new Date() };
  if (input.student_id !== undefined) changes.studentId = input.student_id;
  if (input.name !== undefined) changes.name = input.name;
  if (input.class_name !== undefined) changes.className = input.class_name;
  for (const f of PSPA_FIELDS) if (input[f] !== undefined) changes[f] = input[f];
  if (input.parent_email !== undefined) changes.parentEmail = input.parent_email;
  if (input.reference_photo_url !== undefined) Object.assign(changes, await resolveReferencePhoto(accountId, input.reference_photo_url, "reference_photo_url"));
  if (input.exclude_from_matching !== undefined) changes.excludeFromMatching = input.exclude_from_matching;
  try {
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx.update(subjects).set(changes).where(and(eq(subjects.id, subjectId), eq(subjects.accountId, accountId))).returning();
      // Opting out deletes every embedding of the subject now, and a new reference photo the
      // one made from the old photo, not at the next build: an embedding of a photo no longer
      // on the roster must not match anyone. Uploaded portraits and confirmed matches stay.
      const source = updated!.referencePhotoKey ?? updated!.referencePhotoUrl ?? "";
      await tx
        .delete(faceReferences)
        .where(
          and(
            eq(faceReferences.subjectId, subjectId),
            updated!.excludeFromMatching ? undefined : and(eq(faceReferences.source, "portrait"), isNull(faceReferences.portraitId), ne(faceReferences.photoSource, source)),
          ),
        );
      return updated!;
    });
    return toPublicSubject(row);
  } catch (err) {
    if (isUniqueViolation(err, "subjects_agency_student_key")) throw duplicateStudentId(input.student_id ?? "");
    throw err;
  }
}

/** The reference_photo_url counts as one of a subject's five reference photos (lib/services/matching/portraits.ts). */
async function requireRoomForUrlPhoto(db: Db, subjectId: string) {
  const [row] = await db.select({ n: count() }).from(subjectPortraits).where(eq(subjectPortraits.subjectId, subjectId));
  if ((row?.n ?? 0) >= MAX_REFERENCE_PHOTOS) {
    throw new ApiError(409, "TOO_MANY_REFERENCE_PHOTOS", `This subject already has ${MAX_REFERENCE_PHOTOS} uploaded reference portraits, the most a subject has with its reference_photo_url; delete one first.`, {
      field: "reference_photo_url",
      max: MAX_REFERENCE_PHOTOS,
      current: row!.n,
    });
  }
}

export async function deleteSubject(db: Db, accountId: string, agencyId: number, subjectId: string) {
  const subject = await requireSubject(db, accountId, agencyId, subjectId);
  // Its embeddings and portrait rows go by cascade; the portraits' stored objects after the commit.
  const portraits = await db.select({ storageKey: subjectPortraits.storageKey, thumbnailKey: subjectPortraits.thumbnailKey }).from(subjectPortraits).where(eq(subjectPortraits.subjectId, subjectId));
  await db.transaction(async (tx) => {
    await tx.delete(subjects).where(and(eq(subjects.id, subjectId), eq(subjects.accountId, accountId)));
    await recordAudit(tx, { accountId, action: "subject.deleted", target: subjectId, data: { agency_id: agencyId, student_id: subject.studentId } });
  });
  await deleteStoredFiles(portraits);
}
