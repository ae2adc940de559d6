import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { startJob } from "@/lib/domain/jobs/start-job";
import { facesCropPrice, FACE_CROP_OPERATION } from "./pricing";
import type { IcpType } from "./presets";
import { sourceKey } from "./storage-keys";

/** A file of a request: to be cropped (from a URL or uploaded bytes), or refused at acceptance (never charged). */
export type IncomingFile =
  | { kind: "url"; filename: string; url: string }
  | { kind: "bytes"; filename: string; bytes: Buffer; mime: string }
  | { kind: "refused"; filename: string; code: string; message: string };

export type AcceptedTask = typeof faceCropTasks.$inferSelect;

/**
 * Takes a batch: uploaded bytes go to storage first, then the debit (price × files
 * to crop), the task and its items commit in one transaction, with the job's start
 * for an async task. A 402 (or any failure) leaves nothing charged and nothing stored.
 */
export async function acceptTask(db: Db, accountId: string, input: { icpType: IcpType; enhance: boolean; mode: "sync" | "async"; files: IncomingFile[] }): Promise<AcceptedTask> {
  const price = facesCropPrice(input.enhance);
  const taskId = newId("task");
  const items: (typeof faceCropItems.$inferInsert)[] = input.files.map((f, position) => {
    const id = newId("fcr");
    const base = { id, taskId, accountId, position, filename: f.filename.slice(0, 255) || `photo-${position + 1}` };
    if (f.kind === "refused") return { ...base, charged: false, status: "failed" as const, errorCode: f.code, errorMessage: f.message };
    if (f.kind === "url") return { ...base, charged: true, status: "pending" as const, sourceUrl: f.url };
    return { ...base, charged: true, status: "pending" as const, sourceKey: sourceKey(accountId, taskId, id) };
  });
  const charged = items.filter((i) => i.charged).length;
  const stored: string[] = [];
  try {
    for (const [i, f] of input.files.entries()) {
      if (f.kind !== "bytes") continue;
      const key = items[i]!.sourceKey!;
      await storage().put(key, f.bytes, f.mime);
      stored.push(key);
    }
    return await db.transaction(async (tx) => {
      const debit = await debitTokens(tx, { accountId, amount: price * charged, operation: FACE_CROP_OPERATION, reference: taskId });
      const [task] = await tx
        .insert(faceCropTasks)
        .values({
          id: taskId,
          accountId,
          mode: input.mode,
          status: input.mode === "async" ? "queued" : "running",
          icpType: input.icpType,
          enhance: input.enhance,
          totalFiles: items.length,
          processedFiles: items.length - charged,
          pricePerFile: price,
          tokensDebited: price * charged,
          walletTransactionId: debit.id,
        })
        .returning();
      await tx.insert(faceCropItems).values(items);
      if (input.mode === "async") await startJob(tx, { name: "face-crop/task.requested", data: { taskId, accountId } });
      return task!;
    });
  } catch (err) {
    await Promise.all(stored.map((k) => storage().delete(k).catch(() => {})));
    throw err;
  }
}
