// Contract conformance (print-service-api.md 2.3, 2.4, 2.10, 4.2) for what the other
// preflight tests do not pin: response types at the edges of the accepted ranges,
// and the list envelope's exact shape.
import { describe, expect, it } from "vitest";
import * as dpi from "@/app/v1/services/preflight/dpi-score/route";
import { cleanRgb } from "../fixtures/preflight/raster-fixtures";
import { checkFile, createCheck, listReports } from "../fixtures/preflight/api";
import { call, testAccount } from "../http";
import { fieldErrorList } from "@/lib/client/field-errors";

/** Raw JSON, so numbers JSON.stringify would not write as the client did (1e-320) reach the server as sent. */
const scoreRaw = (token: string, json: string) =>
  call(dpi, "POST", "/v1/services/preflight/dpi-score", { token, rawBody: json, headers: { "content-type": "application/json" } });

describe("DPI score result types (contract 2.3)", () => {
  it("never answers effectivePpi as null: a canvas under 0.001 in is a 400 naming the field", async () => {
    const { token } = await testAccount();
    // 1e-320 in is a positive number, but 1,000,000 px over it is Infinity, which JSON writes as null.
    const tiny = await scoreRaw(token, '{"widthPx":1000000,"heightPx":1000000,"canvasWidthInches":1e-320,"canvasHeightInches":2,"productType":"poster"}');
    expect(tiny.status).toBe(400);
    expect(tiny.json.error).toBe("VALIDATION_ERROR");
    expect(fieldErrorList(tiny.json).map((f) => f.field)).toEqual(["canvasWidthInches"]);

    // The extreme that is accepted still gives finite numbers of the contract's types.
    const edge = await scoreRaw(token, '{"widthPx":1000000,"heightPx":1000000,"canvasWidthInches":0.001,"canvasHeightInches":0.001,"productType":"poster"}');
    expect(edge.status).toBe(200);
    const d = edge.json.data;
    expect(Object.keys(d).sort()).toEqual(["effectivePpi", "label", "minPpi", "productType", "stars"]);
    expect(Number.isInteger(d.stars)).toBe(true);
    expect(typeof d.label).toBe("string");
    expect(Number.isFinite(d.effectivePpi)).toBe(true);
    expect(Number.isFinite(d.minPpi)).toBe(true);
    expect(d.productType).toBe("poster");
  });

  it("applies the same canvas floor to full checks, before anything is fetched", async () => {
    const { token } = await testAccount();
    const res = await createCheck(token, { designId: "d", fileUrl: "https://example.com/a.pdf", canvasWidthInches: 8, canvasHeightInches: 0.0005 });
    expect(res.status).toBe(400);
    expect(fieldErrorList(res.json).map((f) => f.field)).toEqual(["canvasHeightInches"]);
  });
});

describe("preflight report list envelope (contract 2.10)", () => {
  it("has data, links.first/last/prev/next, meta.path/per_page and message, with the contract's types", async () => {
    const { token } = await testAccount();
    const jpeg = await cleanRgb(300, 240, "jpeg");
    for (let i = 0; i < 3; i++) expect((await checkFile(token, jpeg, { canvasWidthInches: 1, canvasHeightInches: 0.8 }, `d${i}`)).status).toBe(201);
    const res = await listReports(token, "?limit=1&page=2");
    expect(res.status).toBe(200);
    const body = res.json;
    expect(Object.keys(body).sort()).toEqual(["data", "links", "message", "meta"]);
    expect(body.data).toHaveLength(1);
    expect(Object.keys(body.links).sort()).toEqual(["first", "last", "next", "prev"]);
    for (const link of Object.values(body.links)) expect(typeof link === "string" && new URL(link as string).pathname).toBe("/v1/services/preflight/checks");
    expect(body.meta).toMatchObject({ path: "http://localhost:3000/v1/services/preflight/checks", per_page: 1 });
    expect(typeof body.message).toBe("string");
    // Default page size (contract 8): at most 20.
    expect((await listReports(token)).json.meta.per_page).toBe(20);
  });
});
