import sharp from "sharp";
import Papa from "papaparse";
import { unzipSync } from "fflate";
import { PDFDocument } from "pdf-lib";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as batchRoute from "@/app/v1/production/batches/[id]/route";
import * as zipRoute from "@/app/v1/production/batches/[id]/zip/route";
import * as slipsRoute from "@/app/v1/production/batches/[id]/slips/route";
import * as orderFilesRoute from "@/app/v1/production/orders/[id]/print-files/route";
import * as settingsRoute from "@/app/v1/production/settings/route";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { jobRuns, jobSteps, orders, printFiles } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { startJobRunner, stopJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import { readIccProfile } from "@/lib/engines/imaging/icc-profile";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { productionBatch } from "@/inngest/production";
import { removeOldOrderPhotos } from "@/lib/composition/maintenance/order-photos";
import { call, testAccount } from "../http";
import { forEachRenderedPage, pdfText } from "../support/pdf-render";
import { scanQrCodes } from "../support/qr-scan";
import { productionStudio } from "../support/production-fixtures";

// Production end to end, through the routes and the embedded job runner: real
// originals in storage, the real sharp pipeline and Preflight workers, the ZIP and
// the slips PDF read back with independent readers (fflate, papaparse, pdf-lib, pdf.js).

const startRunner = () => startJobRunner({ pollMs: 30, retryBaseMs: 100, retryMaxMs: 400, leaseMs: 10_000 });
beforeAll(() => startRunner());
afterAll(() => stopJobRunner({ drainMs: 0 }));

const PRODUCTS = [
  { key: "wallet", width_in: 2, height_in: 2.5, bleed_mm: 0, min_ppi: 300, color_mode: "rgb" as const },
  { key: "five", width_in: 3.5, height_in: 5, bleed_mm: 2.54, min_ppi: 250, color_mode: "rgb" as const },
  { key: "eight", width_in: 8, height_in: 10, bleed_mm: 0, min_ppi: 300, color_mode: "rgb" as const },
  { key: "cmyk", width_in: 4, height_in: 6, bleed_mm: 0, min_ppi: 100, color_mode: "cmyk" as const },
];
/** Portrait 4:5 (the wallet's shape): 540 x 675 px of the 1200 x 900 original, 270 ppi at 2 in. */
const PORTRAIT = { x: 0.1, y: 0.1, width: 0.45, height: 0.75 };
/** Landscape 5:3.5: 1050 x 735 px. */
const LANDSCAPE = { x: 0.05, y: 0.1, width: 0.875, height: 735 / 900 };

const createBatch = (token: string, body: unknown) => call(batchesRoute, "POST", "/v1/production/batches", { token, body });
const getBatch = (token: string, id: string) => call(batchRoute, "GET", `/v1/production/batches/${id}`, { token, params: { id } });
const moveBatch = (token: string, id: string, body: unknown) => call(batchRoute, "PATCH", `/v1/production/batches/${id}`, { token, params: { id }, body });

/** A binary download through its route handler, as the browser's link would. */
async function download(route: typeof zipRoute | typeof slipsRoute, token: string, id: string, what: "zip" | "slips") {
  const res = await route.GET(new Request(`http://localhost:3000/v1/production/batches/${id}/${what}`, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ id }) });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function waitReady(token: string, id: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await getBatch(token, id);
    if (res.json.status !== "rendering") return res.json;
    if (Date.now() > until) throw new Error(`batch still rendering: ${JSON.stringify(res.json.progress)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Mean absolute difference per channel between two same-sized RGB rasters. */
async function meanDiff(a: sharp.Sharp, b: sharp.Sharp): Promise<number> {
  const [x, y] = await Promise.all([a.removeAlpha().raw().toBuffer({ resolveWithObject: true }), b.removeAlpha().raw().toBuffer({ resolveWithObject: true })]);
  expect([x.info.width, x.info.height]).toEqual([y.info.width, y.info.height]);
  let sum = 0;
  for (let i = 0; i < x.data.length; i++) sum += Math.abs(x.data[i]! - y.data[i]!);
  return sum / x.data.length;
}

const fileOf = async (id: string) => (await (await getDb()).select().from(printFiles).where(eq(printFiles.id, id)))[0]!;

describe("print-ready files", () => {
  it("renders every paid print from its original at the product's exact size, 300 ppi, sRGB with ICC (a press product in CMYK), the parent's crop, and holds what fails", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, PRODUCTS);
    const ada = await shop.child("Ada Park", "2B", "Ms Baker");
    const ben = await shop.child("Ben Ode", "2B", "Ms Baker", true); // stored sideways, EXIF orientation 6
    const o1 = await shop.paidOrder(ada, false, [
      { ref: "iwallet", quantity: 3, crop: PORTRAIT },
      { ref: "ifive", quantity: 1, crop: LANDSCAPE },
    ]);
    const o2 = await shop.paidOrder(ben, false, [{ ref: "pkg", kind: "package", quantity: 1, crop: PORTRAIT }]);
    const o3 = await shop.paidOrder(ada, false, [
      { ref: "ieight", quantity: 1, crop: PORTRAIT },
      { ref: "icmyk", quantity: 2 },
    ]);

    const created = await createBatch(owner.token, { shipping: "direct", job_id: Number(shop.studio.jobId) });
    expect(created.status, created.text).toBe(202);
    expect(created.json).toMatchObject({ status: "rendering", order_count: 3, zip_url: null });
    const batch = await waitReady(owner.token, created.json.id);
    expect(batch).toMatchObject({ status: "ready", progress: { total: 5, rendered: 4, held: 1, pending: 0 }, zip_url: `/v1/production/batches/${batch.id}/zip` });
    const files = batch.files as { id: string; order_id: string; product_code: string; status: string; hold_reasons: string[]; width_px: number; height_px: number; quantity: number; thumb_url: string }[];
    const by = (order: string, sku: string) => files.find((f) => f.order_id === order && f.product_code === sku)!;

    // Exact pixel sizes: 2 x 2.5 in → 600 x 750; 3.5 x 5 in turned to the landscape crop (5 x 3.5) plus 0.1 in of bleed a side; 8 x 10 → 2400 x 3000; 4 x 6 with no crop on the wide photo turned → 1800 x 1200.
    const wallet = by(o1.id, shop.skus.wallet!);
    expect([wallet.width_px, wallet.height_px, wallet.quantity]).toEqual([600, 750, 3]);
    const five = by(o1.id, shop.skus.five!);
    expect([five.width_px, five.height_px]).toEqual([1500 + 60, 1050 + 60]);
    const pkgWallet = by(o2.id, shop.skus.wallet!);
    expect([pkgWallet.width_px, pkgWallet.height_px, pkgWallet.quantity]).toEqual([600, 750, 2]); // the package holds 2 wallets
    const eight = by(o3.id, shop.skus.eight!);
    expect([eight.width_px, eight.height_px]).toEqual([2400, 3000]);
    const cmyk = by(o3.id, shop.skus.cmyk!);
    expect([cmyk.width_px, cmyk.height_px]).toEqual([1800, 1200]);

    // Every file: a JPEG, sRGB, the sRGB profile embedded, 300 ppi in the header, upright; the press product's in CMYK with the press profile.
    const cmykMeta = await sharp((await storage().get((await fileOf(cmyk.id)).fileKey!))!.body).metadata();
    expect(cmykMeta).toMatchObject({ format: "jpeg", space: "cmyk", density: 300, width: 1800, height: 1200 });
    expect(readIccProfile(cmykMeta.icc!)).toMatchObject({ colorSpace: "CMYK" });
    for (const f of [wallet, five, pkgWallet, eight]) {
      const row = await fileOf(f.id);
      const bytes = (await storage().get(row.fileKey!))!.body;
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: "jpeg", space: "srgb", density: 300, width: f.width_px, height: f.height_px });
      expect(meta.orientation ?? 1).toBe(1);
      expect(readIccProfile(meta.icc!)).toMatchObject({ colorSpace: "RGB" });
      expect(readIccProfile(meta.icc!)!.description).toMatch(/sRGB/i);
      expect(f.thumb_url).toMatch(/^http/);
    }

    // The parent's crop, from the original: the output matches that region of the upright
    // original resized (small difference), and clearly not the region 60 px to the right.
    const region = (left: number, top: number, w: number, h: number, W: number, H: number) => sharp(shop.upright).extract({ left, top, width: w, height: h }).resize(W, H, { fit: "fill" });
    const walletBytes = (await storage().get((await fileOf(wallet.id)).fileKey!))!.body;
    const right = await meanDiff(sharp(walletBytes), region(120, 90, 540, 675, 600, 750));
    const shifted = await meanDiff(sharp(walletBytes), region(180, 90, 540, 675, 600, 750));
    expect(right).toBeLessThan(4);
    expect(shifted).toBeGreaterThan(right * 4);
    // The sideways original (EXIF orientation 6) is turned upright before the crop.
    const benBytes = (await storage().get((await fileOf(pkgWallet.id)).fileKey!))!.body;
    expect(await meanDiff(sharp(benBytes), region(120, 90, 540, 675, 600, 750))).toBeLessThan(4);
    // The bleed is outside the trim: the trim area alone is the crop.
    const fiveBytes = (await storage().get((await fileOf(five.id)).fileKey!))!.body;
    expect(await meanDiff(sharp(fiveBytes).extract({ left: 30, top: 30, width: 1500, height: 1050 }), region(60, 90, 1050, 735, 1500, 1050))).toBeLessThan(4);

    // Held: the 8 x 10 holds 540 px over 8 in (67.5 ppi, said as 67: rounded down, as the cart's crop editor says it) of the original.
    expect(eight.status).toBe("held");
    expect(eight.hold_reasons.join(" ")).toMatch(/67 ppi of the original at 8 x 10 in.*300 ppi required/);
    for (const f of [wallet, five, pkgWallet, cmyk]) expect([f.status, f.hold_reasons]).toEqual(["rendered", []]);
    // The order page's list: the holds with their reasons.
    const o3Files = await call(orderFilesRoute, "GET", `/v1/production/orders/${o3.id}/print-files`, { token: owner.token, params: { id: o3.id } });
    expect(o3Files.status).toBe(200);
    expect(o3Files.json.data.map((f: { status: string }) => f.status).sort()).toEqual(["held", "rendered"]);

    // The lab's ZIP read back: both manifests list what is in it, each row's file is there at its size; held items are not.
    const zip = await download(zipRoute, owner.token, batch.id, "zip");
    expect(zip.status).toBe(200);
    const entries = unzipSync(zip.bytes);
    const csv = Papa.parse<Record<string, string>>(new TextDecoder().decode(entries["manifest.csv"]), { header: true, skipEmptyLines: true }).data;
    const json = JSON.parse(new TextDecoder().decode(entries["manifest.json"])) as Record<string, string | number>[];
    expect(csv).toHaveLength(4);
    expect(json.map((r) => r.file)).toEqual(csv.map((r) => r.file));
    expect(Object.keys(entries).sort()).toEqual(["manifest.csv", "manifest.json", ...csv.map((r) => r.file!)].sort());
    for (const row of csv) {
      expect(row.file).toBe(`${row.order}_${row.item}_${row.product_code}_${row.quantity}.jpg`);
      const meta = await sharp(entries[row.file!]!).metadata();
      const [w, h] = row.size!.split("x").map(Number);
      const bleed = row.product_code === shop.skus.five ? 60 : 0;
      expect([meta.width, meta.height]).toEqual([Math.round(w! * 300) + bleed, Math.round(h! * 300) + bleed]);
      expect(row.ship_to).toContain("1 Elm St");
    }
    expect(csv.map((r) => r.order).sort()).toEqual([o1.id, o1.id, o2.id, o3.id].sort());
    // Slips: one page per order that has something to print.
    const slips = await download(slipsRoute, owner.token, batch.id, "slips");
    expect(slips.status).toBe(200);
    expect((await PDFDocument.load(slips.bytes)).getPageCount()).toBe(3);
  }, 180_000);
});

describe("school-bulk batches", () => {
  it("sorts the manifest and slips by teacher, renames columns for the lab, and moves the orders with the batch", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, PRODUCTS.slice(0, 1));
    const kids = [await shop.child("Zoe Young", "4A", "Ms Zed"), await shop.child("Al Brown", "1C", "Mr Adams"), await shop.child("Cy Diaz", "3B", "Ms Baker")];
    const made = [];
    for (const k of kids) made.push(await shop.paidOrder(k, true, [{ ref: "iwallet", quantity: 1, crop: PORTRAIT }]));
    const home = await shop.paidOrder(kids[0]!, false, [{ ref: "iwallet", quantity: 1, crop: PORTRAIT }]);

    const renamed = await call(settingsRoute, "PUT", "/v1/production/settings", { token: owner.token, body: { manifest_columns: { order: "OrderID", file: "ImageFile", teacher: "Homeroom" } } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.manifest_columns).toMatchObject({ order: "OrderID", file: "ImageFile", teacher: "Homeroom", quantity: "quantity" });

    const today = new Date().toISOString().slice(0, 10);
    const created = await createBatch(owner.token, { shipping: "school", paid_on: today });
    expect(created.status, created.text).toBe(202);
    expect(created.json.order_count).toBe(3); // the home order waits for a direct batch
    const batch = await waitReady(owner.token, created.json.id);
    expect(batch.progress).toEqual({ total: 3, rendered: 3, held: 0, pending: 0 });
    // Nothing left for another school batch of the day.
    expect((await createBatch(owner.token, { shipping: "school", paid_on: today })).status).toBe(409);

    const entries = unzipSync((await download(zipRoute, owner.token, batch.id, "zip")).bytes);
    const csv = Papa.parse<Record<string, string>>(new TextDecoder().decode(entries["manifest.csv"]), { header: true, skipEmptyLines: true }).data;
    expect(csv.map((r) => r.Homeroom)).toEqual(["Mr Adams", "Ms Baker", "Ms Zed"]);
    expect(csv.map((r) => r.OrderID)).toEqual([made[1]!.id, made[2]!.id, made[0]!.id]);
    expect(csv.every((r) => r.ship_to === "Oak Elementary" && r.school_batch === "2026-12-15" && entries[r.ImageFile!])).toBe(true);
    const slips = (await download(slipsRoute, owner.token, batch.id, "slips")).bytes;
    expect((await PDFDocument.load(slips)).getPageCount()).toBe(3);
    const text = await pdfText(slips);
    const at = ["Al Brown", "Cy Diaz", "Zoe Young"].map((n) => text.indexOf(n));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Each page's QR (read by ZXing from the page as pdf.js paints it) is its order's id, in the manifest's order.
    const qrs: string[][] = [];
    await forEachRenderedPage(slips, 100, async (page) => void qrs.push(await scanQrCodes(page.crop(0, 0, page.width, page.height))));
    expect(qrs).toEqual([[made[1]!.id], [made[2]!.id], [made[0]!.id]]);

    // sent → the orders are in production; printed; shipped → shipped (school parcels need no tracking).
    expect((await moveBatch(owner.token, batch.id, { status: "printed" })).status).toBe(409);
    expect((await moveBatch(owner.token, batch.id, { status: "sent" })).json.status).toBe("sent");
    const status = async (id: string) => (await call(orderRoute, "GET", `/v1/orders/${id}`, { token: owner.token, params: { id } })).json.status;
    expect(await Promise.all(made.map((o) => status(o.id)))).toEqual(["in_production", "in_production", "in_production"]);
    expect(await status(home.id)).toBe("paid");
    expect((await moveBatch(owner.token, batch.id, { status: "printed" })).json.status).toBe("printed");
    const shipped = await moveBatch(owner.token, batch.id, { status: "shipped" });
    expect(shipped.status, shipped.text).toBe(200);
    expect(await Promise.all(made.map((o) => status(o.id)))).toEqual(["shipped", "shipped", "shipped"]);
    expect(await status(home.id)).toBe("paid");

    // A year on, the order photo retention removes one order's print files: the lab ZIP says so
    // before it starts (not a ZIP cut short), the slips still print.
    const db = await getDb();
    await db.update(orders).set({ createdAt: new Date(Date.now() - 400 * 86_400_000) }).where(eq(orders.id, made[1]!.id));
    expect(await removeOldOrderPhotos(db)).toBe(1);
    const gone = await download(zipRoute, owner.token, batch.id, "zip");
    expect(gone.status).toBe(410);
    const goneBody = JSON.parse(new TextDecoder().decode(gone.bytes));
    expect(goneBody.error).toBe("PRINT_FILES_REMOVED");
    expect(goneBody.message).toContain(made[1]!.id);
    expect((await download(slipsRoute, owner.token, batch.id, "slips")).status).toBe(200);

    // A direct batch: shipping it needs each home parcel's tracking number, named.
    const direct = await createBatch(owner.token, { shipping: "direct", job_id: Number(shop.studio.jobId) });
    await waitReady(owner.token, direct.json.id);
    await moveBatch(owner.token, direct.json.id, { status: "sent" });
    await moveBatch(owner.token, direct.json.id, { status: "printed" });
    const untracked = await moveBatch(owner.token, direct.json.id, { status: "shipped" });
    expect(untracked.status).toBe(400);
    expect(untracked.json.details.fields[0].field).toBe(`tracking.${home.id}`);
    const tracked = await moveBatch(owner.token, direct.json.id, { status: "shipped", tracking: { [home.id]: { tracking_number: "1Z999", carrier: "UPS" } } });
    expect(tracked.status, tracked.text).toBe(200);
    const homeOrder = (await call(orderRoute, "GET", `/v1/orders/${home.id}`, { token: owner.token, params: { id: home.id } })).json;
    expect(homeOrder).toMatchObject({ status: "shipped", tracking_number: "1Z999", carrier: "UPS" });
  }, 180_000);
});

describe("a restart during a batch render", () => {
  it("resumes after the finished steps and finishes the batch once, rendering nothing twice", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, PRODUCTS.slice(0, 1));
    for (let i = 0; i < 6; i++) {
      const kid = await shop.child(`Kid ${i}`, "1A", "Ms Lee");
      await shop.paidOrder(kid, false, [{ ref: "iwallet", quantity: 1, crop: PORTRAIT }, { ref: "pkg", kind: "package", quantity: 1, crop: PORTRAIT }]);
    }
    const db = await getDb();
    const created = await createBatch(owner.token, { shipping: "direct", job_id: Number(shop.studio.jobId) });
    expect(created.status, created.text).toBe(202);
    expect(created.json.progress.total).toBe(12);
    const [run] = await db.select().from(jobRuns).where(eq(jobRuns.functionId, "production-batch")).orderBy(jobRuns.createdAt);
    const runId = (await db.select().from(jobRuns).where(eq(jobRuns.functionId, "production-batch"))).find((r) => JSON.stringify(r.eventData).includes(created.json.id))?.id ?? run!.id;
    // Stop the server's runner as soon as the first render step is recorded (the second is under way).
    for (let i = 0; i < 2000; i++) {
      const steps = await db.select({ id: jobSteps.stepId }).from(jobSteps).where(eq(jobSteps.runId, runId));
      if (steps.some((s) => s.id === "render-0")) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await stopJobRunner({ drainMs: 0 });
    const before = await db.select().from(printFiles).where(and(eq(printFiles.accountId, owner.account.id), eq(printFiles.status, "rendered")));
    expect(before.length).toBeGreaterThanOrEqual(4);
    expect(before.length).toBeLessThan(12);
    expect((await getBatch(owner.token, created.json.id)).json.status).toBe("rendering");

    await startRunner();
    const batch = await waitReady(owner.token, created.json.id);
    expect(batch.progress).toEqual({ total: 12, rendered: 12, held: 0, pending: 0 });
    const after = await db.select().from(printFiles).where(eq(printFiles.accountId, owner.account.id));
    for (const b of before) expect(after.find((a) => a.id === b.id)!.renderedAt).toEqual(b.renderedAt);
    const steps = (await db.select({ id: jobSteps.stepId }).from(jobSteps).where(eq(jobSteps.runId, runId))).map((s) => s.id).sort();
    expect(steps).toEqual(["finish", "list-files", "render-0", "render-4", "render-8"].sort());
    const [done] = await db.select().from(jobRuns).where(eq(jobRuns.id, runId));
    expect(done!.status).toBe("completed");
    expect(await db.select().from(orders).where(eq(orders.accountId, owner.account.id))).toHaveLength(6);
  }, 180_000);
});

describe("a batch whose job fails", () => {
  it("says why, and lets go of its prints so the next batch takes them without rendering again", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, PRODUCTS.slice(0, 1));
    for (let i = 0; i < 2; i++) await shop.paidOrder(await shop.child(`Kid ${i}`, "1A", "Ms Lee"), false, [{ ref: "iwallet", quantity: 1, crop: PORTRAIT }]);
    const db = await getDb();
    await stopJobRunner({ drainMs: 0 });
    const created = await createBatch(owner.token, { shipping: "direct", job_id: Number(shop.studio.jobId) });
    // The first print rendered by the job's own step, then the job gives up (its last attempt failed).
    const [first] = await db.select().from(printFiles).where(eq(printFiles.batchId, created.json.id)).orderBy(printFiles.id);
    await renderPrintFiles(db, owner.account.id, [first!.id]);
    const { renderedAt } = await fileOf(first!.id);
    await productionBatch.onFailure({ event: { name: "production/batch.requested", data: { batchId: created.json.id, accountId: owner.account.id } }, error: { name: "Error", message: "disk on fire" }, step: {} as never, runId: "run_x" } as never);
    const failed = (await getBatch(owner.token, created.json.id)).json;
    expect(failed).toMatchObject({ status: "failed", error: expect.stringContaining("error on our side"), progress: { total: 0 } });
    expect(failed.error).not.toContain("disk on fire");
    await startRunner();
    const again = await createBatch(owner.token, { shipping: "direct", job_id: Number(shop.studio.jobId) });
    expect(again.status, again.text).toBe(202);
    const ready = await waitReady(owner.token, again.json.id);
    expect(ready.progress).toEqual({ total: 2, rendered: 2, held: 0, pending: 0 });
    expect((await fileOf(first!.id)).renderedAt).toEqual(renderedAt);
  }, 120_000);
});

describe("production routes", () => {
  it("name the field of bad input, and answer 404 for another studio's batch and order", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, PRODUCTS.slice(0, 1));
    const kid = await shop.child("Ada Park", "2B", "Ms Baker");
    const order = await shop.paidOrder(kid, false, [{ ref: "iwallet", quantity: 1, crop: PORTRAIT }]);
    const field = (res: { json: { details: { fields: { field: string }[] } } }) => res.json.details.fields.map((f) => f.field);

    const none = await createBatch(owner.token, { shipping: "direct" });
    expect(none.status).toBe(400);
    expect(field(none)).toContain("job_id");
    const air = await createBatch(owner.token, { shipping: "air", job_id: 1 });
    expect([air.status, field(air)]).toEqual([400, ["shipping"]]);
    const day = await createBatch(owner.token, { shipping: "school", paid_on: "12/15/2026" });
    expect([day.status, field(day)]).toEqual([400, ["paid_on"]]);
    const extra = await createBatch(owner.token, { shipping: "direct", job_id: 1, rush: true });
    expect(extra.status).toBe(400);
    expect(extra.text).toContain("rush");
    expect((await createBatch(owner.token, { shipping: "direct", job_id: 999999 })).json.error).toBe("NOTHING_TO_BATCH");
    const badColumns = await call(settingsRoute, "PUT", "/v1/production/settings", { token: owner.token, body: { manifest_columns: { order: "A", item: "A" } } });
    expect(badColumns.status).toBe(400);
    expect(field(badColumns)[0]).toContain("manifest_columns");
    const unknownColumn = await call(settingsRoute, "PUT", "/v1/production/settings", { token: owner.token, body: { manifest_columns: { price: "Price" } } });
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.text).toContain("price");

    const created = await createBatch(owner.token, { shipping: "direct", job_id: Number(shop.studio.jobId) });
    const id = created.json.id as string;
    const badStep = await moveBatch(owner.token, id, { status: "lost" });
    expect([badStep.status, field(badStep)]).toEqual([400, ["status"]]);
    await waitReady(owner.token, id);

    const other = await testAccount();
    expect((await getBatch(other.token, id)).status).toBe(404);
    expect((await moveBatch(other.token, id, { status: "sent" })).status).toBe(404);
    expect((await download(zipRoute, other.token, id, "zip")).status).toBe(404);
    expect((await download(slipsRoute, other.token, id, "slips")).status).toBe(404);
    expect((await call(orderFilesRoute, "GET", `/v1/production/orders/${order.id}/print-files`, { token: other.token, params: { id: order.id } })).status).toBe(404);
    const list = await call(batchesRoute, "GET", "/v1/production/batches", { token: other.token });
    expect(list.json.data).toEqual([]);
    expect((await call(batchesRoute, "GET", "/v1/production/batches", { token: owner.token })).json.data.map((b: { id: string }) => b.id)).toEqual([id]);
  }, 120_000);
});
