// Shared builders for the core API tests (products, projects, auth).
import crypto from "node:crypto";

let n = 0;
/** A valid POST /v1/products body with a fresh SKU. */
export function productBody(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    sku: `SKU-${n}-${crypto.randomBytes(3).toString("hex")}`,
    name: `Canvas ${n}`,
    product_type: "photo_on_canvas",
    width_in: 16,
    height_in: 20,
    price: 4999,
    currency: "USD",
    ...overrides,
  };
}

export function basicHeader(email: string, password: string): string {
  return `Basic ${Buffer.from(`${email}:${password}`, "utf8").toString("base64")}`;
}
