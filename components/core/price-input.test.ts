import { describe, expect, it } from "vitest";
import { toMinorUnits } from "./format";

describe("toMinorUnits: prices as people type them", () => {
  it.each([
    ["49,99", "EUR", 4999],
    ["49.99", "USD", 4999],
    ["1,234.50", "USD", 123450],
    ["1.234,50", "EUR", 123450],
    ["1 234,50", "EUR", 123450],
    ["€49,99", "EUR", 4999],
    ["49 €", "EUR", 4900],
    ["49", "USD", 4900],
    ["1,234", "USD", 123400],
    ["49,9", "EUR", 4990],
    ["0,99", "EUR", 99],
    [",5", "EUR", 50],
    ["1000", "JPY", 1000],
  ])("%s %s -> %d", (text, currency, minor) => expect(toMinorUnits(text, currency)).toBe(minor));

  it.each([["abc"], ["-5"], [""], ["49,999,9"], ["4,99,9"], ["1,5 JPY"]])("%s is refused", (text) => expect(toMinorUnits(text, text.endsWith("JPY") ? "JPY" : "USD")).toBeNull());
});
