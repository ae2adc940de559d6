import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { resetConfig } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { shutDownFaces, warmUpFaces } from "@/lib/engines/ml/faces";
import { testAccount } from "../http";
import { balanceOf, ledgerOf } from "../jobs/bg-remove-harness";
import { cropUpload, cropUrls, getTask, imageHost, recrop, uploadForm } from "../jobs/face-crop-harness";
import { faceFixture, headNearTheTop, onePixelPng, pngHeaderOnly, truncated } from "../support/face-fixtures";
import { fieldErrorList } from "@/lib/client/field-errors";

// Face Crop answered at once: the URL form and small uploads. Real routes, the real
// engine in its worker thread (one model load for the file), real storage and ledger.
process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
resetConfig();

let host: Awaited<ReturnType<typeof imageHost>>;
const url = (name: string) => `${host.base}/${name}`;

beforeAll(async () => {
  const nearTop = await headNearTheTop();
  host = await imageHost({
    "near-top.jpg": nearTop,
    "obama.jpg": faceFixture("obama.jpg"),
    "biden.jpg": faceFixture("biden.jpg"),
    "head-and-shoulders.jpg": faceFixture("obama2.jpg"),
    "group.jpg": faceFixture("obama_and_biden.jpg"),
    "partial.jpg": faceFixture("obama_partial_face.jpg"),
    "coffee.jpg": faceFixture("coffee.jpg"),
    "truncated.jpg": truncated(faceFixture("obama.jpg")),
    "text.jpg": Buffer.from("this is not a photo"),
  });
  // The worker and its models (Human, the selfie model) load here, not inside the first test's 30 s.
  await warmUpFaces();
}, 120_000);
afterAll(async () => {
  await host.close();
  await shutDownFaces();
});

async function readStored(signedUrl: string) {
  const key = storage().keyFromOwnUrl(signedUrl);
  if (!key) throw new Error(`not one of our signed URLs: ${signedUrl}`);
  return (await storage().get(key))!.body;
}

