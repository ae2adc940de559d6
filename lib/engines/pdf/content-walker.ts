import { PDFArray, PDFDict, PDFName, PDFObject, PDFRef, PDFStream } from "pdf-lib";
import { classifyColorSpace, type ColorUse } from "./color-space";
import { ContentLexer, isName, type Operand } from "./content-lexer";
import { fontInfo, fontMetrics, type FontInfo, type FontMetrics } from "./font-info";
import { IDENTITY, apply, multiply, toMatrix, transformRect, type Matrix } from "./matrix";
import { identity, type PdfReader } from "./pdf-objects";

export type Box = { x: number; y: number; width: number; height: number };

/** One drawing of an image: where it lands on the page and the resolution it prints at there. */
export type ImagePlacement = {
  /** Resource name ("Im3"), or "inline image". */
  name: string;
  objectNumber?: number;
  widthPx: number;
  heightPx: number;
  /** Placed size and position in the page's user space (points, origin bottom-left). */
  box: Box;
  placedWidthPt: number;
  placedHeightPt: number;
  ppiX: number;
  ppiY: number;
  color: ColorUse;
  /** Found inside an annotation appearance or a Type3 glyph (where placement is approximate). */
  context: "page" | "annotation" | "pattern";
};

/**
 * Something painted on the page, with its bounds in the page's user space: a
 * text-showing operation (one Tj/TJ), a filled or stroked path, an image. What
 * the trim and safe-margin rules and the viewer's boxes are made from.
 */
export type PaintedObject = {
  kind: "text" | "vector" | "image";
  box: Box;
  /** Text: the font's name (BaseFont without subset tag). */
  font?: string;
  /** Text: what it says (through the font's ToUnicode map), at most 80 characters. */
  text?: string;
  /** Painted with transparency: what makes it so (technical description). */
  transparency?: string;
  context: ImagePlacement["context"];
};

export type PageFindings = {
  images: ImagePlacement[];
  /** Colour spaces painted with, keyed by label, with what used them. */
  colors: Map<string, { use: ColorUse; sources: Set<string> }>;
  /** Transparency actually used: a description per source. */
  transparency: Set<string>;
  /** Fonts that show visible text (render mode other than 3 and 7). */
  fonts: Map<PDFObject, FontInfo>;
  /** Content that could not be read (broken streams), one message each. */
  damaged: string[];
  /** What is painted where (at most MAX_OBJECTS_PER_PAGE; patterns and Type3 glyph insides excluded). */
  objects: PaintedObject[];
};

type GState = {
  ctm: Matrix;
  fill?: ColorUse;
  stroke?: ColorUse;
  textRender: number;
  font?: { key: PDFObject; dict: PDFDict; info: FontInfo; metrics: FontMetrics };
  fontSize: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  lineWidth: number;
  /** Set while an ExtGState with transparency is in force. */
  transparent?: string;
};

/** Stops pathological files (forms drawing forms thousands of times each) well before the time limit. */
export class ContentTooComplexError extends Error {}

const MAX_DEPTH = 16;
const MAX_XOBJECT_DRAWS_PER_PAGE = 100_000;
const DECODED_CACHE_BYTES = 64 * 1024 * 1024;
/** Painted objects kept per page (a page of 100,000 glyph runs keeps the first ones). */
const MAX_OBJECTS_PER_PAGE = 20_000;

/**
 * Interprets content streams the way a printer would need to know them:
 * graphics-state nesting (q/Q/cm) through forms, patterns, annotations and
 * Type3 glyphs, recording images with their placement matrix, colour spaces
 * painted with, transparency used and fonts showing visible text. It never
 * decodes images or glyphs.
 */
export class ContentWalker {
  private readonly extGStateCache = new Map<PDFObject, string[]>();
  private readonly opaqueMaskCache = new Map<PDFObject, boolean>();
  private readonly fontCache = new Map<PDFObject, FontInfo>();
  private readonly metricsCache = new Map<PDFObject, FontMetrics>();
  private readonly type3Walked = new Set<PDFObject>();
  private readonly decoded = new Map<PDFStream, Uint8Array>();
  private decodedBytes = 0;
  private findings!: PageFindings;
  private draws = 0;

