// Decodes QR codes with ZXing-C++ (zxing-wasm), a reader independent of the
// qrcode package that encodes them; the module is the card reader's own
// (lib/engines/imaging/card-reader/zxing-module.ts), loaded from node_modules.
import { readBarcodes } from "zxing-wasm/reader";
import { zxingReader } from "@/lib/engines/imaging/card-reader/zxing-module";
import type { Pixels } from "./pdf-render";

/**
 * Every QR code ZXing finds in the image, as text (UTF-8 unless the code says
 * otherwise). Throws on a code that is found but fails to decode (a damaged
 * code is a finding, not silence).
 */
export async function scanQrCodes(image: Pixels): Promise<string[]> {
  await zxingReader();
  const results = await readBarcodes(image as unknown as ImageData, { formats: ["QRCode"], textMode: "Plain", returnErrors: true });
  const broken = results.filter((r) => !r.isValid);
  if (broken.length > 0) throw new Error(`QR code found but not decoded: ${broken.map((r) => r.error).join("; ")}`);
  return results.map((r) => r.text);
}
