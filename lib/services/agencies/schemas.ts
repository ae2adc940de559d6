import { z } from "zod";
import { decimalInt } from "@/lib/foundation/http/decimal-int";
import { paginatedResponse } from "@/lib/foundation/http/pagination";
import { agencyJobStatusEnum, agencyTypeEnum, icpTypeEnum } from "@/lib/foundation/db/schema";
import { PRINTABLE_SCRIPTS, describeCharacter, unprintableCharacters } from "@/lib/engines/pdf/card-fonts/fonts";

/**
 * Integer path ids: decimal digits only (so "0x10", "1e1" or " 3" never alias record 16, 10 or 3),
 * bounded to PostgreSQL's integer so an absurd id is a 400, never a database error.
 */
export const intId = decimalInt(1, 2_147_483_647, {
  digits: "Must be an integer id (decimal digits).",
  min: "Must be an integer id from 1.",
  max: "Must be an integer id up to 2147483647.",
});

export const agencyParams = z.object({ agencyId: intId });
export const jobParams = z.object({ agencyId: intId, jobId: intId });
export const fileParams = z.object({ agencyId: intId, jobId: intId, fileId: intId });
export const subjectParams = z.object({ agencyId: intId, subjectId: z.string().min(1).max(64) });

const CONTROL = /[\p{Cc}]/u;
/** Printable single-line text: trimmed, NFC (so "ễ" is one code point, as fonts and search expect), no control characters. */
export const lineText = (max: number) =>
  z
    .string()
    .transform((s) => s.normalize("NFC").trim())
    .pipe(z.string().min(1, "Required: must not be empty.").max(max, `At most ${max} characters.`).refine((s) => !CONTROL.test(s), "Must not contain control characters such as line breaks or tabs."));

/** Optional text where "" means "none". */
export const optionalLineText = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((s) => (s == null ? s : s.normalize("NFC").trim() || null))
    .pipe(z.union([z.string().max(max, `At most ${max} characters.`).refine((s) => !CONTROL.test(s), "Must not contain control characters."), z.null()]).optional());

export const studentIdText = lineText(64);
/**
 * A subject's name: also something the QR cards can print. A character no card
 * font has is refused here, at entry (create, update, CSV import), naming it,
 * rather than when a Bulk QR run reaches that card.
 */
export const nameText = lineText(200).superRefine((name, ctx) => {
  const missing = unprintableCharacters(name);
  if (missing.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `"${name}" cannot be printed on QR cards: no card font has ${missing.slice(0, 5).map(describeCharacter).join(", ")}${missing.length > 5 ? " …" : ""}. Cards print ${PRINTABLE_SCRIPTS}.`,
    });
  }
});
export const classNameText = optionalLineText(100);
/** The roster fields a PSPA index (yearbook import) carries beyond name and class; optional, "" or null means none. */
export const PSPA_FIELDS = ["grade", "homeroom", "teacher", "period", "track", "department", "title"] as const;
export type PspaField = (typeof PSPA_FIELDS)[number];
const pspaShape = Object.fromEntries(PSPA_FIELDS.map((f) => [f, optionalLineText(100)])) as Record<PspaField, ReturnType<typeof optionalLineText>>;
/**
 * A parent's address for the gallery code (optional): trimmed and lower-cased,
 * "" or null means none. Checked by zod's e-mail rule, which refuses what a mail
 * server would (spaces, two @, no domain).
 */
export const parentEmailText = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toLowerCase() || null : v),
  z.union([z.email({ error: "Must be an e-mail address such as parent@example.com." }).max(254, "At most 254 characters."), z.null()]).optional(),
);
/** http(s) only; whether the host may be fetched is checkSourceUrl's call (a 400 URL_NOT_ALLOWED). */
export const urlText = z.url({ protocol: /^https?$/, error: "Must be an absolute http(s) URL." }).max(2048);
/** An optional URL where "" (an empty CSV cell, a cleared form field) means none. */
const optionalUrl = z.preprocess((v) => (v === "" ? null : v), z.union([urlText, z.null()]).optional());

export const createAgencyBody = z.strictObject({
  name: lineText(200),
  agency_type: z.enum(agencyTypeEnum.enumValues),
});

export const createJobBody = z.strictObject({
  name: lineText(200),
  icp_type: z.enum(icpTypeEnum.enumValues),
  status: z.enum(agencyJobStatusEnum.enumValues).default("draft"),
});

/** Per-subject opt-out of face matching (no embedding is kept; never a match). */
const excludeFromMatching = z.boolean({ error: "exclude_from_matching must be true or false." });

export const createSubjectBody = z.strictObject({
  student_id: studentIdText,
  name: nameText,
  class_name: classNameText,
  ...pspaShape,
  parent_email: parentEmailText,
  reference_photo_url: optionalUrl,
  exclude_from_matching: excludeFromMatching.default(false),
});
export type SubjectInput = z.output<typeof createSubjectBody>;

