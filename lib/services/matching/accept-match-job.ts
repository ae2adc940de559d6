import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, agencyJobs, jobFiles, matchFiles, matchJobs } from "@/lib/foundation/db/schema";
import { ApiError, badRequest } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { requireAgency } from "@/lib/services/agencies/agencies";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { countReferences } from "./build-references";
import { billablePhotos } from "./billable-photos";
import { requireMatchingEnabled } from "./consent";
import { requireCurrentReferences } from "./outdated-references";
import { DEFAULT_MATCH_THRESHOLD, MATCH_OPERATION, MATCH_PRICE_PER_FILE, MAX_MATCH_JOB_FILES } from "./limits";
import type { MatchJobInput } from "./schemas";

type PhotoRef = { id: number; filename: string };

/**
 * The photos to match: every photo of the job, or the listed ones, all of this
 * agency's jobs; less the QR cards a sort found among them (not charged).
 */
async function photosToMatch(db: Db, accountId: string, input: MatchJobInput): Promise<{ photos: PhotoRef[]; cards: number }> {
  const { photos, cards } = await billablePhotos(db, accountId, await listedPhotos(db, accountId, input));
  if (photos.length === 0) {
    throw badRequest("NO_PHOTOS_TO_MATCH", `Every photo given is a QR card found by the QR sort (${cards}): cards are not matched. Upload the children's photos.`, {
      field: input.job_id !== undefined ? "job_id" : "file_ids",
    });
  }
  return { photos, cards };
}

async function listedPhotos(db: Db, accountId: string, input: MatchJobInput): Promise<PhotoRef[]> {
  if (input.job_id !== undefined) {
    await requireJob(db, accountId, input.agency_id, input.job_id);
    const files = await db
      .select({ id: jobFiles.id, filename: jobFiles.filename })
      .from(jobFiles)
      .where(and(eq(jobFiles.jobId, input.job_id), eq(jobFiles.accountId, accountId)))
      .orderBy(asc(jobFiles.id))
      .limit(MAX_MATCH_JOB_FILES + 1);
    if (files.length === 0) throw badRequest("JOB_HAS_NO_PHOTOS", `Job ${input.job_id} has no photos yet: upload them before matching.`, { field: "job_id" });
    if (files.length > MAX_MATCH_JOB_FILES) throw badRequest("TOO_MANY_FILES", `A match job takes at most ${MAX_MATCH_JOB_FILES} photos; split the job.`, { field: "job_id" });
    return files;
  }
  const ids = [...new Set(input.file_ids!)];
  const files = await db
    .select({ id: jobFiles.id, filename: jobFiles.filename })
    .from(jobFiles)
    .innerJoin(agencyJobs, eq(agencyJobs.id, jobFiles.jobId))
    .where(and(inArray(jobFiles.id, ids), eq(jobFiles.accountId, accountId), eq(agencyJobs.agencyId, input.agency_id)))
    .orderBy(asc(jobFiles.id));
  if (files.length !== ids.length) {
    const found = new Set(files.map((f) => f.id));
    const missing = ids.filter((id) => !found.has(id));
    throw new ApiError(404, "NOT_FOUND", `Files not found in agency ${input.agency_id}: ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? ` and ${missing.length - 20} more` : ""}.`, { field: "file_ids", missing: missing.slice(0, 100) });
  }
  return files;
}

/**
 * POST /v1/services/studio/matching/match-job (contract 4.6): every check that
 * can refuse the request comes before the debit; then the debit (6 tokens a
 * photo), the job, its files and the job's start commit together.
 */
export async function acceptMatchJob(db: Db, accountId: string, input: MatchJobInput) {
  const agency = await requireAgency(db, accountId, input.agency_id);
  requireMatchingEnabled(agency);
  if (input.job_id === undefined && input.file_ids === undefined) {
    throw new ApiError(422, "MISSING_FILES", "Send job_id (match every photo of a job) or file_ids (match these photos).", { field: "job_id" });
  }
  const { photos, cards } = await photosToMatch(db, accountId, input);
  if ((await countReferences(db, agency.id)) === 0) {
    throw badRequest(
      "REFERENCES_NOT_BUILT",
      `Agency ${agency.id} has no reference embeddings yet: add reference photos to its subjects and call POST /v1/services/studio/matching/references first.`,
      { field: "agency_id" },
    );
  }
  await requireCurrentReferences(db, accountId, agency.id);
  const threshold = input.threshold ?? DEFAULT_MATCH_THRESHOLD;
  const taskId = newId("task");
  const amount = MATCH_PRICE_PER_FILE * photos.length;
  return db.transaction(async (tx) => {
    const debit = await debitTokens(tx, { accountId, amount, operation: MATCH_OPERATION, reference: taskId });
    const [job] = await tx
      .insert(matchJobs)
      .values({
        taskId,
        accountId,
        agencyId: agency.id,
        jobId: input.job_id ?? null,
        threshold,
        status: "queued",
        totalFiles: photos.length,
        pricePerFile: MATCH_PRICE_PER_FILE,
        tokensDebited: amount,
        walletTransactionId: debit.id,
      })
      .returning();
    for (let at = 0; at < photos.length; at += 500) {
      await tx.insert(matchFiles).values(photos.slice(at, at + 500).map((p, i) => ({ matchJobId: job!.id, accountId, fileId: p.id, filename: p.filename, position: at + i })));
    }
    await tx.update(agencies).set({ matchingUsedAt: new Date() }).where(eq(agencies.id, agency.id));
    await startJob(tx, { name: "matching/match-job.requested", data: { matchJobId: job!.id, accountId } });
    return {
      match_job_id: job!.id,
      task_id: taskId,
      total_files: photos.length,
      /** QR cards a sort found among the photos: left out, not charged. */
      cards_skipped: cards,
      tokens_deducted: amount,
      wallet_transaction_id: debit.id,
      threshold,
      status: job!.status,
    };
  });
}