  constructor(private readonly r: PdfReader) {}

  walkPage(contents: Uint8Array[], resources: PDFDict | undefined, annots: PDFArray | undefined): PageFindings {
    this.findings = { images: [], colors: new Map(), transparency: new Set(), fonts: new Map(), damaged: [], objects: [] };
    this.draws = 0;
    try {
      for (const bytes of contents) this.walk(bytes, resources, IDENTITY, 0, new Set(), "page");
      if (annots) this.walkAnnotations(annots, resources);
    } catch (err) {
      if (err instanceof ContentTooComplexError) throw err;
      // What was read before the fault still counts; the fault itself is reported.
      this.damaged(`the page content could not be read (${(err as Error).message.split("\n")[0]})`);
    }
    return this.findings;
  }

  /** Reports a content stream that could not be decoded. */
  damaged(message: string): void {
    this.findings.damaged.push(message);
  }

  private walk(bytes: Uint8Array, resources: PDFDict | undefined, baseCtm: Matrix, depth: number, stack: Set<PDFObject>, context: ImagePlacement["context"]): void {
    const r = this.r;
    const states: GState[] = [];
    let gs: GState = { ctm: baseCtm, textRender: 0, fontSize: 0, charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0, lineWidth: 1 };
    const lexer = new ContentLexer(bytes);
    const res = (category: string, name: string) => r.get(r.dict(resources, category), name);
    const named = (n: string) => res("ColorSpace", n);
    // Text and line matrices (not part of the graphics state: reset by BT).
    let tm: Matrix = IDENTITY;
    let tlm: Matrix = IDENTITY;
    // The current path's points, already in page space (the CTM cannot change inside a path).
    let path: number[] = [];
    const point = (x: unknown, y: unknown) => {
      if (typeof x !== "number" || typeof y !== "number") return;
      const [px, py] = apply(gs.ctm, x, y);
      path.push(px, py);
    };
    const newLine = (tx: number, ty: number) => {
      tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
      tm = tlm;
    };
    const show = (parts: Operand[]) => {
      const font = gs.font;
      if (!font) return;
      const visible = gs.textRender !== 3 && gs.textRender !== 7;
      if (visible) this.useFont(font.key, font.dict, depth, stack);
      const m = font.metrics;
      let x = 0;
      let text = "";
      for (const part of parts) {
        if (typeof part === "number") {
          x -= (part / 1000) * gs.fontSize * gs.hScale;
          continue;
        }
        if (!(part instanceof Uint8Array)) continue;
        for (let i = 0; i + m.bytesPerCode <= part.length; i += m.bytesPerCode) {
          const code = m.bytesPerCode === 2 ? (part[i]! << 8) | part[i + 1]! : part[i]!;
          const space = m.bytesPerCode === 1 && code === 32 ? gs.wordSpacing : 0;
          x += ((m.width(code) / 1000) * gs.fontSize + gs.charSpacing + space) * gs.hScale;
          if (text.length < 80) text += m.unicode(code);
        }
      }
      if (visible && context !== "pattern" && gs.fontSize !== 0) {
        const y0 = (m.descent / 1000) * gs.fontSize + gs.rise;
        const y1 = (m.ascent / 1000) * gs.fontSize + gs.rise;
        const box = transformRect(multiply(tm, gs.ctm), Math.min(0, x), Math.min(y0, y1), Math.max(0, x), Math.max(y0, y1));
        const sample = text.replace(/[\s\p{Cc}]+/gu, " ").trim().slice(0, 80);
        this.record({ kind: "text", box, font: font.info.name, ...(sample ? { text: sample } : {}), ...(gs.transparent ? { transparency: gs.transparent } : {}), context });
      }
      tm = multiply([1, 0, 0, 1, x, 0], tm);
    };
    const paint = (stroke: boolean) => {
      if (path.length >= 2 && context !== "pattern") {
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (let i = 0; i < path.length; i += 2) {
          x0 = Math.min(x0, path[i]!);
          x1 = Math.max(x1, path[i]!);
          y0 = Math.min(y0, path[i + 1]!);
          y1 = Math.max(y1, path[i + 1]!);
        }
        // A stroke reaches half its width beyond the path (the width scales with the CTM).
        const half = stroke ? (gs.lineWidth * Math.sqrt(Math.abs(gs.ctm[0] * gs.ctm[3] - gs.ctm[1] * gs.ctm[2]))) / 2 : 0;
        this.record({ kind: "vector", box: { x: x0 - half, y: y0 - half, width: x1 - x0 + 2 * half, height: y1 - y0 + 2 * half }, ...(gs.transparent ? { transparency: gs.transparent } : {}), context });
      }
      path = [];
    };

    lexer.run((op, args) => {
      switch (op) {
        case "w":
          if (typeof args[0] === "number") gs.lineWidth = args[0];
          break;
        case "m":
        case "l":
          point(args[0], args[1]);
          break;
        case "c":
          point(args[0], args[1]);
          point(args[2], args[3]);
          point(args[4], args[5]);
          break;
        case "v":
        case "y":
          point(args[0], args[1]);
          point(args[2], args[3]);
          break;
        case "re": {
          const [x, y, w, h] = args;
          if (typeof x === "number" && typeof y === "number" && typeof w === "number" && typeof h === "number") {
            point(x, y);
            point(x + w, y);
            point(x + w, y + h);
            point(x, y + h);
          }
          break;
        }
        case "S":
        case "s":
          paint(true);
          break;
        case "f":
        case "F":
        case "f*":
          paint(false);
          break;
        case "B":
        case "B*":
        case "b":
        case "b*":
          paint(true);
          break;
        case "n":
          path = [];
          break;
        case "BT":
          tm = IDENTITY;
          tlm = IDENTITY;
          break;
        case "Tc":
          if (typeof args[0] === "number") gs.charSpacing = args[0];
          break;
        case "Tw":
          if (typeof args[0] === "number") gs.wordSpacing = args[0];
          break;
        case "Tz":
          if (typeof args[0] === "number") gs.hScale = args[0] / 100;
          break;
        case "TL":
          if (typeof args[0] === "number") gs.leading = args[0];
          break;
        case "Ts":
          if (typeof args[0] === "number") gs.rise = args[0];
          break;
        case "Td":
          if (typeof args[0] === "number" && typeof args[1] === "number") newLine(args[0], args[1]);
          break;
        case "TD":
          if (typeof args[0] === "number" && typeof args[1] === "number") {
            gs.leading = -args[1];
            newLine(args[0], args[1]);
          }
          break;
        case "Tm": {
          const m = toMatrix(args);
          // A copy: the lexer reuses its operand array for the next operator.
          if (m) tm = tlm = [...m] as unknown as Matrix;
          break;
        }
        case "T*":
          newLine(0, -gs.leading);
          break;
        case "q":
          states.push({ ...gs });
          break;
        case "Q":
          gs = states.pop() ?? gs;
          break;
        case "cm": {
          const m = toMatrix(args);
          if (m) gs.ctm = multiply(m, gs.ctm);
          break;
        }
        case "gs": {
          const name = nameArg(args, 0);
          if (!name) break;
          const found = this.extGStateTransparency(resources, name);
          for (const s of found) this.findings.transparency.add(s);
          if (found.length > 0) gs.transparent = found.join(", ");
          else if (this.extGStateResetsTransparency(resources, name)) gs.transparent = undefined;
          break;
        }
        case "rg":
          gs.fill = this.useColor(DEVICE_RGB, "fill colour");
          break;
        case "RG":
          gs.stroke = this.useColor(DEVICE_RGB, "stroke colour");
          break;
        case "k":
          gs.fill = this.useColor(DEVICE_CMYK, "fill colour");
          break;
        case "K":
          gs.stroke = this.useColor(DEVICE_CMYK, "stroke colour");
          break;
        case "g":
          gs.fill = this.useColor(DEVICE_GRAY, "fill colour");
          break;
        case "G":
          gs.stroke = this.useColor(DEVICE_GRAY, "stroke colour");
          break;
        case "cs":
        case "CS": {
          const name = nameArg(args, 0);
          if (!name) break;
          const use = classifyColorSpace(r, PDFName.of(name), named);
          if (op === "cs") gs.fill = use;
          else gs.stroke = use;
          if (use.family !== "pattern") this.useColor(use, op === "cs" ? "fill colour" : "stroke colour");
          break;
        }
        case "scn":
        case "SCN": {
          const cur = op === "scn" ? gs.fill : gs.stroke;
          const patternName = nameArg(args, args.length - 1);
          if (cur?.family === "pattern" && patternName) {
            if (cur.patternBase) this.useColor(cur.patternBase, "pattern colour");
            this.walkPattern(resources, patternName, depth, stack);
          }
          break;
        }
        case "sh": {
          const name = nameArg(args, 0);
          if (name) this.useShading(r.resolve(res("Shading", name)), `shading ${name}`, named);
          break;
        }
        case "Tf": {
          const name = nameArg(args, 0);
          if (!name) break;
          const raw = r.dict(resources, "Font")?.get(r.name(name));
          const dict = r.resolve(raw);
          if (typeof args[1] === "number") gs.fontSize = args[1];
          if (dict instanceof PDFDict) {
            const key = identity(raw, dict);
            gs.font = { key, dict, info: this.fontInfoOf(key, dict), metrics: this.metricsOf(key, dict) };
          } else gs.font = undefined;
          break;
        }
        case "Tr":
          if (typeof args[0] === "number") gs.textRender = args[0];
          break;
        case "Tj":
          show([args[0] as Operand]);
          break;
        case "TJ":
          show(Array.isArray(args[0]) ? args[0] : []);
          break;
        case "'":
          newLine(0, -gs.leading);
          show([args[0] as Operand]);
          break;
        case '"':
          if (typeof args[0] === "number") gs.wordSpacing = args[0];
          if (typeof args[1] === "number") gs.charSpacing = args[1];
          newLine(0, -gs.leading);
          show([args[2] as Operand]);
          break;
        case "Do": {
          const name = nameArg(args, 0);
          if (name) this.drawXObject(resources, name, gs, depth, stack, context);
          break;
        }
        case "BI": {
          const dict = args[0];
          if (dict instanceof Map) this.drawInlineImage(dict, gs, named, context);
          break;
        }
      }
    });
  }

