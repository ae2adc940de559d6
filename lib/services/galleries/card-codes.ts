import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencyJobs, subjects } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import type { CardGallery } from "@/lib/services/qr/render-cards";
import { openCode } from "./access-codes";
import { galleryLink } from "./flyer-pdf";
import { reserveAccessCodes } from "./reserve-codes";

/**
 * The gallery codes Bulk QR prints with `gallery_job_id` (cards go out before
 * the shoot, so the codes must exist before any gallery is published): the
 * cards' student ids are matched to the roster of the job's agency, and each
 * subject's code for the job is reserved (reserve-codes.ts), the one publishing
 * will open later. Another studio's job is a 404; a card whose student id is
 * not on the roster is a 400 naming them, so no card prints without its code.
 * Runs in the transaction of the debit, before it: a refusal charges nothing.
 */
export async function cardGalleryCodes(tx: Db, accountId: string, jobId: number, studentIds: string[]): Promise<Map<string, CardGallery>> {
  const [job] = await tx.select({ agencyId: agencyJobs.agencyId }).from(agencyJobs).where(and(eq(agencyJobs.id, jobId), eq(agencyJobs.accountId, accountId)));
  if (!job) throw notFound("Job");
  const roster = await tx
    .select({ id: subjects.id, studentId: subjects.studentId })
    .from(subjects)
    .where(and(eq(subjects.accountId, accountId), eq(subjects.agencyId, job.agencyId), inArray(subjects.studentId, studentIds)));
  const byStudent = new Map(roster.map((s) => [s.studentId, s.id]));
  const missing = studentIds.filter((id) => !byStudent.has(id));
  if (missing.length > 0) {
    throw new ApiError(400, "SUBJECT_NOT_ON_ROSTER", `Not on the roster of job ${jobId}'s agency, so no gallery code can be printed for them: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? " …" : ""}. Add them to the roster first.`, {
      field: "subjects",
      student_ids: missing.slice(0, 100),
      count: missing.length,
    });
  }
  const sealed = await reserveAccessCodes(tx, accountId, jobId, [...byStudent.values()]);
  const origin = appOrigin();
  return new Map(
    studentIds.map((studentId) => {
      const code = openCode(sealed.get(byStudent.get(studentId)!)!);
      return [studentId, { code, url: galleryLink(origin, code) }];
    }),
  );
}
