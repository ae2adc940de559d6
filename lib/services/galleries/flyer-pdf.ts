import { and, asc, eq } from "drizzle-orm";
import { PDFDocument, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import QRCode from "qrcode";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, agencyJobs, galleries, galleryAccessCodes, subjects } from "@/lib/foundation/db/schema";
import { conflict } from "@/lib/foundation/http/api-error";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { cachedFontkit, fontFaces } from "@/lib/engines/pdf/card-fonts/fonts";
import { openCode } from "./access-codes";

/** US Letter, 2 × 4 slips a page: each child's slip is cut out and handed to that child only. */
const PAGE = { width: 612, height: 792 };
const MARGIN = 36;
const COLS = 2;
const ROWS = 4;

export type FlyerSlip = { name: string; className: string | null; studentId: string; code: string };

/** What a parent opens the gallery with: /g?code=..., which enters the code for them. */
export const galleryLink = (origin: string, code: string) => `${origin}/g?code=${encodeURIComponent(code)}`;

/** The slips of a published job, by class then name. */
export async function flyerSlips(db: Db, accountId: string, agencyId: number, jobId: number): Promise<{ studio: string; job: string; slips: FlyerSlip[] }> {
  await requireJob(db, accountId, agencyId, jobId);
  const rows = await db
    .select({ name: subjects.name, className: subjects.className, studentId: subjects.studentId, sealed: galleryAccessCodes.sealed })
    .from(galleryAccessCodes)
    .innerJoin(subjects, eq(subjects.id, galleryAccessCodes.subjectId))
    .innerJoin(galleries, and(eq(galleries.jobId, galleryAccessCodes.jobId), eq(galleries.subjectId, galleryAccessCodes.subjectId)))
    .where(and(eq(galleryAccessCodes.accountId, accountId), eq(galleryAccessCodes.jobId, jobId)))
    .orderBy(asc(subjects.className), asc(subjects.name), asc(subjects.studentId));
  if (rows.length === 0) throw conflict("GALLERIES_NOT_PUBLISHED", `Job ${jobId} has no galleries yet: publish them first.`);
  const [names] = await db
    .select({ studio: accounts.name, job: agencyJobs.name })
    .from(agencyJobs)
    .innerJoin(accounts, eq(accounts.id, agencyJobs.accountId))
    .where(eq(agencyJobs.id, jobId));
  return { studio: names!.studio, job: names!.job, slips: rows.map((r) => ({ name: r.name, className: r.className, studentId: r.studentId, code: openCode(r.sealed) })) };
}

/**
 * The cards' fonts (lib/engines/pdf/card-fonts/fonts.ts, through its fontkit with the subsetting fix):
 * a text is drawn with the first face that has all its characters (Latin, Greek,
 * Cyrillic, Japanese, Korean, Arabic, Hebrew), embedded when first needed;
 * what no face has becomes "?" rather than failing the PDF.
 */
export function fontsOf(doc: PDFDocument) {
  const embedded = new Map<number, Promise<PDFFont>>();
  const faces = fontFaces();
  const embed = (i: number) => {
    let font = embedded.get(i);
    if (!font) embedded.set(i, (font = doc.embedFont(faces[i]!.bytes, { subset: true })));
    return font;
  };
  return async (raw: string): Promise<{ font: PDFFont; text: string }> => {
    const chars = [...raw].filter((ch) => !/\s/u.test(ch));
    const whole = faces.findIndex((f) => chars.every((ch) => f.font.hasGlyphForCodePoint(ch.codePointAt(0)!)));
    if (whole >= 0) return { font: await embed(whole), text: raw };
    return { font: await embed(0), text: [...raw].map((ch) => (/\s/u.test(ch) || faces[0]!.font.hasGlyphForCodePoint(ch.codePointAt(0)!) ? ch : "?")).join("") };
  };
}

export function drawQr(page: PDFPage, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + quiet * 2);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.modules.get(r, c)) page.drawRectangle({ x: x + (c + quiet) * cell, y: y + size - (r + quiet + 1) * cell, width: cell, height: cell, color: rgb(0, 0, 0) });
    }
  }
}

/**
 * The class flyer: for each class, pages of cut-apart slips, one per child,
 * with the child's name, the access code in large type, the gallery address,
 * and a QR that opens the gallery with the code already entered. A slip names
 * one child only, so a sheet cut up and handed out leaks no one else's code.
 */
export async function flyerPdf(data: { studio: string; job: string; slips: FlyerSlip[] }, origin: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(cachedFontkit);
  const fontFor = fontsOf(doc);
  const latin = (await fontFor("A")).font;
  const draw = async (page: PDFPage, raw: string, opts: { x: number; y: number; size: number; color?: ReturnType<typeof rgb>; maxWidth?: number }) => {
    const { font, text } = await fontFor(raw);
    page.drawText(text, { ...opts, font });
  };
  doc.setTitle(`${data.job}: gallery codes`);
  doc.setCreator(data.studio);
  const byClass = new Map<string, FlyerSlip[]>();
  for (const s of data.slips) byClass.set(s.className ?? "", [...(byClass.get(s.className ?? "") ?? []), s]);
  const slipW = (PAGE.width - MARGIN * 2) / COLS;
  const slipH = (PAGE.height - MARGIN * 2 - 24) / ROWS;
  for (const [className, slips] of byClass) {
    for (let at = 0; at < slips.length; at += COLS * ROWS) {
      const page = doc.addPage([PAGE.width, PAGE.height]);
      await draw(page, `${data.job}${className ? ` · ${className}` : ""} · cut along the lines, one slip per child`, { x: MARGIN, y: PAGE.height - MARGIN - 10, size: 10, color: rgb(0.35, 0.35, 0.35) });
      for (const [i, slip] of slips.slice(at, at + COLS * ROWS).entries()) {
        const x = MARGIN + (i % COLS) * slipW;
        const y = PAGE.height - MARGIN - 24 - (Math.floor(i / COLS) + 1) * slipH;
        page.drawRectangle({ x, y, width: slipW, height: slipH, borderColor: rgb(0.6, 0.6, 0.6), borderWidth: 0.5, borderDashArray: [4, 3] });
        const pad = 14;
        await draw(page, data.studio, { x: x + pad, y: y + slipH - pad - 10, size: 9, color: rgb(0.4, 0.4, 0.4), maxWidth: slipW - pad * 2 });
        await draw(page, slip.name, { x: x + pad, y: y + slipH - pad - 30, size: 14, maxWidth: slipW - 100 - pad * 2 });
        await draw(page, `Photos of ${data.job}`, { x: x + pad, y: y + slipH - pad - 48, size: 9, color: rgb(0.3, 0.3, 0.3), maxWidth: slipW - 100 - pad * 2 });
        page.drawText("Your access code", { x: x + pad, y: y + pad + 52, size: 8, font: latin, color: rgb(0.4, 0.4, 0.4) });
        page.drawText(slip.code, { x: x + pad, y: y + pad + 30, size: 18, font: latin });
        await draw(page, `${origin}/g`, { x: x + pad, y: y + pad + 10, size: 8, color: rgb(0.2, 0.3, 0.6), maxWidth: slipW - 100 - pad * 2 });
        drawQr(page, galleryLink(origin, slip.code), x + slipW - pad - 86, y + pad, 86);
      }
    }
  }
  return Buffer.from(await doc.save());
}
