import { describe, expect, it } from "vitest";
import { stayOn } from "./stay-on";

describe("stayOn", () => {
  it("keeps a list or settings page, and leaves a record of the studio left for its list", () => {
    expect(stayOn("/team")).toBe("/team");
    expect(stayOn("/wallet/top-up")).toBe("/wallet/top-up");
    expect(stayOn("/agencies/12/roster")).toBe("/agencies");
    expect(stayOn("/matching/7")).toBe("/matching");
    expect(stayOn("/")).toBe("/dashboard");
  });
});