describe("POST /v1/services/studio/face-crop (URLs)", () => {
  it("crops one photo: 2 tokens, face box in upright pixels, original at full resolution and an 800 px medium", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await cropUrls(token, { image_url: url("obama.jpg"), icp_type: "school" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ tokens_deducted: 2, wallet_transaction_id: expect.stringMatching(/^wtx_/) });
    const [r] = res.json.results;
    expect(r).toMatchObject({ filename: "obama.jpg", icp_type: "school", faces_found: 1, enhancement: "none", crown_source: "matte", landmark_model: "face-api-landmark68" });
    expect(Object.keys(r.landmarks).sort()).toEqual(["chin", "crown", "left_eye", "right_eye"]);
    // Crown above the eyes above the chin, in upright source pixels.
    expect(r.landmarks.crown.y).toBeLessThan(r.landmarks.left_eye.y);
    expect(r.landmarks.left_eye.y).toBeLessThan(r.landmarks.chin.y);
    expect(r.face_box.x).toBeGreaterThan(200);
    expect(r.face_box.x + r.face_box.w).toBeLessThanOrEqual(640);
    const original = await sharp(await readStored(r.output_urls.original)).metadata();
    expect(original.width! / original.height!).toBeCloseTo(0.8, 2);
    expect([original.width, original.height]).toEqual([r.output_size.width, r.output_size.height]);
    const medium = await sharp(await readStored(r.output_urls.medium)).metadata();
    expect(Math.max(medium.width!, medium.height!)).toBeLessThanOrEqual(800);
    expect(await balanceOf(token)).toBe(98);
  }, 60_000); // the file's first request: the routes and the database warm up inside it (20-25 s on a shared machine)

  it("sports crop of a head near the top: padded (not zoomed) and says where; a face the photo cuts fails and is refunded", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await cropUrls(token, { image_urls: [url("near-top.jpg"), url("partial.jpg")], icp_type: "sports" });
    expect(res.status).toBe(200);
    const [padded, cut] = res.json.results;
    expect(padded).toMatchObject({ filename: "near-top.jpg", edge: "padded", padded: true });
    expect(padded.padding.top).toBeGreaterThan(50);
    // The frame, levelled to the eyes' roll (-0.9°; the markup's -1.5°, landmarks.json), spans
    // 650 px across in a 640 px photo: it is centred on the photo, so the strip of fill is shared
    // by the two sides (it was 36 px on the right alone): far less than above the head, which is
    // what this photo is for.
    expect(Math.abs(padded.padding.left - padded.padding.right)).toBeLessThanOrEqual(2);
    expect(padded.padding.left + padded.padding.right).toBeLessThan(padded.padding.top / 2);
    const out = await sharp(await readStored(padded.output_urls.original)).metadata();
    expect(out.width! / out.height!).toBeCloseTo(2 / 3, 2);
    expect(cut).toMatchObject({ filename: "partial.jpg", error: { code: "FACE_CUT_BY_EDGE", message: expect.stringContaining("not charged") } });
    expect(res.json).toMatchObject({ tokens_deducted: 2, tokens_refunded: 2 });
    expect(await balanceOf(token)).toBe(98);
    const refunds = (await ledgerOf(token)).filter((t) => t.type === "refund");
    expect(refunds).toMatchObject([{ amount: 2, refund_of: res.json.wallet_transaction_id }]);
  });

  it("sports frame around a head-and-shoulders photo: more than 40 % would be fill, so TOO_MUCH_PADDING and refunded (issue 33)", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await cropUrls(token, { image_urls: [url("head-and-shoulders.jpg"), url("obama.jpg")], icp_type: "sports" });
    expect(res.status).toBe(200);
    const [refused, ok] = res.json.results;
    expect(refused).toMatchObject({ filename: "head-and-shoulders.jpg", error: { code: "TOO_MUCH_PADDING", message: expect.stringMatching(/limit is 40 %.*not charged/) } });
    expect(refused.output_urls).toBeUndefined();
    expect(ok).toMatchObject({ filename: "obama.jpg", icp_type: "sports" });
    const p = ok.padding;
    const { width: w, height: h } = ok.output_size;
    expect(1 - ((w - p.left - p.right) * (h - p.top - p.bottom)) / (w * h)).toBeLessThanOrEqual(0.4);
    expect(res.json).toMatchObject({ tokens_deducted: 2, tokens_refunded: 2 });
    expect(await balanceOf(token)).toBe(98);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toMatchObject([{ amount: 2, refund_of: res.json.wallet_transaction_id }]);
  });

  it("bills a mixed batch for its successes only: one debit, one refund of the failed files referencing it", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await cropUrls(token, {
      image_urls: [url("obama.jpg"), url("coffee.jpg"), url("group.jpg"), url("truncated.jpg"), url("text.jpg"), url("missing.jpg")],
      icp_type: "corporate",
    });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.json.results.map((r: { filename: string }) => [r.filename, r]));
    expect(byName["coffee.jpg"].error.code).toBe("NO_FACE_FOUND");
    expect(byName["truncated.jpg"].error.code).toBe("UNREADABLE_IMAGE");
    expect(byName["text.jpg"].error.code).toBe("UNREADABLE_IMAGE");
    expect(byName["missing.jpg"].error.code).toBe("FETCH_FAILED");
    expect(byName["group.jpg"].faces_found).toBe(3);
    expect(res.json.tokens_deducted).toBe(4);
    expect(await balanceOf(token)).toBe(96);
    const ledger = await ledgerOf(token);
    const debit = ledger.find((t) => t.type === "debit");
    const refunds = ledger.filter((t) => t.type === "refund");
    expect(debit.amount).toBe(-12);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 8, refund_of: res.json.wallet_transaction_id });
  });

  it("with enhance: 6 tokens a photo, and the batch becomes a task (super-resolution is never on the request's path)", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await cropUrls(token, { image_urls: [url("obama.jpg"), url("coffee.jpg")], icp_type: "school", enhance: true });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ task_id: expect.stringMatching(/^task_/), status: "queued", total_files: 2, tokens_deducted: 12 });
    expect(await balanceOf(token)).toBe(88);
  });

  it("answers 402 with the contract's body when the wallet is short, and charges nothing", async () => {
    const { token } = await testAccount({ tokens: 3 });
    const res = await cropUrls(token, { image_urls: [url("obama.jpg"), url("biden.jpg")], icp_type: "school" });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ error: "INSUFFICIENT_TOKENS", balance: 3, shortfall: 1, top_up_url: expect.any(String) });
    expect(await balanceOf(token)).toBe(3);
  });

  it("refuses bad input with a 400 naming the field, before charging", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const cases: [unknown, string][] = [
      [{ icp_type: "school" }, "image_url"],
      [{ image_url: url("obama.jpg"), image_urls: [url("obama.jpg")], icp_type: "school" }, "image_urls"],
      [{ image_urls: [], icp_type: "school" }, "image_urls"],
      [{ image_urls: Array.from({ length: 21 }, () => url("obama.jpg")), icp_type: "school" }, "image_urls"],
      [{ image_url: url("obama.jpg"), icp_type: "passport" }, "icp_type"],
      [{ image_url: url("obama.jpg"), icp_type: "school", enhance: "yes" }, "enhance"],
      [{ image_url: "not a url", icp_type: "school" }, "image_url"],
    ];
    for (const [body, field] of cases) {
      const res = await cropUrls(token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(fieldErrorList(res.json).map((f) => f.field).join(" ")).toContain(field);
    }
    for (const [i, bad] of ["http://192.168.1.10/a.jpg", "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/x.jpg"].entries()) {
      const res = await cropUrls(token, { image_urls: [url("obama.jpg"), bad], icp_type: "school" });
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.json), `${i}`).toContain("image_urls[1]");
    }
    expect(await balanceOf(token)).toBe(100);
    expect((await ledgerOf(token)).filter((t) => t.type !== "grant" && t.type !== "signup_bonus" && t.amount < 0)).toHaveLength(0);
  });
});

