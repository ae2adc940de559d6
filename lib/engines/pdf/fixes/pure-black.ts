import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, PDFRef } from "pdf-lib";

// `0 0 0 rg` / `0 0 0 RG` (also written 0.0 or .0) between token boundaries.
const RGB_BLACK = /(^|[\s\]\)>}])(?:0|0?\.0+)\s+(?:0|0?\.0+)\s+(?:0|0?\.0+)\s+(rg|RG)(?=[\s\[\(<\/%]|$)/g;

/**
 * Pure RGB black set as `0 0 0 rg` becomes gray 0 (`0 g`) before Ghostscript,
 * because Ghostscript separates RGB black through the ICC profiles into a rich
 * four-colour black (0.72 0.68 0.67 0.88), which prints soft-edged text; gray
 * goes to black ink only (DeviceGrayToK). Content streams of pages and forms
 * filtered with Flate (or not at all) are rewritten; others are left alone.
 */
export async function pureBlackToGray(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  let changed = 0;
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream)) continue;
    const isForm = obj.dict.get(PDFName.of("Subtype")) === PDFName.of("Form");
    if (!isForm && !contentRefs(doc).has(ref.toString())) continue;
    const filter = obj.dict.get(PDFName.of("Filter"));
    const flate = filter === PDFName.of("FlateDecode") || (filter instanceof PDFArray && filter.size() === 1 && filter.get(0) === PDFName.of("FlateDecode"));
    if (filter && !flate) continue;
    const text = Buffer.from(decodePDFRawStream(obj).decode()).toString("latin1");
    const next = text.replace(RGB_BLACK, (_m, lead: string, op: string) => `${lead}0 ${op === "rg" ? "g" : "G"}`);
    if (next === text) continue;
    const dict = obj.dict.clone(doc.context);
    dict.delete(PDFName.of("Filter"));
    dict.delete(PDFName.of("DecodeParms"));
    dict.delete(PDFName.of("Length"));
    doc.context.assign(ref, doc.context.stream(Buffer.from(next, "latin1"), Object.fromEntries([...dict.entries()].map(([k, v]) => [k.asString().slice(1), v]))));
    changed++;
  }
  return changed ? doc.save({ useObjectStreams: false }) : bytes;
}

let cache: { doc: PDFDocument; refs: Set<string> } | undefined;
/** References of every page's content stream(s). */
function contentRefs(doc: PDFDocument): Set<string> {
  if (cache?.doc === doc) return cache.refs;
  const refs = new Set<string>();
  for (const page of doc.getPages()) {
    const c = page.node.get(PDFName.of("Contents"));
    if (c instanceof PDFRef) {
      const target = doc.context.lookup(c);
      if (target instanceof PDFArray) addRefs(refs, target);
      else refs.add(c.toString());
    } else if (c instanceof PDFArray) addRefs(refs, c);
  }
  cache = { doc, refs };
  return refs;
}

function addRefs(refs: Set<string>, list: PDFArray) {
  for (const r of list.asArray()) if (r instanceof PDFRef) refs.add(r.toString());
}