  private useColor(use: ColorUse, source: string): ColorUse {
    const entry = this.findings.colors.get(use.label);
    if (entry) entry.sources.add(source);
    else this.findings.colors.set(use.label, { use, sources: new Set([source]) });
    return use;
  }

  private useShading(shading: PDFObject | undefined, source: string, named: (n: string) => PDFObject | undefined): void {
    const dict = shading instanceof PDFStream ? shading.dict : shading instanceof PDFDict ? shading : undefined;
    if (!dict) return;
    const use = classifyColorSpace(this.r, this.r.get(dict, "ColorSpace"), named);
    this.useColor(use, source);
  }

  private fontInfoOf(key: PDFObject, dict: PDFDict): FontInfo {
    let info = this.fontCache.get(key);
    if (!info) {
      info = fontInfo(this.r, dict);
      this.fontCache.set(key, info);
    }
    return info;
  }

  private metricsOf(key: PDFObject, dict: PDFDict): FontMetrics {
    let metrics = this.metricsCache.get(key);
    if (!metrics) {
      metrics = fontMetrics(this.r, dict);
      this.metricsCache.set(key, metrics);
    }
    return metrics;
  }

  private record(o: PaintedObject): void {

    if (this.findings.objects.length >= MAX_OBJECTS_PER_PAGE) return;
    if (!Number.isFinite(o.box.x) || !Number.isFinite(o.box.y) || !Number.isFinite(o.box.width) || !Number.isFinite(o.box.height)) return;
    this.findings.objects.push(o);
  }

