// The API description (GET /v1/openapi.json) against the code: every route file
// is described and every description has its route file; the document is valid
// OpenAPI 3.1; real answers match it (checked in call(), test/http.ts, for every API test).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import * as openapi from "@/app/v1/openapi.json/route";
import { routeModules } from "@/app/v1/openapi.json/routes";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as bgRemove from "@/app/v1/services/bg-remove/route";
import { routeMeta } from "@/lib/http/route-meta";
import { HTTP_METHODS, undescribedMethods } from "@/lib/http/openapi/build-document";
import { loadRoutes } from "@/lib/http/openapi/load-routes";
import { listRouteFiles, MANIFEST_FILE, manifestSource } from "@/lib/http/openapi/route-files";
import { buildOpenApiDocument } from "@/lib/http/openapi/build-document";
import { clientTypesSource } from "@/lib/http/openapi/client-types";
import { call, testAccount } from "../http";

const root = path.resolve(__dirname, "../..");

describe("GET /v1/openapi.json covers exactly the route files", () => {
  it("the route list is up to date with app/v1 (else: npm run openapi:routes)", () => {
    const expected = manifestSource(listRouteFiles(root));
    const actual = fs.readFileSync(path.join(root, MANIFEST_FILE), "utf8");
    expect(actual, `${MANIFEST_FILE} is stale: run \`npm run openapi:routes\` after adding or removing a route file`).toBe(expected);
  });

  it("every handler of every route is described (declared through a /v1 wrapper), and every route has one", async () => {
    const routes = await loadRoutes(routeModules);
    for (const r of routes) {
      expect(undescribedMethods(r.module), `${r.path}: handlers not made with a /v1 wrapper cannot be described`).toEqual([]);
      expect(HTTP_METHODS.some((m) => routeMeta(r.module[m])), `${r.path} has no described method`).toBe(true);
    }
  });

  it("the document is valid OpenAPI 3.1 and its paths are exactly the route files'", async () => {
    const res = await call(openapi, "GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const doc = res.json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths).sort()).toEqual(routeModules.map((r) => r.path).sort());
    expect(doc.servers).toEqual([{ url: "http://localhost:3000" }]);
    // The auth schemes, the error envelope, 402 and 429 bodies.
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["basicAuth", "bearerAuth", "galleryToken", "operatorToken", "sessionCookie", "unauthToken"]);
    expect(doc.components.schemas.InsufficientTokens.required).toEqual(expect.arrayContaining(["balance", "shortfall", "top_up_url", "request_id"]));
    expect(doc.components.schemas.RateLimited.required).toEqual(expect.arrayContaining(["retry_after"]));
  });

  it("describes a billed POST with its body, Idempotency-Key, 402 and success shape", async () => {
    const { json: doc } = await call(openapi, "GET", "/v1/openapi.json");
    const op = doc.paths["/v1/services/studio/qr/generate"].post;
    expect(op.requestBody.content["application/json"].schema.properties.subjects.type).toBe("array");
    expect(op.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    expect(op.responses["402"]).toEqual({ $ref: "#/components/responses/InsufficientTokens" });
    expect(op.responses["200"].content["application/json"].schema.properties.pdf_url).toBeTruthy();
    expect(op.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    const products = doc.paths["/v1/products"].get;
    expect(products.security).toContainEqual({ unauthToken: [] });
    expect(products.security).toContainEqual({ basicAuth: [] });
    const job = doc.paths["/v1/services/bg-remove/{jobId}"].get;
    expect(job.parameters[0]).toMatchObject({ name: "jobId", in: "path", required: true });
  });
});

describe("the typed client (lib/client/api-client)", () => {
  it("its generated types are up to date with the document (else: npm run api-client)", async () => {
    const expected = await clientTypesSource(buildOpenApiDocument(await loadRoutes(routeModules)));
    const actual = fs.readFileSync(path.join(root, "lib/client/api-client/schema.ts"), "utf8");
    expect(actual === expected, "lib/client/api-client/schema.ts is stale: run `npm run api-client`").toBe(true);
  });
});

describe("real answers are checked against the description", () => {
  it("a described success shape that the handler does not keep fails the test that produced it", async () => {
    const { token } = await testAccount({ tokens: 10 });
    const fake = { POST: Object.assign(async () => Response.json({ nope: true }), {}) };
    // Borrow the QR route's description for a handler that answers something else.
    Object.assign(fake.POST, { [Symbol.for("print-studio.route-meta")]: routeMeta(generate.POST) });
    await expect(call(fake, "POST", "/v1/services/studio/qr/generate", { token, body: {} })).rejects.toThrow(/does not match its OpenAPI description/);
  });

  it("error answers are checked against the error envelope, 402 against its body", async () => {
    const { token } = await testAccount({ tokens: 0 });
    const res = await call(bgRemove, "POST", "/v1/services/bg-remove", { token, body: { image_url: "https://example.com/a.png" } });
    expect([402, 400]).toContain(res.status);
  });
});
