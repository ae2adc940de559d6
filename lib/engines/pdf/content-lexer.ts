/**
 * A small PDF content-stream parser: operands and operators, nothing else.
 * DESIGN.md measured this approach (walk with pdf-lib, tokenize content for
 * q/Q/cm/Do) at 0.5 s for 20 image-heavy pages where pdfjs-dist took 20 s+,
 * because nothing here decodes images or builds glyph outlines.
 *
 * Operands are plain values: numbers, names (`{ name }`), strings (bytes),
 * arrays, dictionaries (Map keyed by name without the slash), booleans, null.
 * Inline images (BI ... ID <bytes> EI) come out as one `BI` operator whose
 * single operand is the image dictionary; the binary data is skipped.
 */
export type PdfName = { readonly name: string };
export type Operand = number | boolean | null | PdfName | Uint8Array | Operand[] | Map<string, Operand>;

export const isName = (v: Operand | undefined): v is PdfName =>
  typeof v === "object" && v !== null && !(v instanceof Uint8Array) && !Array.isArray(v) && !(v instanceof Map);

/** Thrown for content the lexer cannot make sense of (the page is reported as damaged). */
export class ContentSyntaxError extends Error {}

const WHITESPACE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITESPACE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of "()<>[]{}/%") DELIMITER[c.charCodeAt(0)] = 1;

const enum Ch {
  Percent = 0x25,
  Slash = 0x2f,
  LParen = 0x28,
  RParen = 0x29,
  Lt = 0x3c,
  Gt = 0x3e,
  LBracket = 0x5b,
  RBracket = 0x5d,
  LBrace = 0x7b,
  RBrace = 0x7d,
  Backslash = 0x5c,
  Hash = 0x23,
  Minus = 0x2d,
  Plus = 0x2b,
  Dot = 0x2e,
  Zero = 0x30,
  Nine = 0x39,
  LF = 0x0a,
  CR = 0x0d,
}

/** Sentinel objects for structural tokens, so they never collide with operand values. */
const ARRAY_END = Symbol("]");
const DICT_END = Symbol(">>");
type Raw = Operand | { op: string } | typeof ARRAY_END | typeof DICT_END;

/** Abbreviations allowed in inline image dictionaries (PDF 32000 table 93). */
const INLINE_KEYS: Record<string, string> = {
  BPC: "BitsPerComponent",
  CS: "ColorSpace",
  D: "Decode",
  DP: "DecodeParms",
  F: "Filter",
  H: "Height",
  IM: "ImageMask",
  I: "Interpolate",
  W: "Width",
  L: "Length",
};

export class ContentLexer {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  /** Where the lexer is in the stream: right after the operator `run` last reported. */
  get offset(): number {
    return this.pos;
  }

  /**
   * Calls `onOp(operator, operands)` for every operator in the stream. The
   * operands array is reused between calls: copy what you keep.
   */
  run(onOp: (op: string, operands: Operand[]) => void): void {
    const operands: Operand[] = [];
    for (;;) {
      const t = this.readRaw();
      if (t === undefined) return;
      if (t === ARRAY_END || t === DICT_END) continue; // stray closer: ignore, as viewers do
      if (typeof t === "object" && t !== null && "op" in t) {
        if (t.op === "BI") {
          operands.length = 0;
          operands.push(this.readInlineImage());
          onOp("BI", operands);
        } else {
          onOp(t.op, operands);
        }
        operands.length = 0;
      } else {
        operands.push(t as Operand);
        // A run of operands this long is not a real content stream; stop it growing without bound.
        if (operands.length > 10_000) throw new ContentSyntaxError("Too many operands without an operator.");
      }
    }
  }

