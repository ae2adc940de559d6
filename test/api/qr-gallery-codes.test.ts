import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as preview from "@/app/v1/services/studio/qr/preview/route";
import * as served from "@/app/files/[...key]/route";
import { getDb } from "@/lib/foundation/db/client";
import { walletTransactions } from "@/lib/foundation/db/schema";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { readCards, shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { qrPayload } from "@/lib/services/qr/payload";
import { PAGE_SIZES, cardCells } from "@/lib/services/qr/layouts";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { forEachRenderedPage, pdfText, type Pixels } from "../support/pdf-render";
import { scanQrCodes } from "../support/qr-scan";
import { sortedPictureDay, type SortedJob } from "../support/sorted-job";
import { enterCode, listGalleries, publishGalleries } from "../support/galleries";

// Bulk QR cards printed before the shoot with each child's gallery code
// (gallery_job_id): the code line and a second QR to the parent's gallery, read
// back from the PDF by pdfjs and ZXing; the sorting QR still read by the sort's
// own card reader; the same codes opened by publishing, never before.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
});

const CODE = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;
const roster = [
  { student_id: "S1", name: "Ann Archer", class_name: "2B" },
  { student_id: "S2", name: "Ben Brook", class_name: "2B" },
  { student_id: "S3", name: "Cat Crane", class_name: "2B" },
];

let owner: Awaited<ReturnType<typeof testAccount>>;
let job: SortedJob;
let printed: Record<string, string>;