  /** An ExtGState that sets opacity 1, blend mode Normal or no soft mask ends the transparency set before it. */
  private extGStateResetsTransparency(resources: PDFDict | undefined, name: string): boolean {
    const dict = this.r.resolve(this.r.dict(resources, "ExtGState")?.get(this.r.name(name)));
    if (!(dict instanceof PDFDict)) return false;
    return ["CA", "ca", "BM", "SMask"].some((k) => dict.has(PDFName.of(k)));
  }

  private useFont(key: PDFObject, dict: PDFDict, depth: number, stack: Set<PDFObject>): void {
    const info = this.fontInfoOf(key, dict);
    this.findings.fonts.set(key, info);
    // Type3 glyphs are small content streams: their colours and transparency count too.
    if (info.subtype === "Type3" && !this.type3Walked.has(key) && depth < MAX_DEPTH) {
      this.type3Walked.add(key);
      const procs = this.r.dict(dict, "CharProcs");
      const glyphResources = this.r.dict(dict, "Resources");
      for (const [, raw] of procs?.entries() ?? []) {
        const proc = this.r.resolve(raw);
        if (proc instanceof PDFStream) this.walkStream(proc, glyphResources, IDENTITY, depth + 1, stack, "pattern");
      }
    }
  }

  /**
   * A soft mask whose every sample is fully opaque (exporters often keep an
   * alpha channel nobody used) makes nothing see-through: flattening such a
   * page would turn it into one image for nothing (issue 33). Masks that
   * cannot be decoded here (DCT, JPX) or are larger than 64 MB count as transparency.
   */
  private isOpaqueMask(smask: PDFStream): boolean {
    const cached = this.opaqueMaskCache.get(smask);
    if (cached !== undefined) return cached;
    let opaque = false;
    const d = smask.dict;
    const bpc = this.r.number(d, "BitsPerComponent");
    const size = (this.r.number(d, "Width") ?? 0) * (this.r.number(d, "Height") ?? 0);
    const decode = this.r.numbers(this.r.array(d, "Decode"));
    if (bpc === 8 && size > 0 && size <= 64e6 && !this.r.get(d, "Matte") && (!decode || (decode[0] === 0 && decode[1] === 1))) {
      try {
        const data = this.r.bytes(smask);
        opaque = data.length >= size && data.subarray(0, size).every((v) => v === 255);
      } catch {
        opaque = false;
      }
    }
    this.opaqueMaskCache.set(smask, opaque);
    return opaque;
  }

