import { PDFArray, PDFDict, PDFName, PDFObject, PDFStream } from "pdf-lib";
import type { PdfReader } from "./pdf-objects";

/**
 * What a colour space means for print: process RGB (device or ICC), process
 * CMYK, grey, Lab, spot inks (Separation/DeviceN naming non-process colorants),
 * or a pattern (whose own content is examined separately).
 */
export type ColorFamily = "rgb" | "cmyk" | "gray" | "lab" | "spot" | "pattern" | "unknown";

export type ColorUse = {
  family: ColorFamily;
  /** Human label used in messages: "DeviceRGB", "ICCBased RGB", "Separation PANTONE 185 C". */
  label: string;
  /** Spot colorant names, for family "spot". */
  spotNames?: string[];
  /** For [/Pattern base]: the base space that colours uncoloured patterns. */
  patternBase?: ColorUse;
};

const PROCESS_COLORANTS = new Set(["Cyan", "Magenta", "Yellow", "Black"]);

const DEVICE: Record<string, ColorUse> = {
  DeviceRGB: { family: "rgb", label: "DeviceRGB" },
  RGB: { family: "rgb", label: "DeviceRGB" },
  DeviceCMYK: { family: "cmyk", label: "DeviceCMYK" },
  CMYK: { family: "cmyk", label: "DeviceCMYK" },
  DeviceGray: { family: "gray", label: "DeviceGray" },
  G: { family: "gray", label: "DeviceGray" },
  Pattern: { family: "pattern", label: "Pattern" },
};

/**
 * Classifies a colour space object (a name, or an array such as [/ICCBased ref]).
 * `named` resolves a content-stream name through the Resources' ColorSpace dictionary.
 */
export function classifyColorSpace(reader: PdfReader, obj: PDFObject | undefined, named?: (name: string) => PDFObject | undefined, depth = 0): ColorUse {
  const cs = reader.resolve(obj);
  if (depth > 6 || cs === undefined) return { family: "unknown", label: "unknown" };
  if (cs instanceof PDFName) {
    const n = cs.decodeText();
    if (DEVICE[n]) return DEVICE[n]!;
    if (n === "I" || n === "Indexed") return { family: "unknown", label: "Indexed" };
    const fromResources = named?.(n);
    return fromResources ? classifyColorSpace(reader, fromResources, undefined, depth + 1) : { family: "unknown", label: n };
  }
  if (!(cs instanceof PDFArray) || cs.size() === 0) return { family: "unknown", label: "unknown" };
  const kind = reader.resolve(cs.get(0));
  const type = kind instanceof PDFName ? kind.decodeText() : "";
  switch (type) {
    case "ICCBased": {
      const stream = reader.resolve(cs.get(1));
      const dict = stream instanceof PDFStream ? stream.dict : stream instanceof PDFDict ? stream : undefined;
      const n = reader.number(dict, "N");
      if (n === 3) return { family: "rgb", label: "ICCBased RGB" };
      if (n === 4) return { family: "cmyk", label: "ICCBased CMYK" };
      if (n === 1) return { family: "gray", label: "ICCBased Gray" };
      return { family: "unknown", label: "ICCBased" };
    }
    case "CalRGB":
      return { family: "rgb", label: "CalRGB" };
    case "CalGray":
      return { family: "gray", label: "CalGray" };
    case "Lab":
      return { family: "lab", label: "Lab" };
    case "Indexed":
    case "I": {
      const base = classifyColorSpace(reader, cs.get(1), named, depth + 1);
      return { ...base, label: `Indexed ${base.label}` };
    }
    case "Pattern": {
      const base = cs.size() > 1 ? classifyColorSpace(reader, cs.get(1), named, depth + 1) : undefined;
      return { family: "pattern", label: "Pattern", patternBase: base };
    }
    case "Separation": {
      const colorant = reader.resolve(cs.get(1));
      const name = colorant instanceof PDFName ? colorant.decodeText() : "?";
      // /All is registration (every plate), /None paints nothing; process names are CMYK plates.
      if (name === "All" || name === "None") return { family: "gray", label: `Separation ${name}` };
      if (PROCESS_COLORANTS.has(name)) return { family: "cmyk", label: `Separation ${name}` };
      return { family: "spot", label: `Separation ${name}`, spotNames: [name] };
    }
    case "DeviceN": {
      const names = reader.resolve(cs.get(1));
      const colorants = names instanceof PDFArray ? names.asArray().map((o) => reader.resolve(o)).filter((o): o is PDFName => o instanceof PDFName).map((o) => o.decodeText()) : [];
      const spots = colorants.filter((n) => !PROCESS_COLORANTS.has(n) && n !== "None" && n !== "All");
      if (spots.length === 0) return { family: "cmyk", label: `DeviceN (${colorants.join(", ")})` };
      return { family: "spot", label: `DeviceN (${colorants.join(", ")})`, spotNames: spots };
    }
    default:
      if (DEVICE[type]) return DEVICE[type]!;
      return { family: "unknown", label: type || "unknown" };
  }
}
