import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as batchRoute from "@/app/v1/production/batches/[id]/route";
import * as orderFilesRoute from "@/app/v1/production/orders/[id]/print-files/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { printFiles } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { productionStudio } from "../support/production-fixtures";
import { LANDSCAPE, PORTRAIT, readyDirectBatch, TINY, WALLET_AND_FIVE } from "../support/production-late-files";

// A batch the lab shipped ships only the orders whose print files have all shipped: an
// order with a held item the lab never got stays in production (no tracking asked for it),
// its print files say which one waits, and the batch that takes the fixed file ships it.
// Real originals, sharp and Preflight; the batch job's steps called directly (no runner).

describe("a shipped batch and an order with a held item", () => {
  it("ships only the orders whose print files all shipped; the other stays in production, says which file waits, and ships with the batch that takes it", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, WALLET_AND_FIVE);
    const ada = await shop.child("Ada Park", "2B", "Ms Baker");
    const ben = await shop.child("Ben Ode", "2B", "Ms Baker");
    // Ada's order: a 3.5 x 5 that prints and two wallets held (too few pixels). Ben's: one wallet that prints.
    const partial = await shop.paidOrder(ada, false, [
      { ref: "ifive", quantity: 1, crop: LANDSCAPE },
      { ref: "iwallet", quantity: 2, crop: TINY },
    ]);
    const whole = await shop.paidOrder(ben, false, [{ ref: "iwallet", quantity: 1, crop: PORTRAIT }]);
    const db = await getDb();
    const jobId = Number(shop.studio.jobId);
    const makeBatch = async () => (await readyDirectBatch(db, owner.token, owner.account.id, jobId)).id;
    const move = (id: string, body: unknown) => call(batchRoute, "PATCH", `/v1/production/batches/${id}`, { token: owner.token, params: { id }, body });
    const toLab = async (id: string) => {
      expect((await move(id, { status: "sent" })).status).toBe(200);
      expect((await move(id, { status: "printed" })).status).toBe(200);
    };
    const orderOf = async (id: string) => (await call(orderRoute, "GET", `/v1/orders/${id}`, { token: owner.token, params: { id } })).json;
    const filesOf = async (id: string) => {
      const res = await call(orderFilesRoute, "GET", `/v1/production/orders/${id}/print-files`, { token: owner.token, params: { id } });
      expect(res.status, res.text).toBe(200);
      return (res.json.data as { id: string; product_code: string; status: string; shipped: boolean; batch_status: string | null; hold_code: string | null }[]).sort((a, b) => a.product_code.localeCompare(b.product_code));
    };

    const first = await makeBatch();
    await toLab(first);
    expect((await orderOf(partial.id)).status).toBe("in_production");
    // Shipping asks for the tracking of the parcel that ships (Ben's) only: Ada's order does not ship yet.
    const untracked = await move(first, { status: "shipped" });
    expect(untracked.status).toBe(400);
    expect(untracked.json.details.fields.map((f: { field: string }) => f.field)).toEqual([`tracking.${whole.id}`]);
    const shipped = await move(first, { status: "shipped", tracking: { [whole.id]: { tracking_number: "1Z111", carrier: "UPS" } } });
    expect(shipped.status, shipped.text).toBe(200);
    expect(await orderOf(whole.id)).toMatchObject({ status: "shipped", tracking_number: "1Z111" });
    expect(await orderOf(partial.id)).toMatchObject({ status: "in_production", tracking_number: null });

    // The order's print files: the 3.5 x 5 shipped, the wallets on hold in the shipped batch (the lab never got them).
    const [five, wallet] = await filesOf(partial.id);
    expect(five).toMatchObject({ product_code: shop.skus.five, status: "rendered", batch_status: "shipped", shipped: true });
    expect(wallet).toMatchObject({ product_code: shop.skus.wallet, status: "held", hold_code: "preflight", batch_status: "shipped", shipped: false });
    expect((await filesOf(whole.id)).map((f) => f.shipped)).toEqual([true]);

    // The studio fixes the wallets: they leave the shipped batch, the next batch takes them alone.
    const fixed = await call(printFileRoute, "PATCH", `/v1/production/print-files/${wallet!.id}`, { token: owner.token, params: { id: wallet!.id }, body: { action: "recrop", crop: PORTRAIT } });
    expect(fixed.json).toMatchObject({ status: "rendered", batch_id: null, batch_status: null, shipped: false });
    const second = await makeBatch();
    expect((await db.select().from(printFiles).where(eq(printFiles.batchId, second))).map((f) => f.id)).toEqual([wallet!.id]);
    await toLab(second);
    expect((await orderOf(partial.id)).status).toBe("in_production");
    // Now Ada's order ships, and its parcel's tracking is asked for.
    const again = await move(second, { status: "shipped" });
    expect(again.json.details.fields.map((f: { field: string }) => f.field)).toEqual([`tracking.${partial.id}`]);
    expect((await move(second, { status: "shipped", tracking: { [partial.id]: { tracking_number: "1Z222", carrier: "UPS" } } })).status).toBe(200);
    expect(await orderOf(partial.id)).toMatchObject({ status: "shipped", tracking_number: "1Z222" });
    expect((await filesOf(partial.id)).map((f) => [f.batch_status, f.shipped])).toEqual([
      ["shipped", true],
      ["shipped", true],
    ]);
  }, 240_000);
});
