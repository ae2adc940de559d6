import { beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import * as productsRoute from "@/app/v1/products/route";
import * as projectsRoute from "@/app/v1/projects/route";
import * as projectRoute from "@/app/v1/projects/[id]/route";
import * as uploadsRoute from "@/app/v1/uploads/route";
import * as checksRoute from "@/app/v1/services/preflight/checks/route";
import { getDb } from "@/lib/foundation/db/client";
import { call, testAccount } from "../http";
import { productBody } from "./core-fixtures";

// Projects respect preflight: submitting or approving a project whose linked
// report has errors needs override: { reason }, which is recorded; the
// projects that use a report are listed by GET /v1/projects?preflight_report_id=.

beforeAll(async () => {
  await getDb();
});

async function upload(token: string, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
  const res = await call(uploadsRoute, "POST", "/v1/uploads", { token, rawBody: form });
  expect(res.status).toBe(201);
  return res.json.url as string;
}

/** A real check of a 300 x 200 px image for a 20 x 16 in canvas at 300 dpi: far too few pixels, so errors. */
async function failingReport(token: string) {
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#48c" } }).png().toBuffer();
  const fileUrl = await upload(token, png, "tiny.png");
  const res = await call(checksRoute, "POST", "/v1/services/preflight/checks", {
    token,
    body: { designId: "tiny", fileUrl, productProfile: { requiredDpi: 300 }, canvasWidthInches: 20, canvasHeightInches: 16, productType: "photo_on_canvas" },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.json.data.summary.errors).toBeGreaterThan(0);
  return res.json.data as { reportId: string; status: string; summary: { errors: number; warnings: number } };
}

async function setup() {
  const acc = await testAccount();
  const product = await call(productsRoute, "POST", "/v1/products", { token: acc.token, body: productBody() });
  return { ...acc, productId: product.json.id as string };
}

const patch = (token: string, id: string, body: Record<string, unknown>) => call(projectRoute, "PATCH", `/v1/projects/${id}`, { token, params: { id }, body });

describe("the preflight gate on projects", () => {
  it("refuses submit and approve while the linked report has errors, naming the report and its error count; an override with a reason passes and is recorded", async () => {
    const { token, productId } = await setup();
    const report = await failingReport(token);
    const project = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "Smith canvas", product_id: productId, preflight_report_id: report.reportId } });
    expect(project.status).toBe(201);
    const id = project.json.id as string;

    const refused = await patch(token, id, { status: "submitted" });
    expect(refused.status).toBe(409);
    const n = report.summary.errors;
    expect(refused.json).toMatchObject({
      error: "PREFLIGHT_HAS_ERRORS",
      details: { field: "override", report_id: report.reportId, errors: n, status: "submitted" },
    });
    expect(refused.json.message).toContain(`Preflight report ${report.reportId} has ${n} error${n === 1 ? "" : "s"}`);
    expect(refused.json.message).toContain("override: { reason }");

    const short = await patch(token, id, { status: "submitted", override: { reason: " " } });
    expect(short.status).toBe(400);
    expect(short.json.details.fields).toMatchObject([{ field: "override.reason" }]);
    const alone = await patch(token, id, { override: { reason: "Customer accepts" } });
    expect(alone.status).toBe(400);
    expect(alone.json.details.fields).toMatchObject([{ field: "override" }]);

    const submitted = await patch(token, id, { status: "submitted", override: { reason: "Customer accepts a soft print (phone call 23 Nov)." } });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.json).toMatchObject({
      status: "submitted",
      preflight_overrides: [{ status: "submitted", reason: "Customer accepts a soft print (phone call 23 Nov).", report_id: report.reportId, report_status: report.status, errors: n, at: expect.any(String) }],
    });

    // Approving is a second gate: a second override, recorded beside the first.
    expect((await patch(token, id, { status: "approved" })).status).toBe(409);
    const approved = await patch(token, id, { status: "approved", override: { reason: "Approved by the studio manager." } });
    expect(approved.status).toBe(200);
    expect(approved.json.preflight_overrides.map((o: { status: string }) => o.status)).toEqual(["submitted", "approved"]);
    // Later moves are not gated.
    expect((await patch(token, id, { status: "in_production" })).status).toBe(200);
  });

  it("a project without a report, or whose report has no errors, moves freely; linking a failing report in the same PATCH is gated", async () => {
    const { token, productId } = await setup();
    const plain = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "No report", product_id: productId } });
    const ok = await patch(token, plain.json.id, { status: "submitted" });
    expect(ok.status).toBe(200);
    expect(ok.json.preflight_overrides).toEqual([]);

    const report = await failingReport(token);
    const other = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "Linked late", product_id: productId } });
    const gated = await patch(token, other.json.id, { status: "submitted", preflight_report_id: report.reportId });
    expect(gated.status).toBe(409);
    expect(gated.json.details.report_id).toBe(report.reportId);
    // Unlinking the report in the same PATCH lifts the gate.
    expect((await patch(token, other.json.id, { status: "submitted", preflight_report_id: null })).status).toBe(200);
  });

  it("GET /v1/projects?preflight_report_id= lists the projects that use a report; another account's report id lists nothing", async () => {
    const { token, productId } = await setup();
    const report = await failingReport(token);
    for (const name of ["Uses it 1", "Uses it 2"]) await call(projectsRoute, "POST", "/v1/projects", { token, body: { name, product_id: productId, preflight_report_id: report.reportId } });
    await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "Does not", product_id: productId } });
    const list = await call(projectsRoute, "GET", `/v1/projects?preflight_report_id=${report.reportId}&sortBy=name&order=asc`, { token });
    expect(list.status, list.text).toBe(200);
    expect(list.json.data.map((p: { name: string }) => p.name)).toEqual(["Uses it 1", "Uses it 2"]);

    const B = await setup();
    const theirs = await call(projectsRoute, "GET", `/v1/projects?preflight_report_id=${report.reportId}`, { token: B.token });
    expect(theirs.json.data).toEqual([]);
    // B cannot gate-check (or learn about) A's report through its own project either: the link is a 404.
    const bProject = await call(projectsRoute, "POST", "/v1/projects", { token: B.token, body: { name: "B", product_id: B.productId } });
    const peek = await patch(B.token, bProject.json.id, { status: "submitted", preflight_report_id: report.reportId });
    expect(peek.status).toBe(404);
    expect(peek.json.details).toMatchObject({ field: "preflight_report_id" });
  });
});