describe("POST /v1/services/studio/face-crop/upload (small batches, 200)", () => {
  it("crops uploaded parts at once; parts that are not photos are listed with their reason and never charged", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const form = uploadForm([
      { name: "a.jpg", bytes: faceFixture("obama.jpg") },
      { name: "statement.jpg", bytes: Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF") },
      { name: "notes.jpg", bytes: Buffer.from("hello, just text") },
      { name: "dot.png", bytes: await onePixelPng(), type: "image/png" },
      { name: "huge.png", bytes: pngHeaderOnly(20_000, 20_000), type: "image/png" },
      { name: "cup.jpg", bytes: faceFixture("coffee.jpg") },
    ]);
    const res = await cropUpload(token, form);
    expect(res.status).toBe(200);
    const codes = res.json.results.map((r: { error?: { code: string } }) => r.error?.code ?? "ok");
    expect(codes).toEqual(["ok", "UNSUPPORTED_FILE_TYPE", "UNSUPPORTED_FILE_TYPE", "IMAGE_TOO_SMALL", "IMAGE_TOO_LARGE", "NO_FACE_FOUND"]);
    // Debited for the two photos that could be tried, refunded for the cup.
    const ledger = await ledgerOf(token);
    expect(ledger.find((t) => t.type === "debit").amount).toBe(-4);
    expect(ledger.filter((t) => t.type === "refund")).toMatchObject([{ amount: 2 }]);
    expect(res.json.tokens_deducted).toBe(2);
    expect(await balanceOf(token)).toBe(98);
  });

  it("refuses bad forms before charging", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const photo = { name: "a.jpg", bytes: faceFixture("obama.jpg") };
    expect((await cropUpload(token, uploadForm([photo], {}))).json.details.fields[0].field).toBe("icp_type");
    expect((await cropUpload(token, uploadForm([photo], { icp_type: "school", enhance: "yes" }))).json.details.fields[0].field).toBe("enhance");
    expect((await cropUpload(token, uploadForm([], { icp_type: "school" }))).json.details.fields[0].field).toBe("file[]");
    const many = await cropUpload(token, uploadForm(Array.from({ length: 300 }, (_, i) => ({ name: `${i}.jpg`, bytes: Buffer.from("x") }))));
    expect(many.status).toBe(400);
    expect(many.json.error).toBe("TOO_MANY_FILES");
    const junk = await cropUpload(token, uploadForm([{ name: "a.jpg", bytes: Buffer.from("text") }]));
    expect(junk.status).toBe(400);
    expect(junk.json).toMatchObject({ error: "NO_USABLE_FILES", details: { files: [{ filename: "a.jpg", error: { code: "UNSUPPORTED_FILE_TYPE" } }] } });
    expect(await balanceOf(token)).toBe(100);
  });
});

