import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { qrSortFrames, qrSortTasks } from "@/lib/foundation/db/schema";

/**
 * The photos among these that the latest finished QR sort of each found to be a
 * Bulk QR card (a known or unknown card): a photo of a printed card is not a
 * photo of the child, though the card shows the child's portrait, so it is never
 * matched (nor charged, nor filed as the child's first photo in the ZIP). A frame
 * a photographer filed by hand as the child is not a card.
 */
export async function cardFileIds(db: Db, accountId: string, fileIds: number[]): Promise<Set<number>> {
  if (fileIds.length === 0) return new Set();
  const rows = await db
    .select({ fileId: qrSortFrames.fileId, role: qrSortFrames.role })
    .from(qrSortFrames)
    .innerJoin(qrSortTasks, eq(qrSortTasks.id, qrSortFrames.taskId))
    .where(and(eq(qrSortFrames.accountId, accountId), eq(qrSortTasks.accountId, accountId), eq(qrSortTasks.status, "completed"), inArray(qrSortFrames.fileId, fileIds)))
    .orderBy(desc(qrSortTasks.createdAt), desc(qrSortTasks.id));
  const latest = new Map<number, string | null>();
  for (const r of rows) if (r.fileId != null && !latest.has(r.fileId)) latest.set(r.fileId, r.role);
  return new Set([...latest].filter(([, role]) => role === "card" || role === "unknown_card").map(([id]) => id));
}
