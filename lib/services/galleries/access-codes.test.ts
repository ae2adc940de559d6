import { describe, expect, it } from "vitest";
import { CODE_BITS, codeLookup, newAccessCode, normaliseCode, openCode, sealCode } from "./access-codes";

describe("gallery access codes", () => {
  it("are 10 unambiguous characters (50 bits), grouped for print, and never repeat in a sample", () => {
    expect(CODE_BITS).toBeGreaterThanOrEqual(40);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = newAccessCode();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
      seen.add(code);
    }
    expect(seen.size).toBe(2000);
  });

  it("accept what a parent types: lower case, spaces, no dash, O for 0 and I or L for 1", () => {
    expect(normaliseCode(" 7kq2m 9xd4p ")).toBe("7KQ2M9XD4P");
    expect(normaliseCode("OIL00-11111")).toBe("01100" + "11111");
    expect(normaliseCode("7KQ2M-9XD4")).toBeNull();
    expect(normaliseCode("7KQ2M-9XD4U")).toBeNull();
  });

  it("are found by a keyed lookup and kept sealed, not in clear", () => {
    const code = newAccessCode();
    const sealed = sealCode(code);
    expect(sealed).not.toContain(code);
    expect(openCode(sealed)).toBe(code);
    expect(codeLookup(normaliseCode(code)!)).toBe(codeLookup(normaliseCode(code.toLowerCase())!));
    expect(codeLookup(normaliseCode(code)!)).not.toContain(normaliseCode(code)!);
  });
});
