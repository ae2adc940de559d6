import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { qrGenerations } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { checkSourceUrl } from "@/lib/domain/sources/fetch-source";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { refundDebit } from "@/lib/domain/wallet/refund-debit";
import { checkPrintable } from "./check-printable";
import { loadLogo, LogoError } from "./load-logo";
import { assertPlanAllows } from "./premium";
import { renderQrCards, type CardGallery, type CardSubject } from "./render-cards";
import type { GenerateQrInput } from "./schemas";

/** Contract 2.1: Bulk QR costs 1 token per subject. */
export const TOKENS_PER_SUBJECT = 1;
export const QR_OPERATION = "bulk_qr";

/**
 * Each card's gallery code and link by student id, for `gallery_job_id`: the
 * galleries product reserves them (lib/services/galleries/card-codes.ts, above
 * this one, so the route hands it in). Given the debit's transaction; throws
 * the 4xx of a job or subject that is not the caller's.
 */
export type GalleryCodeSource = (tx: Db, accountId: string, jobId: number, studentIds: string[]) => Promise<Map<string, CardGallery>>;

/** The subjects as cards print them: with their gallery code when the request asked for the job's codes. */
export async function cardSubjects(tx: Db, accountId: string, input: GenerateQrInput, galleryCodes?: GalleryCodeSource): Promise<CardSubject[]> {
  if (input.gallery_job_id === undefined) return input.subjects;
  if (!galleryCodes) throw new Error("gallery_job_id needs a gallery code source.");
  const codes = await galleryCodes(tx, accountId, input.gallery_job_id, input.subjects.map((s) => s.student_id));
  return input.subjects.map((s) => ({ ...s, gallery: codes.get(s.student_id)! }));
}

/**
 * Everything that can refuse a request without charging it, in order: the body
 * (zod, before this), characters the fonts cannot print, the plan, the logo URL.
 */
export async function validateQrRequest(plan: string, input: GenerateQrInput): Promise<void> {
  checkPrintable(input);
  assertPlanAllows(plan, input);
  if (input.logo_url) await checkSourceUrl(input.logo_url, "logo_url");
}

/**
 * POST /v1/services/studio/qr/generate. Validates, then debits 1 token per
 * subject in the same transaction that records the run (the debit's reference
 * is the record's id), then fetches the logo, renders and stores the PDF.
 * With `gallery_job_id`, the job's gallery codes are reserved in that same
 * transaction, before the debit (a foreign job or unknown student charges nothing).
 * Anything failing after the debit refunds it and marks the run failed:
 * a logo that turns out not to be an image is a 422, anything else a 500,
 * both saying the tokens were refunded.
 */
export async function generateQrCards(db: Db, account: { id: string; plan: string }, input: GenerateQrInput, galleryCodes?: GalleryCodeSource) {
  await validateQrRequest(account.plan, input);
  const cost = input.subjects.length * TOKENS_PER_SUBJECT;
  const id = newId("qrg");
  const { debit, subjects } = await db.transaction(async (tx) => {
    const subjects = await cardSubjects(tx, account.id, input, galleryCodes);
    const entry = await debitTokens(tx, { accountId: account.id, amount: cost, operation: QR_OPERATION, reference: id });
    await tx.insert(qrGenerations).values({
      id,
      accountId: account.id,
      jobRef: input.job_id,
      layout: input.layout,
      pageSize: input.page_size,
      totalSubjects: input.subjects.length,
      walletTransactionId: entry.id,
    });
    return { debit: entry, subjects };
  });

  try {
    const logo = input.logo_url ? await loadLogo(input.logo_url) : null;
    const { pdf, pages } = await renderQrCards({
      jobId: input.job_id,
      schoolName: input.school_name,
      layout: input.layout,
      pageSize: input.page_size,
      logo,
      subjects,
    });
    const key = `qr/${account.id}/${id}.pdf`;
    await storage().put(key, Buffer.from(pdf), "application/pdf");
    await db
      .update(qrGenerations)
      .set({ status: "completed", storageKey: key, pages, bytes: pdf.byteLength, completedAt: new Date() })
      .where(and(eq(qrGenerations.id, id), eq(qrGenerations.accountId, account.id)));
    const pdfUrl = await storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS, { downloadName: `qr-cards-${safeFilePart(input.job_id)}.pdf` });
    return {
      id,
      job_id: input.job_id,
      total_subjects: input.subjects.length,
      pdf_url: pdfUrl,
      expires_at: new Date(Date.now() + OUTPUT_URL_TTL_SECONDS * 1000).toISOString(),
      layout: input.layout,
      page_size: input.page_size,
      pages,
      tokens_deducted: cost,
      wallet_transaction_id: debit.id,
    };
  } catch (err) {
    const reason = err instanceof LogoError ? err.message : "Generating the PDF failed.";
    if (!(err instanceof LogoError)) console.error(`[bulk_qr ${id}] generation failed`, err);
    const refund = await refundDebit(db, { accountId: account.id, debitId: debit.id, reason });
    await db
      .update(qrGenerations)
      .set({ status: "failed", errorMessage: reason, completedAt: new Date() })
      .where(and(eq(qrGenerations.id, id), eq(qrGenerations.accountId, account.id)));
    const details = { id, tokens_refunded: cost, refund_transaction_id: refund.transactionId ?? null, ...(err instanceof LogoError ? { field: "logo_url" } : {}) };
    if (err instanceof LogoError) throw new ApiError(422, "LOGO_UNUSABLE", `${reason} The ${cost} tokens were refunded.`, details);
    throw new ApiError(500, "GENERATION_FAILED", `Generating the PDF failed on our side; the ${cost} tokens were refunded. Retry, and quote the request id if it persists.`, details);
  }
}

/** For the download file name: letters, digits, dot, dash and underscore. */
function safeFilePart(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "cards";
}
