// Decodes QR codes with ZXing-C++ (zxing-wasm), a reader independent of the
// qrcode package that encodes them. The WebAssembly binary is read from
// node_modules: zxing-wasm's default would fetch it from a CDN.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { prepareZXingModule, readBarcodes, type ZXingReaderModule } from "zxing-wasm/reader";
import type { Pixels } from "./pdf-render";

let ready: Promise<ZXingReaderModule> | undefined;

function zxing(): Promise<ZXingReaderModule> {
  if (!ready) {
    const wasm = createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm");
    const bytes = fs.readFileSync(wasm);
    ready = prepareZXingModule({
      overrides: {
        wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
        // Never a URL: with wasmBinary given nothing is fetched, and were it asked, the local file is the answer.
        locateFile: (file: string) => path.join(path.dirname(wasm), file),
      },
      fireImmediately: true,
    });
  }
  return ready;
}

/**
 * Every QR code ZXing finds in the image, as text (UTF-8 unless the code says
 * otherwise). Throws on a code that is found but fails to decode (a damaged
 * code is a finding, not silence).
 */
export async function scanQrCodes(image: Pixels): Promise<string[]> {
  await zxing();
  const results = await readBarcodes(image as unknown as ImageData, { formats: ["QRCode"], textMode: "Plain", returnErrors: true });
  const broken = results.filter((r) => !r.isValid);
  if (broken.length > 0) throw new Error(`QR code found but not decoded: ${broken.map((r) => r.error).join("; ")}`);
  return results.map((r) => r.text);
}
