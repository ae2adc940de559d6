import { afterEach, describe, expect, it } from "vitest";
import * as grants from "@/app/v1/operator/grants/route";
import * as plan from "@/app/v1/operator/plan/route";
import * as wallet from "@/app/v1/wallet/route";
import * as account from "@/app/v1/account/route";
import { resetConfig } from "@/lib/foundation/config";
import { call, testAccount } from "../http";

const OPERATOR = "operator-token-0123456789abcdef";

function withOperatorToken(value: string | undefined) {
  if (value) process.env.OPERATOR_TOKEN = value;
  else delete process.env.OPERATOR_TOKEN;
  resetConfig();
}

afterEach(() => withOperatorToken(undefined));

describe("operator endpoints", () => {
  it("do not exist unless OPERATOR_TOKEN is set", async () => {
    withOperatorToken(undefined);
    const { email } = await testAccount();
    const res = await call(grants, "POST", "/v1/operator/grants", { token: "anything", body: { email, tokens: 5, reason: "x" } });
    expect(res.status).toBe(404);
  });

  it("refuse a missing or wrong operator token, and an account's own token", async () => {
    withOperatorToken(OPERATOR);
    const { email, token } = await testAccount();
    const body = { email, tokens: 5, reason: "x" };
    expect((await call(grants, "POST", "/v1/operator/grants", { body })).status).toBe(401);
    expect((await call(grants, "POST", "/v1/operator/grants", { token: "wrong-token-0123456789", body })).status).toBe(401);
    expect((await call(grants, "POST", "/v1/operator/grants", { token, body })).status).toBe(401);
  });

  it("grant tokens with a ledger entry and change plans", async () => {
    withOperatorToken(OPERATOR);
    const { email, token } = await testAccount({ tokens: 100 });
    const res = await call(grants, "POST", "/v1/operator/grants", { token: OPERATOR, body: { email: email.toUpperCase(), tokens: 2500, reason: "Starter pack" } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ id: expect.stringMatching(/^wtx_/), type: "grant", amount: 2500, balance_after: 2600, operation: "operator_grant", note: "Starter pack" });
    expect((await call(wallet, "GET", "/v1/wallet", { token })).json.balance).toBe(2600);

    const p = await call(plan, "PUT", "/v1/operator/plan", { token: OPERATOR, body: { email, plan: "premium" } });
    expect(p.status).toBe(200);
    expect(p.json.account.plan).toBe("premium");
    expect((await call(account, "GET", "/v1/account", { token })).json.plan).toBe("premium");
  });

  it("validate input and answer unknown emails with 404", async () => {
    withOperatorToken(OPERATOR);
    const bad = await call(grants, "POST", "/v1/operator/grants", { token: OPERATOR, body: { email: "a@example.com", tokens: -5, reason: "" } });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields.map((f: any) => f.field).sort()).toEqual(["reason", "tokens"]);
    const float = await call(grants, "POST", "/v1/operator/grants", { token: OPERATOR, body: { email: "a@example.com", tokens: 1.5, reason: "x" } });
    expect(float.status).toBe(400);
    const ghost = await call(grants, "POST", "/v1/operator/grants", { token: OPERATOR, body: { email: "ghost@example.com", tokens: 5, reason: "x" } });
    expect(ghost.status).toBe(404);
    const badPlan = await call(plan, "PUT", "/v1/operator/plan", { token: OPERATOR, body: { email: "a@example.com", plan: "gold" } });
    expect(badPlan.status).toBe(400);
    expect(badPlan.json.details.fields[0].field).toBe("plan");
  });
});
