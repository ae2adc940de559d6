import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/foundation/db/client";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { resetPreflightConfig } from "@/lib/services/preflight/preflight-config";
import { quotaPeriod, releaseCheck, reserveCheck, usedChecks } from "@/lib/services/preflight/quota";
import { cleanRgb } from "../fixtures/preflight/raster-fixtures";
import { createCheck, deleteReport, uploadBytes } from "../fixtures/preflight/api";
import { testAccount } from "../http";

let fileUrl = "";
const body = () => ({ designId: "quota", fileUrl, canvasWidthInches: 1, canvasHeightInches: 0.8 });

beforeAll(async () => {
  process.env.PREFLIGHT_QUOTA_FREE = "2";
  process.env.PREFLIGHT_QUOTA_PREMIUM = "3";
  resetPreflightConfig();
  const { token } = await testAccount();
  fileUrl = await uploadBytes(token, await cleanRgb(300, 240, "jpeg"));
});
afterAll(() => {
  delete process.env.PREFLIGHT_QUOTA_FREE;
  delete process.env.PREFLIGHT_QUOTA_PREMIUM;
  resetPreflightConfig();
});

describe("monthly preflight quota", () => {
  it("refuses the check past the plan's limit with 402 PLAN_QUOTA_EXCEEDED and never touches tokens", async () => {
    const { token, account } = await testAccount({ tokens: 50 });
    expect((await createCheck(token, body())).status).toBe(201);
    expect((await createCheck(token, body())).status).toBe(201);
    const refused = await createCheck(token, body());
    expect(refused.status).toBe(402);
    const { resetsAt } = quotaPeriod();
    expect(refused.json).toMatchObject({ error: "PLAN_QUOTA_EXCEEDED", limit: 2, used: 2, resets_at: resetsAt.toISOString() });
    expect(refused.json.message).toContain("free plan includes 2 preflight checks a month");
    expect(new Date(refused.json.resets_at).getUTCDate()).toBe(1);
    expect(await getBalance(await getDb(), account.id)).toBe(50);
  });

  it("counts by plan (premium limit from PREFLIGHT_QUOTA_PREMIUM)", async () => {
    const { token } = await testAccount({ plan: "premium" });
    for (let i = 0; i < 3; i++) expect((await createCheck(token, body())).status).toBe(201);
    expect((await createCheck(token, body())).json).toMatchObject({ error: "PLAN_QUOTA_EXCEEDED", limit: 3, used: 3 });
  });

  it("does not give the quota back when a report is deleted", async () => {
    const { token } = await testAccount();
    const first = await createCheck(token, body());
    await createCheck(token, body());
    expect((await deleteReport(token, first.json.data.reportId)).status).toBe(204);
    expect((await createCheck(token, body())).status).toBe(402);
  });

  it("does not count refused or failed checks", async () => {
    const { token, account } = await testAccount();
    expect((await createCheck(token, { ...body(), fileUrl: "http://192.168.1.20/x.pdf" })).status).toBe(400);
    // A WebP is a valid upload but not a preflight type: refused after the check was reserved, then released.
    const webpUrl = await uploadBytes(token, await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } }).webp().toBuffer());
    expect((await createCheck(token, { ...body(), fileUrl: webpUrl })).status).toBe(415);
    expect(await usedChecks(await getDb(), account.id)).toBe(0);
    expect((await createCheck(token, body())).status).toBe(201);
    expect(await usedChecks(await getDb(), account.id)).toBe(1);
  });

  it("never lets concurrent checks pass the limit", async () => {
    const { token, account } = await testAccount();
    const results = await Promise.all(Array.from({ length: 6 }, () => createCheck(token, body())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 402)).toHaveLength(4);
    expect(await usedChecks(await getDb(), account.id)).toBe(2);
  });

  it("starts again each UTC month and releases at most what was reserved", async () => {
    const db = await getDb();
    const { account } = await testAccount();
    const november = new Date("2026-11-30T23:59:59Z");
    const december = new Date("2026-12-01T00:00:00Z");
    await reserveCheck(db, account.id, "free", november);
    const r = await reserveCheck(db, account.id, "free", november);
    await expect(reserveCheck(db, account.id, "free", november)).rejects.toMatchObject({ code: "PLAN_QUOTA_EXCEEDED" });
    const dec = await reserveCheck(db, account.id, "free", december);
    expect(dec.periodStart).toBe("2026-12-01");
    expect(quotaPeriod(november).resetsAt.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    await releaseCheck(db, r);
    expect(await usedChecks(db, account.id, "2026-11-01")).toBe(1);
    await releaseCheck(db, r);
    await releaseCheck(db, r);
    expect(await usedChecks(db, account.id, "2026-11-01")).toBe(0);
  });
});
