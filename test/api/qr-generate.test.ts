import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { PDFDocument } from "pdf-lib";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as preview from "@/app/v1/services/studio/qr/preview/route";
import * as uploads from "@/app/v1/uploads/route";
import * as served from "@/app/files/[...key]/route";
import { getDb } from "@/lib/foundation/db/client";
import { qrGenerations, walletTransactions } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { call, testAccount } from "../http";

const PATH = "/v1/services/studio/qr/generate";

const roster = (n: number, prefix = "S") => Array.from({ length: n }, (_, i) => ({ student_id: `${prefix}${1000 + i}`, name: `Student ${i}`, class_name: "5A" }));

async function ledger(accountId: string) {
  const db = await getDb();
  return db.select().from(walletTransactions).where(eq(walletTransactions.accountId, accountId)).orderBy(walletTransactions.seq);
}

async function balance(accountId: string) {
  return getBalance(await getDb(), accountId);
}

async function uploadBytes(token: string, bytes: Buffer, name: string, type: string): Promise<string> {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name, { type }));
  const res = await call(uploads, "POST", "/v1/uploads", { token, rawBody: form });
  expect(res.status).toBe(201);
  return res.json.url as string;
}

async function download(url: string) {
  const u = new URL(url);
  const res = await served.GET(new Request(u), { params: Promise.resolve({ key: u.pathname.replace(/^\/files\//, "").split("/") }) });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const logoPng = () =>
  sharp({ create: { width: 240, height: 120, channels: 4, background: { r: 20, g: 80, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();

describe("POST /v1/services/studio/qr/generate: billing", () => {
  it("debits exactly 1 token per subject, references the run, and returns a signed 24-hour PDF URL", async () => {
    const { token, account } = await testAccount({ tokens: 50 });
    const res = await call(generate, "POST", PATH, { token, body: { job_id: "SPRING-2026", school_name: "Lincoln Elementary", subjects: roster(7) } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: expect.stringMatching(/^qrg_/),
      job_id: "SPRING-2026",
      total_subjects: 7,
      pdf_url: expect.stringContaining("/files/qr/"),
      tokens_deducted: 7,
      wallet_transaction_id: expect.stringMatching(/^wtx_/),
      layout: "4up",
      page_size: "letter",
      pages: 2,
    });
    expect(new Date(res.json.expires_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(await balance(account.id)).toBe(43);
    const entries = await ledger(account.id);
    expect(entries.at(-1)).toMatchObject({ id: res.json.wallet_transaction_id, type: "debit", amount: -7, balanceAfter: 43, operation: "bulk_qr", reference: res.json.id });

    const { res: file, bytes } = await download(res.json.pdf_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toContain("qr-cards-SPRING-2026.pdf");
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });

    const db = await getDb();
    const [run] = await db.select().from(qrGenerations).where(eq(qrGenerations.id, res.json.id));
    expect(run).toMatchObject({ status: "completed", totalSubjects: 7, pages: 2, walletTransactionId: res.json.wallet_transaction_id, jobRef: "SPRING-2026" });
  });

  it("prints on A4 when asked", async () => {
    const { token } = await testAccount({ tokens: 10 });
    const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", page_size: "a4", subjects: roster(1) } });
    const doc = await PDFDocument.load((await download(res.json.pdf_url)).bytes);
    expect(doc.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 });
  });

  it("answers a short balance with the contract's 402 body and charges nothing", async () => {
    const { token, account } = await testAccount({ tokens: 5 });
    const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", subjects: roster(6) } });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ error: "INSUFFICIENT_TOKENS", balance: 5, shortfall: 1, top_up_url: "http://localhost:3000/wallet/top-up" });
    expect(await balance(account.id)).toBe(5);
    const db = await getDb();
    expect(await db.select().from(qrGenerations).where(eq(qrGenerations.accountId, account.id))).toEqual([]);
  });

  it.each([
    ["no subjects", { job_id: "J", subjects: [] }, "subjects"],
    ["2,001 subjects", { job_id: "J", subjects: roster(2001) }, "subjects"],
    ["a missing name", { job_id: "J", subjects: [{ student_id: "S1", name: "A" }, { student_id: "S2" }] }, "subjects.1.name"],
    ["an empty name", { job_id: "J", subjects: [{ student_id: "S1", name: "   " }] }, "subjects.0.name"],
    ["a duplicate student_id", { job_id: "J", subjects: [{ student_id: "S1", name: "A" }, { student_id: "S2", name: "B" }, { student_id: "S1", name: "C" }] }, "subjects.2.student_id"],
    ["a missing job_id", { subjects: roster(1) }, "job_id"],
    ["an unknown layout", { job_id: "J", layout: "16up", subjects: roster(1) }, "layout"],
    ["an unknown field", { job_id: "J", subjects: roster(1), colour: "red" }, "colour"],
    ["a name no card font can print", { job_id: "J", subjects: [{ student_id: "S1", name: "\u{13000}" }] }, "subjects.0.name"],
  ])("refuses %s with a 400 naming the field, and charges nothing", async (_label, body, field) => {
    const { token, account } = await testAccount({ tokens: 5000, plan: "premium" });
    const res = await call(generate, "POST", PATH, { token, body });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("VALIDATION_ERROR");
    expect(res.json.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await balance(account.id)).toBe(5000);
    expect(await ledger(account.id)).toHaveLength(1); // the sign-up grant only
  });

  it("refuses a private logo URL at request time without charging", async () => {
    const { token, account } = await testAccount({ tokens: 100, plan: "premium" });
    const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", logo_url: "http://127.0.0.1/logo.png", subjects: roster(3) } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: "URL_NOT_ALLOWED", details: { field: "logo_url" } });
    expect(await balance(account.id)).toBe(100);
  });
});

describe("premium gating", () => {
  it.each([
    [{ layout: "single" }, "layout_single"],
    [{ layout: "9up" }, "layout_9up"],
    [{ layout: "4up", logo_url: "https://example.com/logo.png" }, "logo_url"],
  ])("answers 402 PREMIUM_REQUIRED on the free plan for %j, charging nothing", async (extra, feature) => {
    const { token, account } = await testAccount({ tokens: 100 });
    const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", subjects: roster(3), ...extra } });
    expect(res.status).toBe(402);
    expect(res.json).toEqual({ error: "PREMIUM_REQUIRED", feature, message: expect.stringContaining("Premium"), request_id: expect.any(String) });
    expect(await balance(account.id)).toBe(100);
    const previewed = await call(preview, "POST", "/v1/services/studio/qr/preview", { token, body: { job_id: "J", subjects: roster(3), ...extra } });
    expect(previewed.status).toBe(402);
  });

  it("lets Premium use 9up, single and a logo", async () => {
    const { token, account } = await testAccount({ tokens: 100, plan: "premium" });
    const logoUrl = await uploadBytes(token, await logoPng(), "logo.png", "image/png");
    for (const layout of ["single", "9up"] as const) {
      const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", layout, logo_url: logoUrl, school_name: "Lincoln", subjects: roster(10) } });
      expect(res.status).toBe(200);
      expect(res.json.pages).toBe(layout === "single" ? 10 : 2);
    }
    expect(await balance(account.id)).toBe(80);
    const free = await testAccount({ tokens: 100 });
    expect((await call(generate, "POST", PATH, { token: free.token, body: { job_id: "J", subjects: roster(4) } })).status).toBe(200);
  });
});

describe("refunds when generation fails", () => {
  it("refunds when the logo turns out not to be an image (found only while generating)", async () => {
    const { token, account } = await testAccount({ tokens: 100, plan: "premium" });
    // PNG magic bytes, so the upload is accepted as image/png; the rest is garbage only a decoder notices.
    const corrupt = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(300, 0x41)]);
    const logoUrl = await uploadBytes(token, corrupt, "logo.png", "image/png");
    const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", logo_url: logoUrl, subjects: roster(12) } });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ error: "LOGO_UNUSABLE", details: { field: "logo_url", tokens_refunded: 12, refund_transaction_id: expect.stringMatching(/^wtx_/) } });
    expect(res.json.message).toContain("12 tokens were refunded");
    expect(await balance(account.id)).toBe(100);
    const entries = await ledger(account.id);
    const debit = entries.find((e) => e.type === "debit")!;
    const refund = entries.find((e) => e.type === "refund")!;
    expect(debit).toMatchObject({ amount: -12, operation: "bulk_qr", reference: res.json.details.id });
    expect(refund).toMatchObject({ id: res.json.details.refund_transaction_id, amount: 12, refundOf: debit.id, balanceAfter: 100 });
    const db = await getDb();
    const [run] = await db.select().from(qrGenerations).where(and(eq(qrGenerations.id, res.json.details.id), eq(qrGenerations.accountId, account.id)));
    expect(run).toMatchObject({ status: "failed", errorMessage: expect.stringContaining("not a readable image") });
  });

  it("refunds when the logo has disappeared by the time it is fetched", async () => {
    const { token, account } = await testAccount({ tokens: 100, plan: "premium" });
    const logoUrl = await uploadBytes(token, await logoPng(), "logo.png", "image/png");
    await storage().delete(storage().keyFromOwnUrl(logoUrl)!);
    const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", logo_url: logoUrl, subjects: roster(5) } });
    expect(res.status).toBe(422);
    expect(res.json.message).toContain("could not be fetched");
    expect(await balance(account.id)).toBe(100);
  });

  it("refunds when storing the PDF fails", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    // A plain file where the account's output folder must go: the storage write fails for real.
    const blocker = path.join(config().dataDir, "files", "qr", account.id);
    fs.mkdirSync(path.dirname(blocker), { recursive: true });
    fs.writeFileSync(blocker, "not a folder");
    try {
      const res = await call(generate, "POST", PATH, { token, body: { job_id: "J", subjects: roster(9) } });
      expect(res.status).toBe(500);
      expect(res.json).toMatchObject({ error: "GENERATION_FAILED", details: { tokens_refunded: 9 } });
      expect(res.json.message).toContain("refunded");
      expect(await balance(account.id)).toBe(100);
      const entries = await ledger(account.id);
      expect(entries.map((e) => [e.type, e.amount])).toEqual([["grant", 100], ["debit", -9], ["refund", 9]]);
    } finally {
      fs.rmSync(blocker, { force: true });
    }
    // And once storage works again, the same request succeeds.
    expect((await call(generate, "POST", PATH, { token, body: { job_id: "J", subjects: roster(9) } })).status).toBe(200);
  });
});

describe("POST /v1/services/studio/qr/preview", () => {
  it("returns the first page only, stamped PREVIEW, for free", async () => {
    const { token, account } = await testAccount({ tokens: 3 });
    const res = await preview.POST(
      new Request("http://localhost:3000/v1/services/studio/qr/preview", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ job_id: "J", subjects: roster(30) }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const doc = await PDFDocument.load(Buffer.from(await res.arrayBuffer()));
    expect(doc.getPageCount()).toBe(1);
    expect(await balance(account.id)).toBe(3);
  });
});
