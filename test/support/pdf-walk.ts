// Independent checks of a PDF's objects: a walk of every indirect object with
// pdf-lib (decoding Flate streams), and poppler's pdffonts / pdfimages when
// installed (callers skip those checks visibly when they are not).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";

export type PdfWalk = { deviceRgb: number; fontsWithoutFile: string[]; fonts: number; contentText: string };

/** Counts /DeviceRGB uses in dictionaries (colour spaces of images, groups, resources) and content streams; lists fonts without an embedded file. */
export async function walkPdf(bytes: Uint8Array): Promise<PdfWalk> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  let deviceRgb = 0;
  let fonts = 0;
  const fontsWithoutFile: string[] = [];
  let contentText = "";
  const rgb = PDFName.of("DeviceRGB");
  const visitDict = (d: PDFDict, isGroup: boolean) => {
    for (const [key, v] of d.entries()) {
      // A transparency group's blending space is not a colour anything is painted in.
      if (v === rgb && !(isGroup && key.asString() === "/CS")) deviceRgb++;
      if (v instanceof PDFArray) for (const x of v.asArray()) if (x === rgb) deviceRgb++;
    }
  };
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    const dict = obj instanceof PDFRawStream ? obj.dict : obj instanceof PDFDict ? obj : null;
    if (!dict) continue;
    visitDict(dict, dict.get(PDFName.of("S")) === PDFName.of("Transparency"));
    const group = dict.get(PDFName.of("Group"));
    if (group instanceof PDFDict) visitDict(group, true);
    if (dict.get(PDFName.of("Type")) === PDFName.of("Font")) {
      const subtype = String(dict.get(PDFName.of("Subtype")));
      if (subtype === "/Type0" || subtype === "/Type3") continue;
      fonts++;
      const descriptor = dict.lookup(PDFName.of("FontDescriptor"));
      const embedded = descriptor instanceof PDFDict && ["FontFile", "FontFile2", "FontFile3"].some((k) => descriptor.get(PDFName.of(k)));
      if (!embedded) fontsWithoutFile.push(String(dict.get(PDFName.of("BaseFont"))));
    }
    if (obj instanceof PDFRawStream && !dict.get(PDFName.of("Subtype"))) {
      try {
        contentText += Buffer.from(decodePDFRawStream(obj).decode()).toString("latin1") + "\n";
      } catch {
        // Not a Flate stream (an image, a font file): not content.
      }
    }
  }
  contentText.replace(/\/DeviceRGB\s+(cs|CS)/g, () => String(deviceRgb++));
  return { deviceRgb, fontsWithoutFile, fonts, contentText };
}

let popplerInstalled: boolean | undefined;
export function hasPoppler(): boolean {
  if (popplerInstalled === undefined) {
    try {
      execFileSync("pdffonts", ["-v"], { stdio: "ignore" });
      popplerInstalled = true;
    } catch {
      popplerInstalled = false;
    }
  }
  return popplerInstalled;
}

/** Runs a poppler tool on the bytes; its stdout. */
export function poppler(tool: "pdffonts" | "pdfimages", args: string[], bytes: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poppler-"));
  try {
    const file = path.join(dir, "in.pdf");
    fs.writeFileSync(file, bytes);
    return execFileSync(tool, [...args, file], { encoding: "utf8", timeout: 60_000 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
