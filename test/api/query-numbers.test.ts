import { describe, expect, it } from "vitest";
import * as transactions from "@/app/v1/wallet/transactions/route";
import * as usage from "@/app/v1/wallet/usage/route";
import * as products from "@/app/v1/products/route";
import { call, testAccount } from "../http";

// Numbers in query strings are decimal digits: what Number() would also accept
// ("0x14" = 20, "1e1" = 10, "" = 0, " 5") is a 400 naming the parameter.
describe("numbers in the query string", () => {
  it.each(["0x14", "1e1", "", " 5", "5.0", "-0"])("limit=%j is a 400 naming limit on page and keyset lists", async (value) => {
    const { token } = await testAccount();
    for (const [route, path] of [[transactions, "/v1/wallet/transactions"], [products, "/v1/products"]] as const) {
      const res = await call(route, "GET", `${path}?limit=${encodeURIComponent(value)}`, { token });
      expect(res.status, `${path} limit=${value}`).toBe(400);
      expect(res.json.details.fields.map((f: { field: string }) => f.field)).toEqual(["limit"]);
    }
  });

  it("plain digits still work, and days on usage follows the same rule", async () => {
    const { token } = await testAccount();
    expect((await call(transactions, "GET", "/v1/wallet/transactions?limit=5&page=1", { token })).json.meta.per_page).toBe(5);
    expect((await call(usage, "GET", "/v1/wallet/usage?days=7", { token })).status).toBe(200);
    expect((await call(usage, "GET", "/v1/wallet/usage?days=0x7", { token })).status).toBe(400);
  });
});