  /** ExtGState entries that make content transparent (cached per ExtGState object). */
  private extGStateTransparency(resources: PDFDict | undefined, name: string): string[] {
    const r = this.r;
    const raw = r.dict(resources, "ExtGState")?.get(r.name(name));
    const dict = r.resolve(raw);
    if (!(dict instanceof PDFDict)) return [];
    const key = identity(raw, dict);
    const cached = this.extGStateCache.get(key);
    if (cached) return cached;
    const found = this.extGStateFromDict(dict, `ExtGState ${name}`);
    this.extGStateCache.set(key, found);
    return found;
  }

  private drawXObject(resources: PDFDict | undefined, name: string, gs: GState, depth: number, stack: Set<PDFObject>, context: ImagePlacement["context"]): void {
    const r = this.r;
    const raw = r.dict(resources, "XObject")?.get(r.name(name));
    const obj = r.resolve(raw);
    if (!(obj instanceof PDFStream)) return;
    if (++this.draws > MAX_XOBJECT_DRAWS_PER_PAGE) throw new ContentTooComplexError(`it draws more than ${MAX_XOBJECT_DRAWS_PER_PAGE.toLocaleString("en-US")} images and forms`);
    const dict = obj.dict;
    const subtype = r.nameOf(dict, "Subtype");
    const key = identity(raw, obj);
    const named = (n: string) => r.get(r.dict(resources, "ColorSpace"), n);
    if (subtype === "Image") {
      const isMask = r.bool(dict, "ImageMask") === true;
      const color = isMask ? (gs.fill ?? DEVICE_GRAY) : r.get(dict, "ColorSpace") ? classifyColorSpace(r, r.get(dict, "ColorSpace"), named) : jpxColor(r, dict);
      const label = `image ${name}`;
      if (!isMask) this.useColor(color, label);
      const smask = r.get(dict, "SMask");
      let transparency = gs.transparent;
      if (smask instanceof PDFStream && !this.isOpaqueMask(smask)) this.findings.transparency.add((transparency = `soft mask on ${label}`));
      const smaskInData = r.number(dict, "SMaskInData");
      if (smaskInData !== undefined && smaskInData > 0) this.findings.transparency.add((transparency = `alpha channel in ${label} (JPEG 2000)`));
      if (context !== "pattern") this.record({ kind: "image", box: transformRect(gs.ctm, 0, 0, 1, 1), ...(transparency ? { transparency } : {}), context });
      this.recordImage({
        name,
        objectNumber: key instanceof PDFRef ? key.objectNumber : undefined,
        widthPx: r.number(dict, "Width") ?? 0,
        heightPx: r.number(dict, "Height") ?? 0,
        ctm: gs.ctm,
        color,
        context,
      });
      return;
    }
    if (subtype !== "Form" || depth >= MAX_DEPTH || stack.has(key)) return;
    const group = r.dict(dict, "Group");
    const matrix = toMatrix(r.numbers(r.array(dict, "Matrix"))) ?? IDENTITY;
    if (group && r.nameOf(group, "S") === "Transparency") {
      const source = `transparency group (form ${name})`;
      this.findings.transparency.add(source);
      const bbox = r.numbers(r.array(dict, "BBox"));
      if (bbox?.length === 4 && context !== "pattern") this.record({ kind: "vector", box: transformRect(multiply(matrix, gs.ctm), bbox[0]!, bbox[1]!, bbox[2]!, bbox[3]!), transparency: source, context });
    }
    // Forms without their own Resources use their parent's (allowed by older PDF versions).
    const formResources = r.dict(dict, "Resources") ?? resources;
    stack.add(key);
    try {
      this.walkStream(obj, formResources, multiply(matrix, gs.ctm), depth + 1, stack, context);
    } finally {
      stack.delete(key);
    }
  }

