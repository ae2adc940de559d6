// Rosters and cards agree: every name the roster accepts prints on the Bulk QR
// cards, whole, in its own script (Hangul, Arabic joined right to left, Hebrew,
// long Latin names shrunk and wrapped, never cut), and a name no card font can
// print is refused when it is entered, naming it and the character.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as agencies from "@/app/v1/services/studio/agencies/route";
import * as subjects from "@/app/v1/services/studio/agencies/[agencyId]/subjects/route";
import * as subject from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/route";
import * as importRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/import/route";
import * as served from "@/app/files/[...key]/route";
import { PAGE_SIZES, cardCells, type Layout } from "@/lib/services/qr/layouts";
import { qrPayload } from "@/lib/services/qr/payload";
import { call, testAccount } from "../http";
import { forEachRenderedPage, pdfText } from "../support/pdf-render";
import { scanQrCodes } from "../support/qr-scan";

const run = promisify(execFile);

const LONG_LATIN = "Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff";
const NAMES = [
  { student_id: "K1", name: "김민준", class_name: "3학년 2반" },
  { student_id: "A1", name: "محمد عبد الله", class_name: "الصف الرابع" },
  { student_id: "H1", name: "שרה לוי", class_name: "כיתה ד" },
  { student_id: "L1", name: LONG_LATIN, class_name: "5B" },
  { student_id: "A2", name: "فاطمة الزهراء", class_name: "4A" },
  { student_id: "G1", name: "Ελένη Παπαδοπούλου" },
  { student_id: "C1", name: "Анастасия Кузнецова" },
  { student_id: "V1", name: "Nguyễn Thị Ánh Tuyết" },
  { student_id: "K2", name: "이서연" },
];
// Egyptian hieroglyph A001: no card font has it (the test below proves that first).
const UNPRINTABLE = "\u{13000}";

async function pdfOf(url: string): Promise<Buffer> {
  const u = new URL(url);
  const res = await served.GET(new Request(u), { params: Promise.resolve({ key: u.pathname.replace(/^\/files\//, "").split("/") }) });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

type Item = { page: number; str: string; left: number; right: number; y: number };

/** Every text item pdf.js finds, with its horizontal extent in points. */
async function textItems(pdf: Uint8Array): Promise<Item[]> {
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false, verbosity: pdfjs.VerbosityLevel.ERRORS }).promise;
  const items: Item[] = [];
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      for (const item of (await page.getTextContent()).items) {
        if (!("str" in item) || !item.str.trim()) continue;
        const [, , , , x, y] = item.transform as number[];
        items.push({ page: p, str: item.str, left: x!, right: x! + item.width, y: y! });
      }
    }
  } finally {
    await doc.destroy();
  }
  return items;
}

const squeeze = (s: string) => s.replace(/\s+/g, "");

describe("Bulk QR cards print every script the roster accepts", () => {
  it.each(["9up", "4up"] as const)("%s: Hangul, Arabic, Hebrew and a very long Latin name print whole, inside their cards, and every card scans", async (layout: Layout) => {
    const { token } = await testAccount({ tokens: 100, plan: "premium" });
    const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: "SCRIPTS", school_name: "مدرسة النور", layout, subjects: NAMES } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const pdf = await pdfOf(res.json.pdf_url);

    // pdf.js's text (through each font's ToUnicode map) has every name whole, in logical order.
    const text = await pdfText(pdf);
    for (const s of NAMES) {
      expect(squeeze(text), s.name).toContain(squeeze(s.name));
      if (s.class_name) expect(text).toContain(s.class_name);
    }
    expect(text).toContain("مدرسة النور");
    // The long name is shrunk and wrapped, not cut short with an ellipsis.
    expect(text).not.toContain("\u2026");

    // Poppler's pdftotext reads the same (Arabic joining forms map back to their letters, right to left in logical order).
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "qr-scripts-")), "cards.pdf");
    fs.writeFileSync(file, pdf);
    const { stdout } = await run("pdftotext", ["-enc", "UTF-8", file, "-"]);
    for (const s of NAMES) expect(squeeze(stdout), `pdftotext: ${s.name}`).toContain(squeeze(s.name));

    // Nothing runs past its card: every text item lies inside the cell it starts in.
    const cells = cardCells(layout, "letter");
    for (const item of await textItems(pdf)) {
      const cell = cells.find((c) => item.left >= c.x - 0.5 && item.left <= c.x + c.width && item.y >= c.y && item.y <= c.y + c.height);
      expect(cell, `${item.str} at ${item.left},${item.y}`).toBeDefined();
      expect(item.right, `${item.str} runs past its card`).toBeLessThanOrEqual(cell!.x + cell!.width + 0.5);
    }

    // Each script's font is embedded once, as a subset: four fonts for these names (no kanji, so no Japanese font).
    const doc = await PDFDocument.load(pdf);
    const fontNames: string[] = [];
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (object instanceof PDFDict && object.get(PDFName.of("Subtype"))?.toString() === "/Type0") fontNames.push(object.get(PDFName.of("BaseFont"))!.toString());
    }
    expect(fontNames.map((n) => n.replace(/^\/[A-Z]{6}\+/, "")).sort()).toEqual(["NotoSans-Regular", "NotoSansArabic-Regular", "NotoSansHebrew-Regular", "NotoSansKR-Regular"]);
    for (const n of fontNames) expect(n).toMatch(/^\/[A-Z]{6}\+/);

    // And every card still scans to its subject.
    const scale = 100 / 72;
    const found: string[] = [];
    await forEachRenderedPage(pdf, 100, async (page) => {
      for (const cell of cells) {
        const card = page.crop(Math.round(cell.x * scale), Math.round((PAGE_SIZES.letter.height - cell.y - cell.height) * scale), Math.round(cell.width * scale), Math.round(cell.height * scale));
        found.push(...(await scanQrCodes(card)));
      }
    });
    expect(found.sort()).toEqual(NAMES.map((s) => qrPayload("SCRIPTS", s.student_id)).sort());
  }, 120_000);

  it("a 200-character name prints whole on a 9up card", async () => {
    const { token } = await testAccount({ tokens: 10, plan: "premium" });
    const name = Array.from({ length: 20 }, (_, i) => `Name${i}x`).join(" ").padEnd(200, "z").slice(0, 200);
    const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: "LONG", layout: "9up", subjects: [{ student_id: "S1", name }] } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const pdf = await pdfOf(res.json.pdf_url);
    expect(squeeze(await pdfText(pdf))).toContain(squeeze(name));
    const cell = cardCells("9up", "letter")[0]!;
    for (const item of await textItems(pdf)) expect(item.right).toBeLessThanOrEqual(cell.x + cell.width + 0.5);
  }, 60_000);
});

