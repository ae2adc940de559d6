import {
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  PDFContext,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from "pdf-lib";

/** Small typed accessors over pdf-lib objects: every lookup follows references and tolerates wrong types. */
export class PdfReader {
  private readonly names = new Map<string, PDFName>();
  constructor(readonly context: PDFContext) {}

  name(key: string): PDFName {
    let n = this.names.get(key);
    if (!n) {
      n = PDFName.of(key);
      this.names.set(key, n);
    }
    return n;
  }

  resolve(obj: PDFObject | undefined): PDFObject | undefined {
    let cur = obj;
    // Chains of references are legal; a loop of them is not: give up after a few hops.
    for (let i = 0; i < 8 && cur instanceof PDFRef; i++) cur = this.context.lookup(cur);
    return cur instanceof PDFRef ? undefined : cur;
  }

  get(dict: PDFDict | undefined, key: string): PDFObject | undefined {
    return dict ? this.resolve(dict.get(this.name(key))) : undefined;
  }

  dict(dict: PDFDict | undefined, key: string): PDFDict | undefined {
    const v = this.get(dict, key);
    if (v instanceof PDFDict) return v;
    if (v instanceof PDFStream) return v.dict;
    return undefined;
  }

  /** A stream entry, or a dictionary entry that is a stream's dictionary. */
  stream(dict: PDFDict | undefined, key: string): PDFStream | undefined {
    const v = this.get(dict, key);
    return v instanceof PDFStream ? v : undefined;
  }

  array(dict: PDFDict | undefined, key: string): PDFArray | undefined {
    const v = this.get(dict, key);
    return v instanceof PDFArray ? v : undefined;
  }

  number(dict: PDFDict | undefined, key: string): number | undefined {
    return asNumber(this.get(dict, key));
  }

  nameOf(dict: PDFDict | undefined, key: string): string | undefined {
    return asName(this.get(dict, key));
  }

  bool(dict: PDFDict | undefined, key: string): boolean | undefined {
    const v = this.get(dict, key);
    return v instanceof PDFBool ? v.asBoolean() : undefined;
  }

  numbers(arr: PDFArray | undefined): number[] | undefined {
    if (!arr) return undefined;
    const out: number[] = [];
    for (let i = 0; i < arr.size(); i++) {
      const n = asNumber(this.resolve(arr.get(i)));
      if (n === undefined) return undefined;
      out.push(n);
    }
    return out;
  }

  /** Decoded stream bytes. Throws (with a readable message) for filters content streams never use or broken data. */
  bytes(stream: PDFStream): Uint8Array {
    if (stream instanceof PDFRawStream) return decodePDFRawStream(stream).decode();
    return stream.getContents();
  }
}

export function asNumber(v: PDFObject | undefined): number | undefined {
  if (v instanceof PDFNumber) {
    const n = v.asNumber();
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function asName(v: PDFObject | undefined): string | undefined {
  return v instanceof PDFName ? v.decodeText() : undefined;
}

/** Objects that identify a resource for caching and cycle checks: the reference when there is one. */
export function identity(raw: PDFObject | undefined, resolved: PDFObject): PDFObject {
  return raw instanceof PDFRef ? raw : resolved;
}