async function cardsPdf(token: string, body: Record<string, unknown>) {
  const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body });
  expect(res.status, res.text).toBe(200);
  const u = new URL(res.json.pdf_url);
  const file = await served.GET(new Request(u), { params: Promise.resolve({ key: u.pathname.replace(/^\/files\//, "").split("/") }) });
  return { json: res.json, pdf: Buffer.from(await file.arrayBuffer()) };
}

/** Every card of the first page cut out as a guillotine would, at `dpi`. */
async function cardImages(pdf: Buffer, layout: "4up" | "9up", dpi: number): Promise<Pixels[]> {
  const scale = dpi / 72;
  const cards: Pixels[] = [];
  await forEachRenderedPage(pdf, dpi, (page) => {
    if (page.pageNumber !== 1) return;
    for (const cell of cardCells(layout, "letter")) {
      const top = Math.round((PAGE_SIZES.letter.height - cell.y - cell.height) * scale);
      cards.push(page.crop(Math.round(cell.x * scale), top, Math.round(cell.width * scale), Math.round(cell.height * scale)));
    }
  });
  return cards;
}

const balance = async (accountId: string) => getBalance(await getDb(), accountId);
const ledger = async (accountId: string) => (await getDb()).select().from(walletTransactions).where(eq(walletTransactions.accountId, accountId));

describe("gallery codes on Bulk QR cards", () => {
  it("prints each child's code and a second QR to its gallery; the sorting QR still reads as the card", async () => {
    owner = await testAccount({ tokens: 100, plan: "premium" });
    job = await sortedPictureDay(owner.token);
    const { json, pdf } = await cardsPdf(owner.token, { job_id: "PD-2026", layout: "9up", gallery_job_id: job.jobId, subjects: roster });
    expect(json).toMatchObject({ total_subjects: 3, tokens_deducted: 3 });

    // 9up is the smallest card: its gallery QR is read at 200 dpi (a phone at a hand's length sees more).
    const cards = await cardImages(pdf, "9up", 200);
    printed = {};
    for (const [i, s] of roster.entries()) {
      const codes = await scanQrCodes(cards[i]!);
      expect(codes, s.student_id).toHaveLength(2);
      expect(codes).toContain(qrPayload("PD-2026", s.student_id));
      const link = codes.find((c) => c !== qrPayload("PD-2026", s.student_id))!;
      const url = new URL(link);
      expect(url.pathname).toBe("/g");
      const code = url.searchParams.get("code")!;
      expect(code).toMatch(CODE);
      printed[s.student_id] = code;
    }
    expect(new Set(Object.values(printed)).size).toBe(3);
    // The code is text on its own card, beside that child's name only.
    const text = (await pdfText(pdf)).replace(/\s+/g, " ");
    for (const s of roster) expect(text).toContain(`Gallery code ${printed[s.student_id]}`);
    expect(await scanQrCodes(cards[3]!)).toEqual([]);

    // The QR sort's own reader (what files the photos) still finds the card's payload.
    const png = await sharp(Buffer.from(cards[0]!.data), { raw: { width: cards[0]!.width, height: cards[0]!.height, channels: 4 } }).png().toBuffer();
    expect((await readCards(png)).codes).toContain(qrPayload("PD-2026", "S1"));
  }, 400_000);

  it("a code from a card opens nothing before publishing; publishing opens exactly it, and keeps it", async () => {
    expect((await enterCode(printed.S1!)).status).toBe(401);
    // A second print run (a lost card) prints the same codes.
    const again = await cardsPdf(owner.token, { job_id: "PD-2026", layout: "4up", gallery_job_id: job.jobId, subjects: [roster[1]] });
    expect((await pdfText(again.pdf)).replace(/\s+/g, " ")).toContain(`Gallery code ${printed.S2}`);

    expect((await publishGalleries(owner.token, job.agencyId, job.jobId)).status).toBe(200);
    const codes = () => listGalleries(owner.token, job.agencyId, job.jobId).then((l) => Object.fromEntries(l.filter((g) => g.kind === "subject").map((g) => [g.student_id, g.access_code])));
    expect(await codes()).toEqual(printed);
    const access = await enterCode(printed.S2!);
    expect(access.status, access.text).toBe(200);
    expect(access.json.galleries.map((g: { kind: string; title: string }) => [g.kind, g.title])).toEqual([["subject", "Ben Brook"]]);
    expect((await publishGalleries(owner.token, job.agencyId, job.jobId)).status).toBe(200);
    expect(await codes()).toEqual(printed);
  }, 200_000);

  it("the preview shows the same codes, free", async () => {
    const before = await balance(owner.account.id);
    const res = await preview.POST(
      new Request("http://localhost:3000/v1/services/studio/qr/preview", {
        method: "POST",
        headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
        body: JSON.stringify({ job_id: "PD-2026", gallery_job_id: job.jobId, subjects: roster }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    const text = (await pdfText(Buffer.from(await res.arrayBuffer()))).replace(/\s+/g, " ");
    for (const s of roster) expect(text).toContain(`Gallery code ${printed[s.student_id]}`);
    expect(await balance(owner.account.id)).toBe(before);
  }, 60_000);

  it("another studio's job is a 404 and a student not on the roster a 400, both charging nothing", async () => {
    const other = await testAccount({ tokens: 10 });
    for (const route of [generate, preview]) {
      const res = await call(route, "POST", "/v1/services/studio/qr/generate", { token: other.token, body: { job_id: "X", gallery_job_id: job.jobId, subjects: roster } });
      expect([res.status, res.json.error]).toEqual([404, "NOT_FOUND"]);
      // Nothing of the job leaks into the answer.
      expect(res.text).not.toMatch(/Ann|Ben|Cat|[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}/);
    }
    expect(await balance(other.account.id)).toBe(10);
    expect((await ledger(other.account.id)).filter((e) => e.type === "debit")).toEqual([]);

    const before = await balance(owner.account.id);
    const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token: owner.token, body: { job_id: "PD-2026", gallery_job_id: job.jobId, subjects: [...roster, { student_id: "S9", name: "New Kid" }] } });
    expect([res.status, res.json.error, res.json.details?.student_ids]).toEqual([400, "SUBJECT_NOT_ON_ROSTER", ["S9"]]);
    expect(await balance(owner.account.id)).toBe(before);
  }, 60_000);

  it("the preview checks every card against the roster, not only its first page's", async () => {
    // One card a page: the stranger is on page 4 of the run, not on the page the preview draws.
    const subjects = [...roster, { student_id: "S9", name: "New Kid" }];
    const res = await call(preview, "POST", "/v1/services/studio/qr/preview", { token: owner.token, body: { job_id: "PD-2026", layout: "single", gallery_job_id: job.jobId, subjects } });
    expect([res.status, res.json.error, res.json.details?.student_ids]).toEqual([400, "SUBJECT_NOT_ON_ROSTER", ["S9"]]);
  }, 60_000);
});
