import { decodePDFRawStream, PDFDict, PDFFlateStream, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFPage } from "pdf-lib";
import { ContentLexer } from "@/lib/engines/pdf/content-lexer";

/** The operators that paint glyphs; everything else (colours, state, paths, images) is kept. */
const SHOW_TEXT = new Set(["Tj", "TJ", "'", '"']);

/**
 * A content stream without its text-showing operators (and their operands).
 * A stream the lexer cannot read gives an empty one: better an empty bleed
 * than text in it.
 */
export function withoutText(content: Uint8Array): Uint8Array {
  try {
    return cutText(content);
  } catch {
    return new Uint8Array(0);
  }
}

function cutText(content: Uint8Array): Uint8Array {
  const lexer = new ContentLexer(content);
  const cuts: [number, number][] = [];
  let last = 0;
  lexer.run((op) => {
    if (SHOW_TEXT.has(op)) cuts.push([last, lexer.offset]);
    last = lexer.offset;
  });
  if (cuts.length === 0) return content;
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const [from, to] of cuts) {
    parts.push(content.subarray(at, from), SPACE);
    at = to;
  }
  parts.push(content.subarray(at));
  return Buffer.concat(parts);
}
const SPACE = Uint8Array.of(0x20);

function decoded(stream: PDFStream): Uint8Array {
  if (stream instanceof PDFRawStream) return decodePDFRawStream(stream).decode();
  // pdf-lib's own streams (the q/Q it wraps a loaded page's content in) keep their plain operators here.
  if (stream instanceof PDFFlateStream) return stream.getUnencodedContents();
  return stream.getContents();
}

/**
 * Adds to `doc` a copy of `page` that paints everything but its text (nested
 * forms copied the same way; images, fonts and other resources shared), for
 * drawing a page's artwork where its text must not appear (the bleed).
 */
export function addTextlessCopy(doc: PDFDocument, page: PDFPage): PDFPage {
  const ctx = doc.context;
  const forms = new Map<string, PDFRef>();
  const bareResources = (res: PDFDict | undefined): PDFDict | undefined => {
    if (!res) return undefined;
    const xobjects = res.lookupMaybe(PDFName.of("XObject"), PDFDict);
    if (!xobjects) return res;
    const copy = res.clone(ctx);
    const list = xobjects.clone(ctx);
    for (const [name, value] of xobjects.entries()) {
      const target = value instanceof PDFRef ? ctx.lookup(value) : value;
      if (target instanceof PDFStream && target.dict.get(PDFName.of("Subtype")) === PDFName.of("Form")) list.set(name, bareForm(value, target));
    }
    copy.set(PDFName.of("XObject"), list);
    return copy;
  };
  const bareForm = (raw: unknown, form: PDFStream): PDFRef => {
    const key = raw instanceof PDFRef ? raw.toString() : "";
    const known = key ? forms.get(key) : undefined;
    if (known) return known;
    const ref = ctx.nextRef();
    if (key) forms.set(key, ref);
    const dict = form.dict.clone(ctx);
    for (const k of ["Filter", "DecodeParms", "Length"]) dict.delete(PDFName.of(k));
    const resources = bareResources(form.dict.lookupMaybe(PDFName.of("Resources"), PDFDict));
    if (resources) dict.set(PDFName.of("Resources"), resources);
    ctx.assign(ref, ctx.flateStream(withoutText(decoded(form)), Object.fromEntries([...dict.entries()].map(([k, v]) => [k.asString().slice(1), v]))));
    return ref;
  };
  const { Contents, Resources } = page.node.normalizedEntries();
  const streams = (Contents?.asArray() ?? []).map((c) => (c instanceof PDFRef ? ctx.lookup(c) : c)).filter((c): c is PDFStream => c instanceof PDFStream);
  const content = Buffer.concat(streams.flatMap((s) => [decoded(s), Uint8Array.of(0x0a)]));
  const copy = doc.addPage([page.getWidth(), page.getHeight()]);
  const media = page.getMediaBox();
  copy.setMediaBox(media.x, media.y, media.width, media.height);
  copy.node.set(PDFName.of("Contents"), ctx.register(ctx.flateStream(withoutText(content))));
  copy.node.set(PDFName.of("Resources"), bareResources(Resources) ?? ctx.obj({}));
  return copy;
}
