import { and, asc, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";
import { pageQuery } from "@/lib/foundation/http/pagination";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { netTokens } from "./public-task";

const STATUSES = ["queued", "running", "completed", "failed"] as const;
/** Pictures per task in the list: enough for a strip of thumbnails; the task itself has all. */
export const LIST_THUMBNAILS = 6;

/** The page window and an optional status filter. */
export const listFaceCropTasksQuery = pageQuery.extend({
  status: z.enum(STATUSES, { error: `status must be one of ${STATUSES.join(", ")}.` }).optional(),
});

export const faceCropTaskListItem = z.object({
  task_id: z.string(),
  status: z.enum(STATUSES),
  total_files: z.number().int(),
  progress: z.object({ current: z.number(), total: z.number(), percentage: z.number() }),
  icp_type: z.string(),
  enhance: z.boolean(),
  completed_files: z.number().int(),
  failed_files: z.number().int(),
  thumbnails: z
    .array(z.object({ result_id: z.string(), filename: z.string(), url: z.string() }))
    .meta({ description: `Up to ${LIST_THUMBNAILS} crops (the medium size), signed for 24 hours; GET /v1/services/studio/jobs/{taskId} has them all.` }),
  tokens_deducted: z.number().int(),
  tokens_refunded: z.number().int(),
  wallet_transaction_id: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  completed_at: z.iso.datetime({ offset: true }).nullable(),
  error_message: z.string().nullable(),
});

/** The account's Face Crop tasks (sync and async), newest first, each with a few thumbnails. */
export async function listFaceCropTasks(db: Db, accountId: string, filter: { status?: (typeof STATUSES)[number] }, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [eq(faceCropTasks.accountId, accountId)];
  if (filter.status) conditions.push(eq(faceCropTasks.status, filter.status));
  const where = and(...conditions);
  const [tasks, [total]] = await Promise.all([
    db.select().from(faceCropTasks).where(where).orderBy(desc(faceCropTasks.createdAt), desc(faceCropTasks.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(faceCropTasks).where(where),
  ]);
  return { items: await faceCropListItems(db, accountId, tasks), total: total?.n ?? 0 };
}

/** Face Crop task rows as the list shows them, each with a few thumbnails. */
export async function faceCropListItems(db: Db, accountId: string, tasks: Array<typeof faceCropTasks.$inferSelect>) {
  const items = tasks.length
    ? await db
        .select({ id: faceCropItems.id, taskId: faceCropItems.taskId, filename: faceCropItems.filename, status: faceCropItems.status, mediumKey: faceCropItems.mediumKey })
        .from(faceCropItems)
        .where(and(eq(faceCropItems.accountId, accountId), inArray(faceCropItems.taskId, tasks.map((t) => t.id))))
        .orderBy(asc(faceCropItems.position))
    : [];
  const out = await Promise.all(
    tasks.map(async (task) => {
      const mine = items.filter((i) => i.taskId === task.id);
      const done = mine.filter((i) => i.status === "completed" && i.mediumKey);
      const thumbnails = await Promise.all(
        done.slice(0, LIST_THUMBNAILS).map(async (i) => ({ result_id: i.id, filename: i.filename, url: await storage().signedUrl(i.mediumKey!, OUTPUT_URL_TTL_SECONDS) })),
      );
      return {
        task_id: task.id,
        status: task.status,
        total_files: task.totalFiles,
        progress: { current: task.processedFiles, total: task.totalFiles, percentage: task.totalFiles ? Math.round((task.processedFiles / task.totalFiles) * 100) : 100 },
        icp_type: task.icpType,
        enhance: task.enhance,
        completed_files: done.length,
        failed_files: mine.filter((i) => i.status === "failed").length,
        thumbnails,
        tokens_deducted: netTokens(task),
        tokens_refunded: task.tokensRefunded,
        wallet_transaction_id: task.walletTransactionId,
        created_at: task.createdAt.toISOString(),
        completed_at: task.completedAt?.toISOString() ?? null,
        error_message: task.errorMessage,
      };
    }),
  );
  return out;
}
