// The money tests' harness: the real `stripe` SDK against the local stand-in over
// HTTP; the stand-in's webhooks reach the app's webhook route over HTTP too (a
// small server in front of the route handler), signed by the SDK; e-mail goes to
// a real SMTP server. Call `ordersHarness()` once at the top of a test file.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect } from "vitest";
import * as connectRoute from "@/app/v1/payments/connect/route";
import * as checkoutRoute from "@/app/v1/parent/checkout/route";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import * as webhook from "@/app/api/stripe/webhook/route";
import { resetConfig } from "@/lib/foundation/config";
import { call, testAccount } from "../http";
import { stripeStandInForFile } from "./stripe-stand-in-for-file";
import { smtpServerForFile } from "./smtp-test-server";
import { parentOf, sellingStudio } from "./orders-fixtures";

export const ADDRESS = { name: "Sam Park", line1: "1 Elm St", city: "Springfield", postal_code: "12345", country: "US" };

export function ordersHarness(secret = "whsec_test_orders") {
  process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
  process.env.RATE_LIMIT_PER_MINUTE = "100000";
  resetConfig();
  const standIn = stripeStandInForFile(secret);
  const smtp = smtpServerForFile();

  let appHook: http.Server;
  beforeAll(async () => {
    appHook = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": String(req.headers["stripe-signature"] ?? "") }, body: Buffer.concat(chunks) }));
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
    await new Promise<void>((resolve) => appHook.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => appHook.close(() => resolve())));
  const hookUrl = () => `http://127.0.0.1:${(appHook.address() as AddressInfo).port}/`;

  /** One signed delivery of a Connect event of `account` to the app's webhook route. */
  async function deliver(type: string, object: unknown, account: string) {
    const { payload, header } = standIn().signedEvent(type, object, { account });
    const res = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload }));
    return { status: res.status, json: await res.json() };
  }

  /** A studio with a sheet, a job, a connected Stripe account that can take charges, and a parent in the job's gallery. */
  async function shop(opts: { downloads?: boolean } = {}) {
    standIn().setWebhookUrl(hookUrl());
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const connected = await call(connectRoute, "POST", "/v1/payments/connect", { token: owner.token, body: {} });
    expect(connected.status).toBe(200);
    await standIn().updateAccount(connected.json.stripe_account_id);
    const parent = await parentOf(owner.account.id, studio.agencyId, studio.jobId, { downloads: opts.downloads ?? true });
    return { owner, studio, parent, stripeAccount: connected.json.stripe_account_id as string };
  }

  const checkout = (token: string, body: unknown, headers?: Record<string, string>) => call(checkoutRoute, "POST", "/v1/parent/checkout", { token, body, headers });
  const orderOf = (token: string, id: string) => call(orderRoute, "GET", `/v1/orders/${id}`, { token, params: { id } });

  /** A paid order of a fresh shop, through the stand-in's page. */
  async function paidOrder(opts: { shipping?: "home" | "school" } = {}) {
    const s = await shop();
    const res = await checkout(s.parent.token, {
      email: `parent-${s.parent.subjectId}@example.com`,
      lines: [
        { photo_id: s.parent.photoIds[0], item_id: "p8x10", quantity: 1 },
        { photo_id: s.parent.photoIds[1], item_id: "digital", quantity: 1 },
      ],
      shipping_option_id: opts.shipping ?? "home",
      ...(opts.shipping === "school" ? {} : { address: ADDRESS }),
    });
    expect(res.status, res.text).toBe(201);
    await fetch(res.json.checkout_url, { method: "POST", redirect: "manual" });
    const order = (await orderOf(s.owner.token, res.json.order_id)).json;
    expect(order.status).toBe("paid");
    return { ...s, order };
  }

  return { standIn, smtp, hookUrl, deliver, shop, checkout, orderOf, paidOrder };
}
