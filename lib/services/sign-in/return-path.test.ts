import { describe, expect, it } from "vitest";
import { safeReturnPath, signInPathFor } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps a same-site path with its query and fragment", () => {
    expect(safeReturnPath("/team")).toBe("/team");
    expect(safeReturnPath("/matching/12?tab=review#face-3")).toBe("/matching/12?tab=review#face-3");
    expect(safeReturnPath("/agencies/4/../../wallet")).toBe("/wallet");
  });

  it.each([
    ["absolute", "https://evil.example/team"],
    ["absolute, same scheme as the site", "http://127.0.0.1:3200/team"],
    ["javascript:", "javascript:alert(1)"],
    ["protocol-relative", "//evil.example/team"],
    ["backslash", "/\\evil.example"],
    ["backslashes only", "\\\\evil.example"],
    ["backslash later in the path", "/team\\..\\x"],
    ["a tab that browsers drop", "/\t/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["relative", "team"],
    ["empty", ""],
    ["the sign-in page itself", "/signin?callbackUrl=%2Fteam"],
    ["too long", `/${"a".repeat(2001)}`],
  ])("refuses %s", (_why, value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });

  it("refuses what is not a string", () => {
    expect(safeReturnPath(undefined)).toBeUndefined();
    expect(safeReturnPath(null)).toBeUndefined();
  });
});

describe("signInPathFor", () => {
  it("carries a safe path, and nothing else", () => {
    expect(signInPathFor("/wallet?page=2")).toBe("/signin?callbackUrl=%2Fwallet%3Fpage%3D2");
    expect(signInPathFor("//evil.example")).toBe("/signin");
    expect(signInPathFor(null)).toBe("/signin");
    // The dashboard is where sign-in goes anyway.
    expect(signInPathFor("/dashboard")).toBe("/signin");
  });
});