  private drawInlineImage(dict: Map<string, Operand>, gs: GState, named: (n: string) => PDFObject | undefined, context: ImagePlacement["context"]): void {
    const isMask = dict.get("ImageMask") === true;
    const cs = dict.get("ColorSpace");
    let color: ColorUse = DEVICE_GRAY;
    if (isMask) color = gs.fill ?? DEVICE_GRAY;
    else if (isName(cs)) color = classifyColorSpace(this.r, PDFName.of(cs.name), named);
    if (!isMask) this.useColor(color, "inline image");
    const w = dict.get("Width");
    const h = dict.get("Height");
    this.recordImage({ name: "inline image", widthPx: typeof w === "number" ? w : 0, heightPx: typeof h === "number" ? h : 0, ctm: gs.ctm, color, context });
    if (context !== "pattern") this.record({ kind: "image", box: transformRect(gs.ctm, 0, 0, 1, 1), ...(gs.transparent ? { transparency: gs.transparent } : {}), context });
  }

  private recordImage(p: { name: string; objectNumber?: number; widthPx: number; heightPx: number; ctm: Matrix; color: ColorUse; context: ImagePlacement["context"] }): void {
    const [a, b, c, d] = p.ctm;
    // The image's columns run along the CTM's first axis and its rows along the second,
    // whatever the rotation, so each axis's length gives that axis's printed size.
    const placedWidthPt = Math.hypot(a, b);
    const placedHeightPt = Math.hypot(c, d);
    if (placedWidthPt < 0.01 || placedHeightPt < 0.01 || p.widthPx <= 0 || p.heightPx <= 0) return;
    this.findings.images.push({
      name: p.name,
      objectNumber: p.objectNumber,
      widthPx: p.widthPx,
      heightPx: p.heightPx,
      box: transformRect(p.ctm, 0, 0, 1, 1),
      placedWidthPt,
      placedHeightPt,
      ppiX: (p.widthPx * 72) / placedWidthPt,
      ppiY: (p.heightPx * 72) / placedHeightPt,
      color: p.color,
      context: p.context,
    });
  }

