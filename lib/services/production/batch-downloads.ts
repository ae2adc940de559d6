import { PDFDocument, rgb, type PDFPage } from "pdf-lib";
import type { Db } from "@/lib/foundation/db/types";
import { ApiError, conflict } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { cachedFontkit } from "@/lib/engines/pdf/card-fonts/fonts";
import { zipStream } from "@/lib/services/agencies/zip-stream";
import { drawQr, fontsOf } from "@/lib/services/galleries/flyer-pdf";
import { batchLines, type BatchLine } from "./batch-contents";
import { requireBatch, type BatchRow } from "./batches";
import { manifestColumns, manifestFiles } from "./manifest";

async function packedBatch(db: Db, accountId: string, id: string): Promise<BatchRow> {
  const batch = await requireBatch(db, accountId, id);
  if (batch.status === "rendering" || batch.status === "held" || batch.status === "failed") {
    const why = { rendering: "wait until its files are rendered", held: "every file is on hold: fix one and the batch is ready", failed: "nothing in it can go to the lab" }[batch.status];
    throw conflict("BATCH_NOT_READY", `Batch ${id} is ${batch.status}: ${why}.`);
  }
  return batch;
}

/**
 * The lab's ZIP: manifest.csv and manifest.json first, then every print file under
 * the name the manifest gives it. Streamed, one print file read from storage at a
 * time, JPEGs stored as they are (deflating them gains nothing).
 */
export async function batchZip(db: Db, accountId: string, id: string): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const batch = await packedBatch(db, accountId, id);
  const lines = await batchLines(db, batch);
  // Asked before the stream starts: a ZIP cut short halfway would look like a network fault.
  const removed = new Set(lines.filter((l) => l.fileKey === null).map((l) => l.order));
  if (removed.size > 0) {
    throw new ApiError(410, "PRINT_FILES_REMOVED", `The print files of ${removed.size} order(s) in batch ${id} were removed by the studio's order photo retention (${[...removed].slice(0, 3).join(", ")}${removed.size > 3 ? ", …" : ""}); the manifest and packing slips are still available.`);
  }
  const { csv, json } = manifestFiles(lines, await manifestColumns(db, accountId));
  let at = -1;
  const stream = zipStream(async (add) => {
    if (at === -1) {
      add("manifest.csv", new TextEncoder().encode(csv));
      add("manifest.json", new TextEncoder().encode(json));
      at = 0;
      return true;
    }
    const line = lines[at++];
    if (!line) return false;
    const object = await storage().get(line.fileKey!);
    if (!object) throw new Error(`Print file ${line.fileKey} is missing from storage`);
    add(line.file, object.body);
    return true;
  });
  return { filename: `${batch.id}.zip`, stream };
}

/** US Letter, one page per order (more only for an order too long for one): who it is for, where it goes, what is in it, and a QR of the order id. */
const PAGE = { width: 612, height: 792 };
const MARGIN = 48;

/**
 * The packing slips: a page per order, in the batch's order (by teacher and class
 * for school-bulk batches, so the school hands each classroom its pile).
 */
export async function batchSlips(db: Db, accountId: string, id: string): Promise<{ filename: string; pdf: Buffer; orders: string[] }> {
  const batch = await packedBatch(db, accountId, id);
  const lines = await batchLines(db, batch);
  const byOrder = new Map<string, BatchLine[]>();
  for (const l of lines) byOrder.set(l.order, [...(byOrder.get(l.order) ?? []), l]);
  const doc = await PDFDocument.create();
  doc.registerFontkit(cachedFontkit);
  doc.setTitle(`Packing slips of ${batch.id}`);
  const fontFor = fontsOf(doc);
  const draw = async (page: PDFPage, raw: string, x: number, y: number, size: number, grey = false) => {
    const { font, text } = await fontFor(raw);
    page.drawText(text, { x, y, size, font, color: grey ? rgb(0.4, 0.4, 0.4) : rgb(0, 0, 0), maxWidth: PAGE.width - 2 * MARGIN - 130 });
  };
  for (const [orderId, items] of byOrder) {
    const first = items[0]!;
    let page = doc.addPage([PAGE.width, PAGE.height]);
    let y = PAGE.height - MARGIN - 20;
    await draw(page, `Order ${orderId}`, MARGIN, y, 18);
    drawQr(page, orderId, PAGE.width - MARGIN - 110, PAGE.height - MARGIN - 110, 110);
    y -= 32;
    if (first.child) {
      await draw(page, first.child, MARGIN, y, 14);
      y -= 20;
    }
    if (first.class || first.teacher) {
      await draw(page, [first.class && `Class ${first.class}`, first.teacher && `Teacher ${first.teacher}`].filter(Boolean).join(" · "), MARGIN, y, 11);
      y -= 18;
    }
    await draw(page, `Ship to: ${first.ship_to}${first.school_batch ? ` (school delivery ${first.school_batch})` : ""}`, MARGIN, y, 10, true);
    y -= 40;
    await draw(page, "Qty   Size   Product   File", MARGIN, y, 10, true);
    y -= 16;
    for (const item of items) {
      if (y < MARGIN) {
        // A long order goes on over another page rather than losing lines.
        page = doc.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - MARGIN - 20;
        await draw(page, `Order ${orderId} (continued)`, MARGIN, y, 12);
        y -= 24;
      }
      await draw(page, `${item.quantity}   ${item.size} in   ${item.product_code}   ${item.file}`, MARGIN, y, 10);
      y -= 15;
    }
  }
  return { filename: `${batch.id}-packing-slips.pdf`, pdf: Buffer.from(await doc.save()), orders: [...byOrder.keys()] };
}