  private skipWhitespaceAndComments(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WHITESPACE[c]) this.pos++;
      else if (c === Ch.Percent) {
        while (this.pos < b.length && b[this.pos] !== Ch.LF && b[this.pos] !== Ch.CR) this.pos++;
      } else return;
    }
  }

  private readRaw(): Raw | undefined {
    this.skipWhitespaceAndComments();
    const b = this.bytes;
    if (this.pos >= b.length) return undefined;
    const c = b[this.pos]!;
    if (c === Ch.Slash) return this.readName();
    if ((c >= Ch.Zero && c <= Ch.Nine) || c === Ch.Minus || c === Ch.Plus || c === Ch.Dot) return this.readNumber();
    if (c === Ch.LParen) return this.readLiteralString();
    if (c === Ch.Lt) {
      if (b[this.pos + 1] === Ch.Lt) {
        this.pos += 2;
        return this.readDict(DICT_END);
      }
      return this.readHexString();
    }
    if (c === Ch.Gt) {
      this.pos += b[this.pos + 1] === Ch.Gt ? 2 : 1;
      return DICT_END;
    }
    if (c === Ch.LBracket) {
      this.pos++;
      return this.readArray();
    }
    if (c === Ch.RBracket) {
      this.pos++;
      return ARRAY_END;
    }
    if (c === Ch.LBrace || c === Ch.RBrace) {
      // Only in PostScript calculator functions, never in content streams: skip.
      this.pos++;
      return this.readRaw();
    }
    return this.readKeyword();
  }

  private readKeyword(): Raw {
    const b = this.bytes;
    const start = this.pos;
    while (this.pos < b.length && !WHITESPACE[b[this.pos]!] && !DELIMITER[b[this.pos]!]) this.pos++;
    if (this.pos === start) {
      this.pos++; // an unexpected delimiter: skip it
      return this.readRaw() ?? { op: "" };
    }
    const word = latin1(b, start, this.pos);
    if (word === "true") return true;
    if (word === "false") return false;
    if (word === "null") return null;
    return { op: word };
  }

  private readName(): PdfName {
    const b = this.bytes;
    this.pos++; // the slash
    let out = "";
    let start = this.pos;
    while (this.pos < b.length && !WHITESPACE[b[this.pos]!] && !DELIMITER[b[this.pos]!]) {
      if (b[this.pos] === Ch.Hash && this.pos + 2 < b.length) {
        const hex = latin1(b, this.pos + 1, this.pos + 3);
        if (/^[0-9a-fA-F]{2}$/.test(hex)) {
          out += latin1(b, start, this.pos) + String.fromCharCode(parseInt(hex, 16));
          this.pos += 3;
          start = this.pos;
          continue;
        }
      }
      this.pos++;
    }
    return { name: out + latin1(b, start, this.pos) };
  }

  private readNumber(): Raw {
    const b = this.bytes;
    const start = this.pos;
    this.pos++;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if ((c >= Ch.Zero && c <= Ch.Nine) || c === Ch.Dot || c === Ch.Minus) this.pos++;
      else break;
    }
    // Something like "1.2.3" or "--5" is malformed; viewers read the leading number.
    const text = latin1(b, start, this.pos);
    const n = parseFloat(text);
    if (Number.isNaN(n)) {
      // "+" or "-" alone, or ".": treat the run as a keyword (an operator nobody knows).
      return { op: text };
    }
    return n;
  }

  private readLiteralString(): Uint8Array {
    const b = this.bytes;
    this.pos++; // (
    let depth = 1;
    const out: number[] = [];
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === Ch.Backslash) {
        const n = b[this.pos++];
        if (n === undefined) break;
        // Escapes matter only for where the string ends; the value is not interpreted further.
        if (n >= 0x30 && n <= 0x37) {
          let v = n - 0x30;
          for (let i = 0; i < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; i++) v = v * 8 + (b[this.pos++]! - 0x30);
          out.push(v & 0xff);
        } else if (n === Ch.CR || n === Ch.LF) {
          if (n === Ch.CR && b[this.pos] === Ch.LF) this.pos++;
        } else {
          out.push(({ 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c } as Record<number, number>)[n] ?? n);
        }
      } else if (c === Ch.LParen) {
        depth++;
        out.push(c);
      } else if (c === Ch.RParen) {
        if (--depth === 0) break;
        out.push(c);
      } else out.push(c);
    }
    return Uint8Array.from(out);
  }

  private readHexString(): Uint8Array {
    const b = this.bytes;
    this.pos++; // <
    const out: number[] = [];
    let high = -1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === Ch.Gt) break;
      const v = hexValue(c);
      if (v < 0) continue;
      if (high < 0) high = v;
      else {
        out.push(high * 16 + v);
        high = -1;
      }
    }
    if (high >= 0) out.push(high * 16);
    return Uint8Array.from(out);
  }

  private readArray(): Operand[] {
    const items: Operand[] = [];
    for (;;) {
      const t = this.readRaw();
      if (t === undefined || t === ARRAY_END) return items;
      if (t === DICT_END) continue;
      if (typeof t === "object" && t !== null && "op" in t) continue; // operators inside arrays are malformed: drop
      items.push(t as Operand);
    }
  }

  private readDict(end: typeof DICT_END | "ID"): Map<string, Operand> {
    const dict = new Map<string, Operand>();
    for (;;) {
      const key = this.readRaw();
      if (key === undefined || key === DICT_END) return dict;
      if (typeof key === "object" && key !== null && "op" in key) {
        if (end === "ID" && key.op === "ID") return dict;
        continue;
      }
      if (!isName(key as Operand)) continue;
      const value = this.readRaw();
      if (value === undefined) return dict;
      if (value === DICT_END || value === ARRAY_END) {
        if (value === DICT_END && end === DICT_END) return dict;
        continue;
      }
      if (typeof value === "object" && value !== null && "op" in value) {
        if (end === "ID" && value.op === "ID") return dict;
        continue;
      }
      dict.set((key as PdfName).name, value as Operand);
    }
  }

  /** Reads `<dict> ID <data> EI` after a BI operator; returns the dictionary with full key names. */
  private readInlineImage(): Map<string, Operand> {
    const short = this.readDict("ID");
    const dict = new Map<string, Operand>();
    for (const [k, v] of short) dict.set(INLINE_KEYS[k] ?? k, v);
    const b = this.bytes;
    // One whitespace byte separates ID from the data.
    if (WHITESPACE[b[this.pos] ?? 0]) this.pos++;
    const exact = unfilteredLength(dict);
    if (exact !== undefined && this.pos + exact <= b.length) {
      this.pos += exact;
      const after = this.pos;
      this.skipWhitespaceAndComments();
      if (b[this.pos] === 0x45 && b[this.pos + 1] === 0x49) {
        this.pos += 2;
        return dict;
      }
      this.pos = after;
    }
    this.pos = findInlineImageEnd(b, this.pos);
    return dict;
  }
}

