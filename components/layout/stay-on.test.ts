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

  it("goes to the dashboard when the other studio does not have the page for the member's role there", () => {
    expect(stayOn("/api-keys", "viewer")).toBe("/dashboard");
    expect(stayOn("/webhooks", "photographer")).toBe("/dashboard");
    expect(stayOn("/audit-log", "admin")).toBe("/audit-log");
    expect(stayOn("/orders/5", "viewer")).toBe("/dashboard");
    expect(stayOn("/orders/5", "photographer")).toBe("/orders");
    expect(stayOn("/wallet/top-up", "admin")).toBe("/dashboard");
    expect(stayOn("/preflight", "viewer")).toBe("/preflight");
  });
});
