import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as batchRoute from "@/app/v1/production/batches/[id]/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { orders, printFiles } from "@/lib/foundation/db/schema";
import { batchLines } from "@/lib/services/production/batch-contents";
import { requireBatch } from "@/lib/services/production/batches";
import { call, testAccount } from "../http";
import { productionStudio } from "../support/production-fixtures";
import { LANDSCAPE, PORTRAIT, readyDirectBatch, TINY, WALLET_AND_FIVE } from "../support/production-late-files";

// A held file fixed after its batch went to the lab: it leaves that batch (the lab's
// manifest and ZIP stay what the lab got) and the studio's next batch takes it, alone.
// Fixed while its batch is still ready (not sent), it stays in it. Real originals,
// sharp and Preflight; the batch job's steps called directly (no runner).

describe("a held file fixed after its batch was sent", () => {
  it("goes into the next batch, not back into the sent one; fixed before sending, it stays in its batch", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, WALLET_AND_FIVE);
    const ada = await shop.child("Ada Park", "2B", "Ms Baker");
    const ben = await shop.child("Ben Ode", "2B", "Ms Baker");
    const late = await shop.paidOrder(ada, false, [
      { ref: "ifive", quantity: 1, crop: LANDSCAPE },
      { ref: "iwallet", quantity: 2, crop: TINY },
    ]);
    const early = await shop.paidOrder(ben, false, [{ ref: "iwallet", quantity: 1, crop: TINY }]);
    const db = await getDb();
    const jobId = Number(shop.studio.jobId);
    const makeBatch = () => readyDirectBatch(db, owner.token, owner.account.id, jobId);
    const filesOf = async (orderId: string) => db.select().from(printFiles).where(eq(printFiles.orderId, orderId)).orderBy(printFiles.productSku);
    const fix = (id: string) => call(printFileRoute, "PATCH", `/v1/production/print-files/${id}`, { token: owner.token, params: { id }, body: { action: "recrop", crop: PORTRAIT } });
    const labFiles = async (batchId: string) => (await batchLines(db, await requireBatch(db, owner.account.id, batchId))).map((l) => l.file);

    const first = await makeBatch();
    expect(first.orderCount).toBe(2);
    const [lateFive, lateWallet] = await filesOf(late.id);
    const [earlyWallet] = await filesOf(early.id);
    expect([lateFive!.productSku, lateFive!.status, lateWallet!.status, earlyWallet!.status]).toEqual([shop.skus.five, "rendered", "held", "held"]);

    // Fixed while the batch is ready: it stays in it, and the lab gets it with the rest.
    expect((await fix(earlyWallet!.id)).json).toMatchObject({ status: "rendered" });
    expect((await filesOf(early.id))[0]!.batchId).toBe(first.id);
    const sentFiles = await labFiles(first.id);
    expect(sentFiles).toHaveLength(2);
    const sent = await call(batchRoute, "PATCH", `/v1/production/batches/${first.id}`, { token: owner.token, params: { id: first.id }, body: { status: "sent" } });
    expect(sent.status, sent.text).toBe(200);
    const [lateOrder] = await db.select().from(orders).where(eq(orders.id, late.id));
    expect(lateOrder!.status).toBe("in_production");

    // Fixed after the batch was sent: it leaves the batch, whose files stay what the lab got.
    const fixed = await fix(lateWallet!.id);
    expect(fixed.json).toMatchObject({ status: "rendered", hold_code: null });
    expect((await filesOf(late.id))[1]!.batchId).toBeNull();
    expect(await labFiles(first.id)).toEqual(sentFiles);

    // The next batch of the job takes it, alone (its order is in production already), without rendering it again.
    const renderedAt = (await filesOf(late.id))[1]!.renderedAt;
    const second = await makeBatch();
    expect(second.orderCount).toBe(1);
    expect(await labFiles(second.id)).toEqual([expect.stringMatching(new RegExp(`^${late.id}_${lateWallet!.orderItemId}_.*_2\\.jpg$`))]);
    expect((await filesOf(late.id))[1]).toMatchObject({ batchId: second.id, status: "rendered", renderedAt });
    // Nothing is left for a third.
    const none = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: jobId } });
    expect([none.status, none.json.error]).toEqual([409, "NOTHING_TO_BATCH"]);
  }, 240_000);
});
