import { describe, expect, it } from "vitest";
import { ContentLexer, type Operand } from "./content-lexer";

function ops(src: string | Uint8Array) {
  const out: [string, Operand[]][] = [];
  new ContentLexer(typeof src === "string" ? Buffer.from(src, "latin1") : src).run((op, args) => out.push([op, [...args]]));
  return out;
}

describe("content lexer", () => {
  it("reads numbers, names, strings, arrays and dictionaries as operands", () => {
    const out = ops("q 1 0 0 1 -72.5 .5 cm /Im#201 Do [(a\\)b) <414 2> 3] TJ << /Type /X /N [1 2] >> BDC Q");
    expect(out.map(([op]) => op)).toEqual(["q", "cm", "Do", "TJ", "BDC", "Q"]);
    expect(out[1]![1]).toEqual([1, 0, 0, 1, -72.5, 0.5]);
    expect(out[2]![1]).toEqual([{ name: "Im 1" }]);
    const tj = out[3]![1][0] as Operand[];
    expect(Buffer.from(tj[0] as Uint8Array).toString("latin1")).toBe("a)b");
    expect(Buffer.from(tj[1] as Uint8Array).toString("latin1")).toBe("AB");
    expect(tj[2]).toBe(3);
    const dict = out[4]![1][0] as Map<string, Operand>;
    expect(dict.get("Type")).toEqual({ name: "X" });
    expect(dict.get("N")).toEqual([1, 2]);
  });

  it("handles nested parentheses, escapes and comments", () => {
    const out = ops("% comment with ) and [\n(nested (paren) \\(x\\) \\101) Tj");
    expect(out).toHaveLength(1);
    expect(Buffer.from(out[0]![1][0] as Uint8Array).toString("latin1")).toBe("nested (paren) (x) A");
  });

  it("skips inline image data, even data containing EI and operator-like bytes", () => {
    // Unfiltered 4 x 1 RGB image: 12 bytes that include "EI" and "Q".
    const data = Buffer.from(" EI Q EI q ", "latin1").subarray(0, 12);
    const src = Buffer.concat([Buffer.from("q 10 0 0 10 0 0 cm BI /W 4 /H 1 /CS /RGB /BPC 8 ID ", "latin1"), data, Buffer.from(" EI Q 1 0 0 rg", "latin1")]);
    const out = ops(src);
    expect(out.map(([op]) => op)).toEqual(["q", "cm", "BI", "Q", "rg"]);
    const dict = out[2]![1][0] as Map<string, Operand>;
    expect(dict.get("Width")).toBe(4);
    expect(dict.get("ColorSpace")).toEqual({ name: "RGB" });
  });

  it("finds the end of filtered inline images by the EI that is followed by content", () => {
    const binary = Buffer.from([0x00, 0x45, 0x49, 0xff, 0x20, 0x45, 0x49, 0x01, 0x02]);
    const src = Buffer.concat([Buffer.from("BI /W 8 /H 8 /F /AHx /CS /G /BPC 8 ID ", "latin1"), binary, Buffer.from("\nEI\n0 g", "latin1")]);
    expect(ops(src).map(([op]) => op)).toEqual(["BI", "g"]);
  });

  it("survives malformed input without throwing", () => {
    expect(() => ops("]] >> ) 1.2.3 -- /  ( unterminated")).not.toThrow();
    expect(() => ops(Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 37) % 256)))).not.toThrow();
  });
});