/** Byte length of an unfiltered inline image, when the dictionary says enough to know it. */
function unfilteredLength(dict: Map<string, Operand>): number | undefined {
  const length = dict.get("Length");
  if (typeof length === "number" && length >= 0) return length;
  if (dict.has("Filter")) return undefined;
  const w = dict.get("Width");
  const h = dict.get("Height");
  if (typeof w !== "number" || typeof h !== "number") return undefined;
  const mask = dict.get("ImageMask") === true;
  const bpc = mask ? 1 : dict.get("BitsPerComponent");
  if (typeof bpc !== "number") return undefined;
  const cs = dict.get("ColorSpace");
  let comps = 1;
  if (!mask) {
    const n = isName(cs) ? cs.name : Array.isArray(cs) && isName(cs[0]) ? cs[0].name : undefined;
    if (n === "RGB" || n === "DeviceRGB" || n === "CalRGB") comps = 3;
    else if (n === "CMYK" || n === "DeviceCMYK") comps = 4;
    else if (n === "G" || n === "DeviceGray" || n === "I" || n === "Indexed" || n === "CalGray") comps = 1;
    else return undefined;
  }
  return h * Math.ceil((w * bpc * comps) / 8);
}

/**
 * The end of filtered inline image data: an "EI" with whitespace before and
 * whitespace (or the end) after, followed by what looks like more content
 * (printable text), which is how viewers disambiguate EI bytes inside the data.
 */
function findInlineImageEnd(b: Uint8Array, from: number): number {
  for (let i = from; i + 1 < b.length; i++) {
    if (b[i] !== 0x45 || b[i + 1] !== 0x49) continue;
    if (i > from && !WHITESPACE[b[i - 1]!]) continue;
    const next = b[i + 2];
    if (next !== undefined && !WHITESPACE[next]) continue;
    let plausible = true;
    for (let j = i + 2; j < Math.min(b.length, i + 12); j++) {
      const c = b[j]!;
      if (!(WHITESPACE[c] || (c >= 0x20 && c < 0x7f))) {
        plausible = false;
        break;
      }
    }
    if (plausible) return i + 2;
  }
  return b.length;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function latin1(b: Uint8Array, start: number, end: number): string {
  // Tokens are short: String.fromCharCode over a small slice is the fastest path.
  if (end - start < 64) {
    let s = "";
    for (let i = start; i < end; i++) s += String.fromCharCode(b[i]!);
    return s;
  }
  return Buffer.from(b.buffer, b.byteOffset + start, end - start).toString("latin1");
}