describe("product form messages", () => {
  it("an empty product says in words which fields are missing, never zod's 'expected number'", async () => {
    const { token } = await testAccount();
    const res = await call(productsRoute, "POST", "/v1/products", { token, body: { sku: "", name: "", product_type: "poster", color_mode: "cmyk", currency: "USD", is_public: false } });
    expect(res.status).toBe(400);
    expect(res.text).not.toMatch(/expected|received|undefined/i);
    const byField = Object.fromEntries((res.json.details.fields as Array<{ field: string; message: string }>).map((f) => [f.field, f.message]));
    expect(byField).toMatchObject({
      sku: "Give the SKU.",
      name: "Name the product.",
      width_in: "Give the width in inches.",
      height_in: "Give the height in inches.",
      price: expect.stringMatching(/^Give the price/),
    });
    const wrong = await call(productsRoute, "POST", "/v1/products", { token, body: productBody({ width_in: "16in", price: "49,99" }) });
    expect(wrong.status).toBe(400);
    expect(wrong.text).not.toMatch(/expected|received/i);
    expect(wrong.json.details.fields).toEqual(
      expect.arrayContaining([
        { field: "width_in", message: "The width must be a number of inches, e.g. 16." },
        { field: "price", message: "The price must be a whole number of minor units: 1999 for 19.99." },
      ]),
    );
  });
});
