import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as batchRoute from "@/app/v1/production/batches/[id]/route";
import * as orderFilesRoute from "@/app/v1/production/orders/[id]/print-files/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import * as webhookEndpointsRoute from "@/app/v1/webhook-endpoints/route";
import { getDb } from "@/lib/foundation/db/client";
import { resetConfig } from "@/lib/foundation/config";
import { mailMessages, printFiles, webhookDeliveries } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { productionStudio } from "../support/production-fixtures";
import { LANDSCAPE, PORTRAIT, readyDirectBatch, TINY, WALLET_AND_FIVE } from "../support/production-late-files";

// A batch the lab shipped ships only the orders whose print files have all shipped: an
// order with a held item the lab never got stays in production (its parcel of what did
// ship kept with its tracking), its print files say which one waits, and the batch that
// takes the fixed file ships it: the order, its webhook and e-mail carry both parcels.
// Real originals, sharp and Preflight; the batch job's steps called directly (no runner).

// The studio's webhook endpoint is a local address (never called: the delivery row is what is read).
process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
resetConfig();

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
    const hook = await call(webhookEndpointsRoute, "POST", "/v1/webhook-endpoints", { token: owner.token, body: { url: "http://127.0.0.1:9/hook", events: ["order.shipped"] } });
    expect(hook.status, hook.text).toBe(201);
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
    // Shipping asks for the tracking of every parcel sent home: Ben's whole order, and the part of Ada's that ships.
    const untracked = await move(first, { status: "shipped", tracking: { [whole.id]: { tracking_number: "1Z111", carrier: "UPS" } } });
    expect(untracked.status).toBe(400);
    expect(untracked.json.details.fields.map((f: { field: string }) => f.field)).toEqual([`tracking.${partial.id}`]);
    const shipped = await move(first, { status: "shipped", tracking: { [whole.id]: { tracking_number: "1Z111", carrier: "UPS" }, [partial.id]: { tracking_number: "1Z000", carrier: "USPS" } } });
    expect(shipped.status, shipped.text).toBe(200);
    expect(await orderOf(whole.id)).toMatchObject({ status: "shipped", tracking_number: "1Z111", shipments: [{ batch_id: first, carrier: "UPS", tracking_number: "1Z111" }] });
    // Ada's order stays in production, its first parcel kept.
    expect(await orderOf(partial.id)).toMatchObject({ status: "in_production", tracking_number: null, shipments: [{ batch_id: first, carrier: "USPS", tracking_number: "1Z000" }] });
    // Ada's parent is told what left and what follows, once; Ben's whole order gets no such e-mail.
    const partMail = async (orderId: string, batchId: string) => db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, `order-parcel-${orderId}-${batchId}`));
    const [part] = await partMail(partial.id, first);
    expect(part!.subject).toContain(`Part of your order ${partial.id} has shipped`);
    expect(part!.text).toContain("Tracking: USPS 1Z000.");
    expect(part!.text).toContain("Still being made: 2 × ");
    expect(part!.text).not.toContain("Still being made: 1 × ");
    expect(await partMail(whole.id, first)).toEqual([]);

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
    // Now Ada's order ships, and its second parcel's tracking is asked for.
    const again = await move(second, { status: "shipped" });
    expect(again.json.details.fields.map((f: { field: string }) => f.field)).toEqual([`tracking.${partial.id}`]);
    expect((await move(second, { status: "shipped", tracking: { [partial.id]: { tracking_number: "1Z222", carrier: "UPS" } } })).status).toBe(200);
    const both = [
      { batch_id: first, carrier: "USPS", tracking_number: "1Z000", shipped_at: expect.any(String) },
      { batch_id: second, carrier: "UPS", tracking_number: "1Z222", shipped_at: expect.any(String) },
    ];
    expect(await orderOf(partial.id)).toMatchObject({ status: "shipped", tracking_number: "1Z222", shipments: both });
    // order.shipped carries both parcels; the parent's e-mail names both.
    const events = (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, "order.shipped"))).map((d) => d.payload.data as { id: string; shipments: unknown[] });
    expect(events.find((e) => e.id === partial.id)?.shipments).toEqual(both);
    const [mail] = await db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, `order-shipped-${partial.id}`));
    expect(mail!.text).toContain("It was sent in 2 parcels. Tracking: USPS 1Z000, UPS 1Z222.");
    // The last parcel completes the order: the shipped e-mail, not a second "part of" one.
    expect(await partMail(partial.id, second)).toEqual([]);
    expect((await filesOf(partial.id)).map((f) => [f.batch_status, f.shipped])).toEqual([
      ["shipped", true],
      ["shipped", true],
    ]);
  }, 240_000);
});
