// Run by Playwright specs in a child process (`node --import tsx`), because the
// test helpers it uses (pdfjs-dist, zxing-wasm) are ES modules that Playwright's
// CommonJS transform cannot load: renders a QR-card PDF, cuts each page into
// its cards as a guillotine would, and prints every decoded payload as JSON
// (argv: file, layout, page size, dpi: 100 unless a card's small QR needs more).
import fs from "node:fs";
import { PAGE_SIZES, cardCells, type Layout, type PageSize } from "../../lib/services/qr/layouts";
import { forEachRenderedPage } from "../../test/support/pdf-render";
import { scanQrCodes } from "../../test/support/qr-scan";

const [file, layout = "4up", pageSize = "letter", dpi = "100"] = process.argv.slice(2);
const scale = Number(dpi) / 72;
const found: string[] = [];
await forEachRenderedPage(new Uint8Array(fs.readFileSync(file!)), Number(dpi), async (page) => {
  for (const cell of cardCells(layout as Layout, pageSize as PageSize)) {
    const card = page.crop(Math.round(cell.x * scale), Math.round((PAGE_SIZES[pageSize as PageSize].height - cell.y - cell.height) * scale), Math.round(cell.width * scale), Math.round(cell.height * scale));
    found.push(...(await scanQrCodes(card)));
  }
});
process.stdout.write(JSON.stringify(found));
