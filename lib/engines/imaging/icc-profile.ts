/** The two facts about an embedded ICC profile a print check needs: its colour space and its name. */
export type IccProfileInfo = {
  /** The profile's data colour space signature, trimmed: "RGB", "CMYK", "GRAY", "Lab" ... */
  colorSpace: string;
  /** The profile description ("sRGB IEC61966-2.1", "Coated FOGRA39 ..."), when readable. */
  description?: string;
};

/**
 * Reads the ICC header (ICC.1 7.2: colour space at byte 16) and the `desc` tag
 * (v2 textDescriptionType or v4 multiLocalizedUnicodeType). Returns undefined
 * for data too short to be a profile.
 */
export function readIccProfile(icc: Uint8Array): IccProfileInfo | undefined {
  if (icc.length < 132) return undefined;
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength);
  const colorSpace = ascii(icc, 16, 20).trim();
  return { colorSpace, description: readDescription(icc, view) };
}

function readDescription(icc: Uint8Array, view: DataView): string | undefined {
  const count = view.getUint32(128);
  for (let i = 0; i < Math.min(count, 200); i++) {
    const entry = 132 + i * 12;
    if (entry + 12 > icc.length) return undefined;
    if (ascii(icc, entry, entry + 4) !== "desc") continue;
    const offset = view.getUint32(entry + 4);
    const size = view.getUint32(entry + 8);
    if (offset + size > icc.length || size < 12) return undefined;
    const type = ascii(icc, offset, offset + 4);
    if (type === "desc") {
      const len = view.getUint32(offset + 8);
      const text = ascii(icc, offset + 12, Math.min(offset + 12 + len, offset + size));
      return clean(text);
    }
    if (type === "mluc") {
      const records = view.getUint32(offset + 8);
      if (records < 1) return undefined;
      const strLen = view.getUint32(offset + 16 + 4);
      const strOff = view.getUint32(offset + 16 + 8);
      const start = offset + strOff;
      if (start + strLen > icc.length) return undefined;
      let text = "";
      for (let j = start; j + 1 < start + strLen; j += 2) text += String.fromCharCode(view.getUint16(j));
      return clean(text);
    }
    return undefined;
  }
  return undefined;
}

function ascii(b: Uint8Array, start: number, end: number): string {
  let s = "";
  for (let i = start; i < end && i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

function clean(s: string): string | undefined {
  // Strip the terminating NUL and anything non-printable, so names are safe to show in messages.
  const t = s.replace(/\0.*$/s, "").replace(/[^\x20-\x7e\u00a0-\uffff]/g, "").trim();
  return t ? t.slice(0, 120) : undefined;
}
