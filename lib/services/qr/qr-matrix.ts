import QRCode from "qrcode";
import { createWithBestMask } from "./best-mask";

/**
 * Medium error correction (15%): survives scuffs and a thumb over a corner on a
 * handled card, while keeping modules bigger than Q or H would at the same size.
 */
export const ERROR_CORRECTION = "M" as const;

export type QrMatrix = { size: number; data: Uint8Array };

/** The smallest QR version that holds every payload, so all cards of a run look alike. */
export function versionFor(payloads: string[]): number {
  let longest = "";
  for (const p of payloads) if (Buffer.byteLength(p) > Buffer.byteLength(longest)) longest = p;
  return QRCode.create(segments(longest), { errorCorrectionLevel: ERROR_CORRECTION }).version;
}

export function qrMatrix(payload: string, version: number): QrMatrix {
  const { modules } = createWithBestMask(segments(payload), { errorCorrectionLevel: ERROR_CORRECTION, version });
  return { size: modules.size, data: modules.data };
}

/**
 * One byte-mode segment: payloads start with lowercase letters, so byte mode is
 * what the optimiser would pick anyway, and skipping its search saves ~15% of
 * the encoding time; it also makes the capacity a plain function of the length.
 */
function segments(payload: string): QRCode.QRCodeSegment[] {
  return [{ data: Buffer.from(payload, "utf8"), mode: "byte" }];
}

/**
 * The dark modules as PDF path operators in module units (one rectangle per
 * horizontal run, y up), filled in one go. Drawn as vectors, the code stays
 * sharp at any print resolution; module units keep the stream short, and the
 * caller scales them with a `cm`.
 */
export function qrPathOps(matrix: QrMatrix): string {
  const { size, data } = matrix;
  const parts: string[] = [];
  for (let r = 0; r < size; r++) {
    const y = size - 1 - r;
    let c = 0;
    while (c < size) {
      if (!data[r * size + c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < size && data[r * size + c]) c++;
      parts.push(`${start} ${y} ${c - start} 1 re`);
    }
  }
  return `${parts.join("\n")}\nf\n`;
}
