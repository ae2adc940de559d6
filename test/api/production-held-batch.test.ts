import { describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as batchRoute from "@/app/v1/production/batches/[id]/route";
import * as zipRoute from "@/app/v1/production/batches/[id]/zip/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { filesToRender, finishBatch } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { call, testAccount } from "../http";
import { productionStudio } from "../support/production-fixtures";
import { PORTRAIT, TINY, WALLET_AND_FIVE } from "../support/production-late-files";

// A batch whose every file is on hold has not failed: it waits for the studio's fixes
// (status held), and each fixed file is rendered into it, the first making it ready for
// the lab. Real originals, sharp and Preflight; the batch job's steps called directly.

describe("a batch whose every file is on hold", () => {
  it("is held (not failed), offers no ZIP, and is ready with its fixed file in it", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, WALLET_AND_FIVE);
    const ada = await shop.child("Ada Park", "2B", "Ms Baker");
    await shop.paidOrder(ada, false, [{ ref: "iwallet", quantity: 2, crop: TINY }]);
    const db = await getDb();
    const jobId = Number(shop.studio.jobId);
    const made = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: jobId } });
    expect(made.status, made.text).toBe(202);
    const id = made.json.id as string;
    await renderPrintFiles(db, owner.account.id, await filesToRender(db, owner.account.id, id));
    expect(await finishBatch(db, owner.account.id, id)).toBe("held");

    const get = async () => (await call(batchRoute, "GET", `/v1/production/batches/${id}`, { token: owner.token, params: { id } })).json;
    const held = await get();
    expect(held).toMatchObject({ status: "held", error: null, zip_url: null, slips_url: null, progress: { total: 1, held: 1, rendered: 0 } });
    const zip = await zipRoute.GET(new Request(`http://localhost:3000/v1/production/batches/${id}/zip`, { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ id }) });
    expect(zip.status).toBe(409);
    // It cannot go to the lab as it is.
    const sent = await call(batchRoute, "PATCH", `/v1/production/batches/${id}`, { token: owner.token, params: { id }, body: { status: "sent" } });
    expect([sent.status, sent.json.error]).toEqual([409, "INVALID_BATCH_STATUS"]);
    // A second batch finds nothing: the held file stays with its batch.
    const none = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: jobId } });
    expect([none.status, none.json.error]).toEqual([409, "NOTHING_TO_BATCH"]);

    // The studio fixes it: rendered into this batch, which is ready for the lab.
    const fileId = held.files[0].id as string;
    const fixed = await call(printFileRoute, "PATCH", `/v1/production/print-files/${fileId}`, { token: owner.token, params: { id: fileId }, body: { action: "recrop", crop: PORTRAIT } });
    expect(fixed.json).toMatchObject({ status: "rendered", batch_id: id, batch_status: "ready" });
    expect(await get()).toMatchObject({ status: "ready", zip_url: `/v1/production/batches/${id}/zip`, progress: { total: 1, rendered: 1, held: 0 } });
    const lab = await call(batchRoute, "PATCH", `/v1/production/batches/${id}`, { token: owner.token, params: { id }, body: { status: "sent" } });
    expect(lab.status, lab.text).toBe(200);
  }, 240_000);
});