  private walkPattern(resources: PDFDict | undefined, name: string, depth: number, stack: Set<PDFObject>): void {
    const r = this.r;
    const raw = r.dict(resources, "Pattern")?.get(r.name(name));
    const obj = r.resolve(raw);
    const key = obj ? identity(raw, obj) : undefined;
    if (!obj || !key || stack.has(key) || depth >= MAX_DEPTH) return;
    const dict = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    if (!dict) return;
    const named = (n: string) => r.get(r.dict(resources, "ColorSpace"), n);
    const ext = r.dict(dict, "ExtGState");
    // A shading pattern's own graphics state applies while it paints.
    if (ext) for (const s of this.extGStateFromDict(ext, `pattern ${name}`)) this.findings.transparency.add(s);
    if (r.number(dict, "PatternType") === 2) {
      this.useShading(r.resolve(dict.get(r.name("Shading"))), `shading pattern ${name}`, named);
      return;
    }
    if (obj instanceof PDFStream) {
      const matrix = toMatrix(r.numbers(r.array(dict, "Matrix"))) ?? IDENTITY;
      stack.add(key);
      try {
        this.walkStream(obj, r.dict(dict, "Resources") ?? resources, matrix, depth + 1, stack, "pattern");
      } finally {
        stack.delete(key);
      }
    }
  }

  private extGStateFromDict(dict: PDFDict, where: string): string[] {
    const r = this.r;
    const found: string[] = [];
    const CA = r.number(dict, "CA");
    const ca = r.number(dict, "ca");
    if (CA !== undefined && translucent(CA)) found.push(`stroke opacity ${shownOpacity(CA)} (${where})`);
    if (ca !== undefined && translucent(ca)) found.push(`fill opacity ${shownOpacity(ca)} (${where})`);
    // BM may be an array of modes in preference order: the first one known is used.
    const bm = r.get(dict, "BM");
    const modes = bm instanceof PDFArray ? bm.asArray().map((o) => r.resolve(o)) : [bm];
    const mode = modes.map((m) => (m instanceof PDFName ? m.decodeText() : undefined)).find((m) => m !== undefined);
    if (mode && mode !== "Normal" && mode !== "Compatible") found.push(`blend mode ${mode} (${where})`);
    const smask = r.get(dict, "SMask");
    if (smask instanceof PDFDict || smask instanceof PDFStream) found.push(`soft mask (${where})`);
    return found;
  }