export const updateSubjectBody = z
  .strictObject({
    student_id: studentIdText.optional(),
    name: nameText.optional(),
    class_name: classNameText,
    ...pspaShape,
    parent_email: parentEmailText,
    reference_photo_url: optionalUrl,
    exclude_from_matching: excludeFromMatching.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Send at least one field to change." });

export const SUBJECT_SORTS = ["name", "student_id", "class_name", "created_at"] as const;
export const listSubjectsQuery = z.strictObject({
  limit: decimalInt(1, 100).default(20),
  page: decimalInt(1).default(1),
  /** A field, or "-field" for descending. */
  sort: z.enum([...SUBJECT_SORTS, ...SUBJECT_SORTS.map((s) => `-${s}` as const)]).default("name"),
  /** Case-insensitive match on name, student_id or class_name. */
  q: z.string().trim().max(200).optional(),
});

export const importQuery = z.strictObject({
  /** `error` (default): a student_id already on the roster is a row error; `update`: that subject is updated. */
  on_conflict: z.enum(["error", "update"]).default("error"),
});

export const addFileByUrlBody = z.strictObject({ url: urlText, filename: lineText(255).optional() });

/** An agency as the API returns it (toPublicAgency). */
/** POST .../subjects/import: how many subjects the CSV created and updated (all or nothing). */
export const importSubjectsResponse = z.object({ created: z.number().int(), updated: z.number().int(), total: z.number().int() });
export const agencyResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  agency_type: z.enum(agencyTypeEnum.enumValues),
  face_matching_enabled: z.boolean(),
  /** Who confirmed the agency's consent when matching was turned on, and when; null while off (or switched on before consent was recorded). */
  face_matching_consent: z.object({ confirmed_by: z.string(), confirmed_at: z.string() }).nullable(),
  /** A face a reviewer confirms becomes a reference of its subject (default on; off deletes those learned). */
  learn_from_confirmed_matches: z.boolean(),
});
export const agencyListResponse = z.object({ agencies: z.array(agencyResponse) });
/** GET /v1/services/studio/agencies/{agencyId}: with its counts. */
export const agencyDetailResponse = agencyResponse.extend({ subject_count: z.number().int(), job_count: z.number().int() });

/**
 * PATCH an agency: rename, retype, switch face matching or learning from confirmed matches; at least one field.
 * Turning matching on needs `consent_confirmed: true`: the person confirms the
 * agency holds consent (the families', for a school) and is recorded as having done so.
 */
export const updateAgencyBody = z
  .strictObject({
    name: lineText(200).optional(),
    agency_type: z.enum(agencyTypeEnum.enumValues).optional(),
    face_matching_enabled: z.boolean({ error: "face_matching_enabled must be true or false." }).optional(),
    consent_confirmed: z.literal(true, { error: "consent_confirmed must be true (send it only when turning face matching on)." }).optional(),
    learn_from_confirmed_matches: z.boolean({ error: "learn_from_confirmed_matches must be true or false." }).optional(),
  })
  .refine((b) => b.name !== undefined || b.agency_type !== undefined || b.face_matching_enabled !== undefined || b.learn_from_confirmed_matches !== undefined, {
    message: "Send at least one field to change: name, agency_type, face_matching_enabled or learn_from_confirmed_matches.",
  })
  .refine((b) => b.face_matching_enabled !== true || b.consent_confirmed === true, {
    path: ["consent_confirmed"],
    message: "Turning face matching on needs consent_confirmed: true, confirming that the agency has consent to match the faces of the people photographed (for children, their parents' or guardians').",
  });

/** PATCH a job: rename, or change status or preset; at least one field. */
export const updateJobBody = z
  .strictObject({ name: lineText(200).optional(), status: z.enum(agencyJobStatusEnum.enumValues).optional(), icp_type: z.enum(icpTypeEnum.enumValues).optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Send at least one field to change: name, status or icp_type." });

/** DELETE ?cascade=true: delete what the agency or job holds along with it. */
export const deleteQuery = z.strictObject({
  cascade: z.enum(["true", "false"], { error: 'cascade must be "true" or "false".' }).default("false").transform((v) => v === "true"),
});

export const deletedAgencyResponse = z.object({ deleted: z.object({ subjects: z.number().int(), jobs: z.number().int(), photos: z.number().int() }) });
export const deletedJobResponse = z.object({ deleted: z.object({ photos: z.number().int() }) });
export const jobDetailResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(agencyJobStatusEnum.enumValues),
  icp_type: z.enum(icpTypeEnum.enumValues),
  agency_id: z.number().int(),
  file_count: z.number().int(),
  created_at: z.iso.datetime({ offset: true }),
});

// Responses of the jobs, subjects and files routes (the API description and the contract test).
export const jobResponse = z.object({ id: z.number().int(), name: z.string(), status: z.enum(agencyJobStatusEnum.enumValues), icp_type: z.enum(icpTypeEnum.enumValues) });
export const jobListResponse = z.object({ jobs: z.array(jobResponse) });
export const subjectResponse = z.object({
  id: z.string(),
  agency_id: z.number().int(),
  student_id: z.string(),
  name: z.string(),
  class_name: z.string().nullable(),
  grade: z.string().nullable(),
  homeroom: z.string().nullable(),
  teacher: z.string().nullable(),
  period: z.string().nullable(),
  track: z.string().nullable(),
  department: z.string().nullable(),
  title: z.string().nullable(),
  parent_email: z.string().nullable(),
  reference_photo_url: z.string().nullable(),
  exclude_from_matching: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const subjectListResponse = paginatedResponse(subjectResponse);
/** A photo stored with its thumbnail (lib/services/agencies/job-files.ts storedPhotoFields). */
export const storedPhotoShape = {
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  url: z.string(),
  thumbnail_url: z.string(),
};
export const fileResponse = z.object({
  id: z.number().int(),
  job_id: z.number().int(),
  ...storedPhotoShape,
  source_url: z.string().nullable(),
  created_at: z.string(),
});
export const fileListResponse = paginatedResponse(fileResponse);
export const fileUploadResponse = z.object({
  files: z.array(fileResponse.extend({ sha256: z.string().nullable(), duplicate_of: z.object({ id: z.number().int(), filename: z.string() }).nullable() })),
  warnings: z.array(z.object({ code: z.string(), file_id: z.number().int(), duplicate_of: z.number().int(), message: z.string() })),
});
