import { describe, expect, it } from "vitest";
import * as dpi from "@/app/v1/services/preflight/dpi-score/route";
import { PRODUCT_RESOLUTION, PRODUCT_TYPES } from "@/lib/services/preflight/product-types";
import { call, testAccount } from "../http";
import { fieldErrorList } from "@/lib/client/field-errors";

const score = (token: string | undefined, body: unknown) => call(dpi, "POST", "/v1/services/preflight/dpi-score", { token, body });
const valid = { widthPx: 3000, heightPx: 2400, canvasWidthInches: 10, canvasHeightInches: 8, productType: "framed_print" };

describe("POST /v1/services/preflight/dpi-score", () => {
  it("scores the lower axis against the product's minimum, free of charge", async () => {
    const { token } = await testAccount({ tokens: 0 });
    // 3000/10 = 300 and 2000/8 = 250: the lower axis (250) counts.
    const res = await score(token, { ...valid, heightPx: 2000 });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { stars: 5, label: "Excellent", effectivePpi: 250, minPpi: 150, productType: "framed_print" } });
  });

  it("uses the table's minimum for every product type", async () => {
    const { token } = await testAccount();
    for (const productType of PRODUCT_TYPES) {
      const res = await score(token, { ...valid, productType });
      expect(res.json.data.minPpi).toBe(PRODUCT_RESOLUTION[productType].minPpi);
    }
  });

  it("gives stars and labels that never go down as resolution goes up, with 4 stars from the minimum", async () => {
    const { token } = await testAccount();
    const seen: { stars: number; label: string; ppi: number }[] = [];
    // poster: minimum 75 ppi, on a 20 in square canvas (values with one decimal stay exact).
    for (const ppi of [5, 30, 37, 37.5, 50, 56, 56.3, 60, 74, 75, 90, 112, 112.5, 150, 400]) {
      const res = await score(token, { widthPx: Math.round(ppi * 10 * 2), heightPx: Math.round(ppi * 10 * 2), canvasWidthInches: 20, canvasHeightInches: 20, productType: "poster" });
      expect(res.status).toBe(200);
      seen.push({ stars: res.json.data.stars, label: res.json.data.label, ppi: res.json.data.effectivePpi });
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.stars).toBeGreaterThanOrEqual(seen[i - 1]!.stars);
    const at = (ppi: number) => seen.find((s) => s.ppi === ppi)!;
    expect(at(37).stars).toBe(1);
    expect(at(37.5)).toMatchObject({ stars: 2, label: "Low" });
    expect(at(56.3)).toMatchObject({ stars: 3, label: "Fair" });
    expect(at(74).stars).toBe(3);
    expect(at(75)).toMatchObject({ stars: 4, label: "Good" });
    expect(at(112.5)).toMatchObject({ stars: 5, label: "Excellent" });
    expect(new Set(seen.map((s) => `${s.stars}:${s.label}`)).size).toBe(5);
  });

  it.each([
    [{ widthPx: 0 }, "widthPx"],
    [{ widthPx: -5 }, "widthPx"],
    [{ widthPx: 12.5 }, "widthPx"],
    [{ heightPx: "3000" }, "heightPx"],
    [{ heightPx: 2_000_000 }, "heightPx"],
    [{ canvasWidthInches: 0 }, "canvasWidthInches"],
    [{ canvasHeightInches: -1 }, "canvasHeightInches"],
    [{ canvasHeightInches: null }, "canvasHeightInches"],
    [{ productType: "mug" }, "productType"],
    [{ productType: undefined }, "productType"],
    [{ dpi: 300 }, "dpi"],
  ])("refuses %j with a 400 naming %s", async (change, field) => {
    const { token } = await testAccount();
    const res = await score(token, { ...valid, ...change });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("VALIDATION_ERROR");
    expect(fieldErrorList(res.json).map((f) => f.field)).toContain(field);
  });

  it("needs credentials and only answers POST", async () => {
    expect((await score(undefined, valid)).status).toBe(401);
    const { token } = await testAccount();
    const get = await call(dpi, "GET", "/v1/services/preflight/dpi-score", { token });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toContain("POST");
  });
});
