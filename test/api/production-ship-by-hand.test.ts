import { describe, expect, it } from "vitest";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { call, testAccount } from "../http";
import { productionStudio } from "../support/production-fixtures";
import { LANDSCAPE, PORTRAIT, readyDirectBatch, TINY, WALLET_AND_FIVE } from "../support/production-late-files";

// The studio marks an order shipped by hand (PATCH /v1/orders/{id}): refused while a print
// file of the order is held or not rendered (the lab never got it), with the files that
// wait; an order with no print item ships at once. Real originals, sharp and Preflight;
// the batch job's steps called directly (no runner).

type Waiting = { id: string; product_code: string; status: string; hold_code: string | null; hold_reasons: string[] };

describe("an order marked shipped by hand", () => {
  it("is 409 PRINT_FILES_WAITING while a print is unrendered or held, ships once fixed, and a digital-only order ships at once", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, WALLET_AND_FIVE);
    const ada = await shop.child("Ada Park", "2B", "Ms Baker");
    const order = await shop.paidOrder(ada, false, [
      { ref: "ifive", quantity: 1, crop: LANDSCAPE },
      { ref: "iwallet", quantity: 2, crop: TINY },
    ]);
    const digital = await shop.paidOrder(ada, false, [{ ref: "dig", quantity: 1 }]);
    const db = await getDb();
    const ship = (id: string, token = owner.token) => call(orderRoute, "PATCH", `/v1/orders/${id}`, { token, params: { id }, body: { status: "shipped", tracking_number: "1Z777", carrier: "UPS" } });
    const waiting = (res: { json: { details: { files: Waiting[] } } }) => res.json.details.files.map((f) => [f.product_code, f.status, f.hold_code]).sort();

    // Not yet batched: both prints are owed and unrendered.
    const early = await ship(order.id);
    expect([early.status, early.json.error]).toEqual([409, "PRINT_FILES_WAITING"]);
    expect(waiting(early)).toEqual([
      [shop.skus.five, "pending", null],
      [shop.skus.wallet, "pending", null],
    ]);
    // Another studio learns nothing of it.
    const other = await testAccount();
    expect((await ship(order.id, other.token)).status).toBe(404);

    // Batched and rendered: the wallets are held (too few pixels), and that is what waits, with the reason.
    await readyDirectBatch(db, owner.token, owner.account.id, Number(shop.studio.jobId));
    const held = await ship(order.id);
    expect([held.status, held.json.error]).toEqual([409, "PRINT_FILES_WAITING"]);
    expect(waiting(held)).toEqual([[shop.skus.wallet, "held", "preflight"]]);
    expect(held.json.details.files[0].hold_reasons.join(" ")).toMatch(/ppi/);
    expect((await call(orderRoute, "GET", `/v1/orders/${order.id}`, { token: owner.token, params: { id: order.id } })).json.status).toBe("paid");

    // Fixed: every print is rendered, the order ships with its parcel.
    const walletId = held.json.details.files[0].id as string;
    expect((await call(printFileRoute, "PATCH", `/v1/production/print-files/${walletId}`, { token: owner.token, params: { id: walletId }, body: { action: "recrop", crop: PORTRAIT } })).json.status).toBe("rendered");
    const shipped = await ship(order.id);
    expect(shipped.status, shipped.text).toBe(200);
    expect(shipped.json).toMatchObject({ status: "shipped", tracking_number: "1Z777", shipments: [{ batch_id: null, carrier: "UPS", tracking_number: "1Z777" }] });

    // No print item: nothing to wait for.
    const dig = await ship(digital.id);
    expect(dig.status, dig.text).toBe(200);
    expect(dig.json.status).toBe("shipped");
  }, 240_000);
});
