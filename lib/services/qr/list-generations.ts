import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/foundation/db/types";
import { qrGenerations } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { pageQuery } from "@/lib/foundation/http/pagination";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { TOKENS_PER_SUBJECT } from "./generate-qr-cards";

type Row = typeof qrGenerations.$inferSelect;

const STATUSES = ["processing", "completed", "failed"] as const;

/** GET /v1/services/studio/qr/generations: the page window and an optional status filter. */
export const listQrGenerationsQuery = pageQuery.extend({
  status: z.enum(STATUSES, { error: `status must be one of ${STATUSES.join(", ")}.` }).optional(),
});
export type ListQrGenerationsQuery = z.output<typeof listQrGenerationsQuery>;

export const qrGenerationParams = z.object({ generationId: z.string().min(1).max(64) });

/** One Bulk QR run as the history shows it (toPublicQrGeneration). */
export const qrGenerationResponse = z.object({
  id: z.string(),
  job_id: z.string().meta({ description: "The caller's reference, as sent to POST /v1/services/studio/qr/generate." }),
  status: z.enum(STATUSES),
  layout: z.string(),
  page_size: z.string(),
  total_subjects: z.number().int(),
  pages: z.number().int().nullable(),
  bytes: z.number().int().nullable(),
  pdf_url: z.string().nullable().meta({ description: "The PDF, signed afresh (valid 24 hours), served inline for viewing." }),
  download_url: z.string().nullable().meta({ description: "The same PDF served as an attachment (Content-Disposition)." }),
  tokens_deducted: z.number().int(),
  wallet_transaction_id: z.string(),
  error_message: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  completed_at: z.iso.datetime({ offset: true }).nullable(),
});

/** For the download file name: letters, digits, dot, dash and underscore. */
const safeFilePart = (s: string) =>
  s
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "cards";

export async function toPublicQrGeneration(row: Row) {
  const key = row.status === "completed" ? row.storageKey : null;
  const [pdfUrl, downloadUrl] = key
    ? await Promise.all([
        storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS),
        storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS, { downloadName: `qr-cards-${safeFilePart(row.jobRef)}.pdf` }),
      ])
    : [null, null];
  return {
    id: row.id,
    job_id: row.jobRef,
    status: row.status,
    layout: row.layout,
    page_size: row.pageSize,
    total_subjects: row.totalSubjects,
    pages: row.pages,
    bytes: row.bytes,
    pdf_url: pdfUrl,
    download_url: downloadUrl,
    // A failed run was refunded in full: it cost nothing in the end.
    tokens_deducted: row.status === "failed" ? 0 : row.totalSubjects * TOKENS_PER_SUBJECT,
    wallet_transaction_id: row.walletTransactionId,
    error_message: row.errorMessage,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

/** The account's Bulk QR runs, newest first. */
export async function listQrGenerations(db: Db, accountId: string, filter: { status?: (typeof STATUSES)[number] }, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [eq(qrGenerations.accountId, accountId)];
  if (filter.status) conditions.push(eq(qrGenerations.status, filter.status));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db.select().from(qrGenerations).where(where).orderBy(desc(qrGenerations.createdAt), desc(qrGenerations.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(qrGenerations).where(where),
  ]);
  return { items: await Promise.all(rows.map(toPublicQrGeneration)), total: total?.n ?? 0 };
}

/** Another account's run is indistinguishable from a missing one (404). */
export async function getQrGeneration(db: Db, accountId: string, id: string) {
  const [row] = await db
    .select()
    .from(qrGenerations)
    .where(and(eq(qrGenerations.id, id), eq(qrGenerations.accountId, accountId)));
  if (!row) throw notFound("QR generation");
  return toPublicQrGeneration(row);
}