describe("the roster refuses, at entry, a name the cards cannot print", () => {
  const base = "/v1/services/studio/agencies";
  async function agency(token: string) {
    const res = await call(agencies, "POST", base, { token, body: { name: "Seoul International School", agency_type: "school" } });
    expect(res.status).toBe(201);
    return res.json.id as number;
  }

  it("accepts names in every printed script, on create and import", async () => {
    const { token } = await testAccount();
    const id = await agency(token);
    const params = { agencyId: String(id) };
    for (const s of NAMES.slice(0, 4)) {
      const res = await call(subjects, "POST", `${base}/${id}/subjects`, { token, params, body: s });
      expect(res.status, `${s.name}: ${JSON.stringify(res.json)}`).toBe(201);
    }
    const csv = ["student_id,name,class_name", ...NAMES.slice(4).map((s) => `${s.student_id},${s.name},${s.class_name ?? ""}`)].join("\n");
    const imported = await call(importRoute, "POST", `${base}/${id}/subjects/import`, { token, params, rawBody: csv, headers: { "content-type": "text/csv" } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  });

  it("refuses it on create, update and CSV import, naming the subject and the character", async () => {
    const { token } = await testAccount();
    const id = await agency(token);
    const params = { agencyId: String(id) };
    const name = `Ankh ${UNPRINTABLE}`;

    const created = await call(subjects, "POST", `${base}/${id}/subjects`, { token, params, body: { student_id: "S1", name } });
    expect(created.status).toBe(400);
    expect(created.json.details.fields[0].field).toBe("name");
    expect(created.json.details.fields[0].message).toContain(name);
    expect(created.json.details.fields[0].message).toContain("U+13000");
    expect(created.json.details.fields[0].message).toMatch(/Hangul.*Arabic and Hebrew/);

    const ok = await call(subjects, "POST", `${base}/${id}/subjects`, { token, params, body: { student_id: "S2", name: "김민준" } });
    expect(ok.status).toBe(201);
    const updated = await call(subject, "PATCH", `${base}/${id}/subjects/${ok.json.id}`, { token, params: { ...params, subjectId: String(ok.json.id) }, body: { name } });
    expect(updated.status).toBe(400);
    expect(updated.json.details.fields[0].field).toBe("name");

    const csv = ["student_id,name,class_name", "S3,이서연,1", `S4,${name},1`].join("\n");
    const imported = await call(importRoute, "POST", `${base}/${id}/subjects/import`, { token, params, rawBody: csv, headers: { "content-type": "text/csv" } });
    expect(imported.status).toBe(400);
    expect(imported.json.details.errors).toEqual([expect.objectContaining({ line: 3, field: "name", message: expect.stringContaining("U+13000") })]);
  });

  it("and the QR request names it the same way, charging nothing", async () => {
    const { token } = await testAccount({ tokens: 10 });
    const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: "J", subjects: [{ student_id: "S1", name: "김민준" }, { student_id: "S2", name: UNPRINTABLE }] } });
    expect(res.status).toBe(400);
    expect(res.json.details.fields.map((f: { field: string }) => f.field)).toEqual(["subjects.1.name"]);
  });
});
