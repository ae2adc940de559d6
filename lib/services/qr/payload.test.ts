import { describe, expect, it } from "vitest";
import { parseQrPayload, qrPayload } from "./payload";

describe("QR payload", () => {
  it("round-trips ids that contain the separator, percent signs and Unicode", () => {
    for (const [job, student] of [
      ["SPRING-2026", "S000123"],
      ["a:b", "c:d"],
      ["100%", "%3A"],
      ["École Ōsaka", "山田-01"],
    ] as const) {
      const text = qrPayload(job, student);
      expect(text.split(":")).toHaveLength(3);
      expect(parseQrPayload(text)).toEqual({ jobId: job, studentId: student });
    }
    expect(qrPayload("SPRING-2026", "S000123")).toBe("psqr1:SPRING-2026:S000123");
  });

  it("refuses text that is not a card payload", () => {
    for (const text of ["", "psqr1:a", "psqr2:a:b", "psqr1::b", "psqr1:a:b:c", "https://example.com", "psqr1:%E0%A4%A:b"]) {
      expect(parseQrPayload(text)).toBeNull();
    }
  });
});
