import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import QRCode from "qrcode";
import { createWithBestMask } from "./best-mask";

describe("bestMask", () => {
  it("chooses the same mask as the qrcode library, so the symbols are identical", () => {
    const payloads = [
      "psqr1:SPRING-2026:S000123",
      "a",
      ...Array.from({ length: 600 }, (_, i) => `psqr1:${crypto.randomBytes(1 + (i % 60)).toString("base64url")}:${i}`),
    ];
    for (const payload of payloads) {
      const segments: QRCode.QRCodeSegment[] = [{ data: Buffer.from(payload), mode: "byte" }];
      const expected = QRCode.create(segments, { errorCorrectionLevel: "M" });
      const ours = createWithBestMask(segments, { errorCorrectionLevel: "M", version: expected.version });
      expect(ours.maskPattern, payload).toBe(expected.maskPattern);
      expect(Buffer.from(ours.modules.data).equals(Buffer.from(expected.modules.data))).toBe(true);
    }
  });
});