describe("re-crop by hand and cross-account access", () => {
  it("re-crops a result for free, and another account sees neither the task nor the result", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const other = await testAccount({ tokens: 100 });
    const res = await cropUrls(token, { image_url: url("obama.jpg"), icp_type: "school" });
    const result = res.json.results[0];
    const edited = await recrop(token, result.result_id, { crop_box: { x: 100, y: 40, w: 400, h: 500 } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ manual: true, crop_box: { x: 100, y: 40, w: 400, h: 500, angle: 0 }, output_size: { width: 400, height: 500 } });
    expect(edited.json.output_urls.original).not.toBe(result.output_urls.original);
    expect(await balanceOf(token)).toBe(98);
    expect((await recrop(token, result.result_id, { crop_box: { x: 500, y: 40, w: 400, h: 500 } })).status).toBe(400);
    expect((await recrop(token, result.result_id, { crop_box: { x: 0, y: 0, w: 400 } })).status).toBe(400);

    expect((await recrop(other.token, result.result_id, { crop_box: { x: 0, y: 0, w: 100, h: 100 } })).status).toBe(404);
    expect((await getTask(other.token, res.json.task_id)).status).toBe(404);
    expect((await getTask(token, res.json.task_id)).json).toMatchObject({ status: "completed", total_files: 1, progress: { current: 1, total: 1, percentage: 100 } });
  });
});

describe("a batch whose process died mid-request", () => {
  it("is ended by the maintenance sweep: what was not cropped is failed and refunded, once", async () => {
    const { getDb } = await import("@/lib/foundation/db/client");
    const { faceCropTasks } = await import("@/lib/foundation/db/schema");
    const { eq } = await import("drizzle-orm");
    const { acceptTask } = await import("@/lib/services/face-crop/accept-task");
    const { sweepOnce } = await import("@/lib/composition/maintenance/sweeper");
    const { token, account } = await testAccount({ tokens: 100 });
    const db = await getDb();
    // Accepted and debited like a sync request, then never processed (the process "died").
    const task = await acceptTask(db, account.id, { icpType: "school", enhance: false, mode: "sync", files: [{ kind: "url", filename: "a.jpg", url: url("obama.jpg") }, { kind: "url", filename: "b.jpg", url: url("biden.jpg") }] });
    expect(await balanceOf(token)).toBe(96);
    await db.update(faceCropTasks).set({ createdAt: new Date(Date.now() - 31 * 60_000) }).where(eq(faceCropTasks.id, task.id));
    expect((await sweepOnce(db)).faceCropTasks).toBeGreaterThanOrEqual(1);
    expect((await sweepOnce(db)).faceCropTasks).toBe(0);
    const ended = (await getTask(token, task.id)).json;
    expect(ended).toMatchObject({ status: "failed", tokens_deducted: 0, tokens_refunded: 4 });
    expect(ended.results.map((r: { error: { code: string } }) => r.error.code)).toEqual(["PROCESSING_FAILED", "PROCESSING_FAILED"]);
    expect(await balanceOf(token)).toBe(100);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
  });
});
