import { asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, type faceCropTasks } from "@/lib/foundation/db/schema";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";

type Task = typeof faceCropTasks.$inferSelect;
type Item = typeof faceCropItems.$inferSelect;

const signed = (key: string | null) => (key ? storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS) : Promise.resolve(null));

/**
 * One file's result (contract 2.6: filename, icp_type, face_box, output_urls),
 * plus what the studio draws and what was done (faces found, edge, enhancement).
 * A file that could not be cropped: `{ result_id, filename, error: { code, message } }`.
 */
export async function toPublicResult(task: Pick<Task, "icpType">, item: Item) {
  if (item.status === "failed") return { result_id: item.id, filename: item.filename, error: { code: item.errorCode ?? "PROCESSING_FAILED", message: item.errorMessage ?? "" } };
  if (item.status === "pending") return { result_id: item.id, filename: item.filename, status: "pending" as const };
  const [original, medium, source] = await Promise.all([signed(item.originalKey), signed(item.mediumKey), signed(item.sourceKey)]);
  const { crown_source: crownSource, landmark_model: landmarkModel, ...landmarks } = item.landmarks ?? { crown_source: undefined, landmark_model: undefined };
  return {
    result_id: item.id,
    filename: item.filename,
    icp_type: task.icpType,
    face_box: item.faceBox,
    output_urls: { original, medium },
    faces_found: item.facesFound,
    landmarks: item.landmarks ? landmarks : null,
    crown_source: crownSource ?? (item.landmarks ? "landmarks" : null),
    landmark_model: landmarkModel ?? (item.landmarks ? "mesh" : null),
    crop_box: item.cropBox,
    edge: item.edge,
    padded: item.edge === "padded",
    padding: item.padding ?? { top: 0, right: 0, bottom: 0, left: 0 },
    manual: item.manual,
    enhancement: item.enhancement,
    output_size: { width: item.outputWidth, height: item.outputHeight },
    source: { url: source, width: item.width, height: item.height },
  };
}

export async function listResults(db: Db, task: Task) {
  const items = await db.select().from(faceCropItems).where(eq(faceCropItems.taskId, task.id)).orderBy(asc(faceCropItems.position));
  return Promise.all(items.map((i) => toPublicResult(task, i)));
}

/** What the caller was charged in the end: the debit less the refund of the failed files. */
export const netTokens = (task: Task) => task.tokensDebited - task.tokensRefunded;

/** GET /v1/services/studio/jobs/{taskId} (contract 2.7 and 4.4); `results` once the task has ended. */
export async function toPublicTask(db: Db, task: Task) {
  const ended = task.status === "completed" || task.status === "failed";
  const percentage = task.totalFiles ? Math.round((task.processedFiles / task.totalFiles) * 100) : 100;
  return {
    task_id: task.id,
    status: task.status,
    total_files: task.totalFiles,
    progress: { current: task.processedFiles, total: task.totalFiles, percentage },
    icp_type: task.icpType,
    enhance: task.enhance,
    tokens_deducted: netTokens(task),
    tokens_refunded: task.tokensRefunded,
    wallet_transaction_id: task.walletTransactionId,
    refund_transaction_id: task.refundTransactionId,
    created_at: task.createdAt.toISOString(),
    completed_at: task.completedAt?.toISOString() ?? null,
    error_message: task.errorMessage,
    ...(ended ? { results: await listResults(db, task) } : {}),
  };
}

/** The 200 answer of a batch cropped at once (contract 4.4). */
export async function toSyncBody(db: Db, task: Task) {
  return {
    task_id: task.id,
    results: await listResults(db, task),
    tokens_deducted: netTokens(task),
    tokens_refunded: task.tokensRefunded,
    wallet_transaction_id: task.walletTransactionId,
    refund_transaction_id: task.refundTransactionId,
  };
}

/** The 202 answer of a batch that runs as a task (contract 4.4). */
export function queuedBody(task: Task) {
  return { task_id: task.id, status: "queued" as const, total_files: task.totalFiles, tokens_deducted: task.tokensDebited, wallet_transaction_id: task.walletTransactionId };
}