  /** Printed annotations: their own opacity and their normal appearance stream, placed on the page. */
  private walkAnnotations(annots: PDFArray, pageResources: PDFDict | undefined): void {
    const r = this.r;
    for (let i = 0; i < annots.size(); i++) {
      const annot = r.resolve(annots.get(i));
      if (!(annot instanceof PDFDict)) continue;
      const flags = r.number(annot, "F") ?? 0;
      // Only annotations with the Print flag and without Hidden end up on paper.
      if (!(flags & 4) || flags & 2) continue;
      const subtype = r.nameOf(annot, "Subtype") ?? "annotation";
      if (subtype === "Popup") continue;
      const CA = r.number(annot, "CA");
      const rect = r.numbers(r.array(annot, "Rect"));
      if (CA !== undefined && translucent(CA)) {
        const source = `${subtype} annotation opacity ${shownOpacity(CA)}`;
        this.findings.transparency.add(source);
        if (rect?.length === 4) this.record({ kind: "vector", box: transformRect(IDENTITY, Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)), transparency: source, context: "annotation" });
      }
      const appearance = this.normalAppearance(annot);
      if (!appearance || !rect || rect.length !== 4) continue;
      const bbox = r.numbers(r.array(appearance.dict, "BBox"));
      const matrix = toMatrix(r.numbers(r.array(appearance.dict, "Matrix"))) ?? IDENTITY;
      if (!bbox || bbox.length !== 4) continue;
      // PDF 32000 12.5.5: the transformed BBox is fitted onto Rect.
      const t = transformRect(matrix, bbox[0]!, bbox[1]!, bbox[2]!, bbox[3]!);
      if (t.width <= 0 || t.height <= 0) continue;
      const [rx0, ry0, rx1, ry1] = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)];
      const fit: Matrix = [(rx1 - rx0) / t.width, 0, 0, (ry1 - ry0) / t.height, rx0 - (t.x * (rx1 - rx0)) / t.width, ry0 - (t.y * (ry1 - ry0)) / t.height];
      const group = r.dict(appearance.dict, "Group");
      if (group && r.nameOf(group, "S") === "Transparency") this.findings.transparency.add(`transparency group (${subtype} annotation)`);
      this.walkStream(appearance, r.dict(appearance.dict, "Resources") ?? pageResources, multiply(matrix, fit), 1, new Set(), "annotation");
    }
  }

  private normalAppearance(annot: PDFDict): PDFStream | undefined {
    const r = this.r;
    const n = r.get(r.dict(annot, "AP"), "N");
    if (n instanceof PDFStream) return n;
    if (n instanceof PDFDict) {
      const state = r.nameOf(annot, "AS");
      const chosen = state ? r.get(n, state) : undefined;
      return chosen instanceof PDFStream ? chosen : undefined;
    }
    return undefined;
  }

  private walkStream(stream: PDFStream, resources: PDFDict | undefined, ctm: Matrix, depth: number, stack: Set<PDFObject>, context: ImagePlacement["context"]): void {
    let bytes = this.decoded.get(stream);
    if (!bytes) {
      try {
        bytes = this.r.bytes(stream);
      } catch (err) {
        this.damaged(`a content stream could not be decoded (${(err as Error).message})`);
        return;
      }
      // Forms are often drawn many times (a logo on every page): decode each once,
      // within a memory budget.
      if (this.decodedBytes + bytes.length <= DECODED_CACHE_BYTES) {
        this.decoded.set(stream, bytes);
        this.decodedBytes += bytes.length;
      }
    }
    this.walk(bytes, resources, ctm, depth, stack, context);
  }
}

const DEVICE_RGB: ColorUse = { family: "rgb", label: "DeviceRGB" };
const DEVICE_CMYK: ColorUse = { family: "cmyk", label: "DeviceCMYK" };
const DEVICE_GRAY: ColorUse = { family: "gray", label: "DeviceGray" };

function nameArg(args: Operand[], i: number): string | undefined {
  const v = args[i];
  return isName(v) ? v.name : undefined;
}

/** JPEG 2000 images may omit ColorSpace: the colour model is inside the codestream. */
function jpxColor(r: PdfReader, dict: PDFDict): ColorUse {
  const filter = r.get(dict, "Filter");
  const names = filter instanceof PDFArray ? filter.asArray().map((o) => r.resolve(o)) : [filter];
  const isJpx = names.some((n) => n instanceof PDFName && n.decodeText() === "JPXDecode");
  return { family: "unknown", label: isJpx ? "JPEG 2000 embedded colour" : "unknown" };
}


/**
 * An opacity that changes what prints: below 1 by more than one step of an 8-bit
 * channel (1/255). 0.9999999, a writer's rounding of 1, is opaque.
 */
export const OPACITY_TOLERANCE = 1 / 255;
const translucent = (opacity: number) => opacity < 1 - OPACITY_TOLERANCE;
/** A translucent opacity for people, rounded down so it never reads as 1. */
const shownOpacity = (opacity: number) => Math.floor(opacity * 100) / 100;

