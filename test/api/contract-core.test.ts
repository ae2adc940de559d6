import { beforeAll, describe, expect, it } from "vitest";
import * as productsRoute from "@/app/v1/products/route";
import * as projectsRoute from "@/app/v1/projects/route";
import * as projectRoute from "@/app/v1/projects/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { call, testAccount } from "../http";
import { productBody } from "./core-fixtures";

// Contract audit of the core API (products, projects): behaviour a third-party
// client relies on beyond what core-*.test.ts already pin down.

beforeAll(async () => {
  await getDb();
});

const patch = (token: string, id: string, body: Record<string, unknown>) => call(projectRoute, "PATCH", "/v1/projects/x", { token, params: { id }, body });

async function projectIn(final: "shipped" | "cancelled") {
  const { token } = await testAccount();
  const product = await call(productsRoute, "POST", "/v1/products", { token, body: productBody() });
  const created = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "Smith wedding", product_id: product.json.id, customer_email: "ann@example.com" } });
  const steps = final === "cancelled" ? ["cancelled"] : ["submitted", "approved", "in_production", "shipped"];
  let last = created;
  for (const status of steps) {
    last = await patch(token, created.json.id, { status });
    expect(last.status, status).toBe(200);
  }
  return { token, project: last.json as Record<string, unknown> & { id: string; updated_at: string } };
}

describe("PATCH /v1/projects/{id} on a closed project", () => {
  // docs/api.md: "sending the current status again is a no-op". A client that
  // retries a PATCH whose answer it lost (a timeout) must not be told 409 for a
  // move that did happen; only a real change is refused.
  it.each(["shipped", "cancelled"] as const)("answers a retried move to %s with 200 and the unchanged project", async (final) => {
    const { token, project } = await projectIn(final);
    const again = await patch(token, project.id, { status: final });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(project); // updated_at included: nothing was written
  });

  it("treats fields equal to the stored values as no change, and still refuses any real change with 409 PROJECT_CLOSED", async () => {
    const { token, project } = await projectIn("shipped");
    const same = await patch(token, project.id, { status: "shipped", name: "Smith wedding", customer_email: "ANN@example.com", design_file_url: null });
    expect(same.status).toBe(200);
    expect(same.json).toEqual(project);

    for (const body of [{ status: "cancelled" }, { name: "Jones wedding" }, { status: "shipped", customer_email: null }, { design_file_url: "https://example.com/a.pdf" }]) {
      const res = await patch(token, project.id, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.json).toMatchObject({ error: "PROJECT_CLOSED", details: { field: "status", status: "shipped" } });
    }
  });
});
