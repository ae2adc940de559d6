// A local stand-in for the parts of the Stripe API the app calls, for the real
// `stripe` SDK pointed at it through STRIPE_API_URL. It records every call's
// parameters (form-decoded as Stripe receives them) so tests assert what was asked,
// and serves a small checkout page whose "Pay" button completes the session and
// sends the signed webhook to the app, as Stripe does.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export type RecordedCall = { method: string; path: string; params: Record<string, unknown>; idempotencyKey: string | undefined; stripeAccount?: string };
type Session = Record<string, unknown> & { id: string; url: string; success_url: string; amount_total: number; currency: string };

/** Decodes Stripe's form encoding (a[b][0][c]=v) into nested objects and arrays. */
export function decodeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {}) as Record<string, unknown>;
    });
  }
  return out;
}

export async function startStripeStandIn(opts: { webhookSecret: string; webhookUrl?: string; port?: number; autoDeliver?: boolean }) {
  const calls: RecordedCall[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const byIdempotencyKey = new Map<string, unknown>();
  const sessions = new Map<string, Session>();
  /** Payment intents of paid sessions, each with its charge (and the charge's receipt page). */
  const paymentIntents = new Map<string, Record<string, unknown> & { latest_charge: Record<string, unknown> }>();
  /** Invoices a test puts here (Premium), served by GET /v1/invoices/{id}. */
  const invoices = new Map<string, Record<string, unknown>>();
  /** Connected accounts (Stripe Connect): the studios' own Stripe accounts. */
  const accounts = new Map<string, Record<string, unknown> & { id: string; charges_enabled: boolean; details_submitted: boolean; payouts_enabled: boolean }>();
  /** Refunds made through the API, each with the connected account it was made on. */
  const refunds = new Map<string, Record<string, unknown> & { id: string; amount: number; payment_intent: string }>();
  /** The next API call answers with this error once (e.g. Stripe down, card declined). */
  let failNext: { status: number; type: string; message: string; code?: string; path?: string } | undefined;
  let webhookUrl = opts.webhookUrl;
  /** Whether events that follow an API call (payment_intent.succeeded) are sent by themselves, as Stripe does. */
  let autoDeliver = opts.autoDeliver ?? true;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (url.pathname === "/health") return void res.writeHead(200).end("ok");
    const json = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": `req_${crypto.randomBytes(6).toString("hex")}` });
      res.end(JSON.stringify(data));
    };
    if (url.pathname.startsWith("/v1/")) {
      if (!/^Bearer sk_test_/.test(req.headers.authorization ?? "")) return json(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
      const params = req.method === "GET" ? Object.fromEntries(url.searchParams) : decodeForm(body);
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      /** Connect: a call made on a connected account's behalf (the SDK's `stripeAccount` option). */
      const stripeAccount = req.headers["stripe-account"] as string | undefined;
      calls.push({ method: req.method!, path: url.pathname, params, idempotencyKey, stripeAccount });
      if (failNext && (!failNext.path || failNext.path === url.pathname)) {
        const f = failNext;
        failNext = undefined;
        return json(f.status, { error: { type: f.type, message: f.message, ...(f.code ? { code: f.code, decline_code: f.code } : {}) } });
      }
      // Stripe answers a repeated idempotency key with the first answer (the SDK sends one on every POST).
      const replay = idempotencyKey && byIdempotencyKey.get(`${stripeAccount ?? ""} ${url.pathname} ${idempotencyKey}`);
      if (replay) return json(200, replay);
      const remember = (data: unknown) => {
        if (idempotencyKey) byIdempotencyKey.set(`${stripeAccount ?? ""} ${url.pathname} ${idempotencyKey}`, data);
        return json(200, data);
      };
      if (req.method === "POST" && url.pathname === "/v1/customers") {
        const customer = { id: `cus_${crypto.randomBytes(7).toString("hex")}`, object: "customer", ...params };
        customers.set(customer.id, customer);
        return remember(customer);
      }
      // Connect: a studio's own account, not yet able to take charges until onboarding (completeOnboarding) is done.
      if (req.method === "POST" && url.pathname === "/v1/accounts") {
        const account = { id: `acct_${crypto.randomBytes(8).toString("hex")}`, object: "account", ...params, charges_enabled: false, details_submitted: false, payouts_enabled: false };
        accounts.set(account.id, account);
        return remember(account);
      }
      const acct = url.pathname.match(/^\/v1\/accounts\/([^/]+)$/);
      if (req.method === "GET" && acct && accounts.has(acct[1]!)) return json(200, accounts.get(acct[1]!));
      if (req.method === "POST" && url.pathname === "/v1/account_links") {
        if (!accounts.has(String(params.account))) return json(400, { error: { type: "invalid_request_error", message: `No such account: '${String(params.account)}'`, param: "account" } });
        return remember({ object: "account_link", created: Math.floor(Date.now() / 1000), expires_at: Math.floor(Date.now() / 1000) + 300, url: `${base}/onboard/${String(params.account)}?return=${encodeURIComponent(String(params.return_url))}` });
      }
      // A refund on a connected account's payment: succeeds at once (charge.refunded follows when auto-delivering).
      if (req.method === "POST" && url.pathname === "/v1/refunds") {
        const pi = paymentIntents.get(String(params.payment_intent));
        if (!pi) return json(400, { error: { type: "invalid_request_error", message: `No such payment_intent: '${String(params.payment_intent)}'`, param: "payment_intent" } });
        // A refund that failed (a test sets its status) gave nothing back.
        const already = [...refunds.values()].filter((r) => r.payment_intent === pi.id && r.status !== "failed" && r.status !== "canceled").reduce((n, r) => n + r.amount, 0);
        const amount = params.amount === undefined ? Number(pi.amount) - already : Number(params.amount);
        if (amount <= 0 || already + amount > Number(pi.amount)) return json(400, { error: { type: "invalid_request_error", code: "charge_already_refunded", message: `Refund amount (${amount}) is greater than the unrefunded amount.` } });
        const refund = { id: `re_${crypto.randomBytes(8).toString("hex")}`, object: "refund", amount, currency: pi.currency, payment_intent: String(pi.id), charge: pi.latest_charge.id, status: "succeeded", metadata: params.metadata ?? {}, stripe_account: stripeAccount };
        refunds.set(refund.id, refund);
        return remember(refund);
      }
      if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const items = (params.line_items ?? []) as { quantity: string; price_data: { unit_amount: string; currency: string } }[];
        const id = `cs_test_${crypto.randomBytes(12).toString("hex")}`;
        const session: Session = {
          object: "checkout.session",
          ...params,
          id,
          url: `${base}/pay/${id}`,
          status: "open",
          payment_status: "unpaid",
          payment_intent: null,
          amount_total: items.reduce((n, i) => n + Number(i.quantity) * Number(i.price_data.unit_amount), 0),
          currency: items[0]?.price_data.currency ?? "usd",
          success_url: String(params.success_url),
          ...(stripeAccount ? { stripe_account: stripeAccount } : {}),
        };
        sessions.set(id, session);
        return remember(session);
      }
      if (req.method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
        return remember({ id: `bps_${crypto.randomBytes(8).toString("hex")}`, object: "billing_portal.session", ...params, url: `${base}/portal/${String(params.customer)}` });
      }
      // An off-session charge of a saved card (auto top-up): succeeds at once, and Stripe's webhook follows.
      if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
        const pi = `pi_${crypto.randomBytes(8).toString("hex")}`;
        const charge = `ch_${crypto.randomBytes(8).toString("hex")}`;
        const amount = Number(params.amount);
        const intent = {
          id: pi,
          object: "payment_intent",
          amount,
          currency: String(params.currency),
          customer: params.customer,
          payment_method: params.payment_method,
          metadata: params.metadata ?? {},
          status: "succeeded",
          latest_charge: { id: charge, object: "charge", amount, payment_intent: pi, receipt_url: `${base}/receipts/${charge}` },
        };
        paymentIntents.set(pi, intent);
        const answer = { ...intent, latest_charge: charge };
        if (webhookUrl && autoDeliver) {
          const { payload, header } = signedEvent("payment_intent.succeeded", answer);
          setTimeout(() => void fetch(webhookUrl!, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload }).catch(() => {}), 50);
        }
        return remember(answer);
      }
      const get = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
      if (req.method === "GET" && get && sessions.has(get[1]!)) return json(200, sessions.get(get[1]!));
      const intent = url.pathname.match(/^\/v1\/payment_intents\/([^/]+)$/);
      if (req.method === "GET" && intent && paymentIntents.has(intent[1]!)) {
        const pi = paymentIntents.get(intent[1]!)!;
        // Like Stripe: latest_charge is an id unless the call expands it.
        const expanded = url.searchParams.getAll("expand[]").concat(url.searchParams.getAll("expand[0]")).includes("latest_charge");
        const expand = url.searchParams.getAll("expand[]").concat(url.searchParams.getAll("expand[0]"));
        const pm = pi.payment_method as string | undefined;
        const paymentMethod = pm && expand.includes("payment_method") ? { id: pm, object: "payment_method", type: "card", card: { brand: "visa", last4: "4242" } } : (pm ?? null);
        return json(200, { ...pi, latest_charge: expanded ? pi.latest_charge : pi.latest_charge.id, payment_method: paymentMethod });
      }
      const invoice = url.pathname.match(/^\/v1\/invoices\/([^/]+)$/);
      if (req.method === "GET" && invoice && invoices.has(invoice[1]!)) return json(200, invoices.get(invoice[1]!));
      return json(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
    }
    // Connect onboarding: a page whose button finishes it and returns to the studio's return_url.
    const onboard = url.pathname.match(/^\/onboard\/([^/]+)$/);
    if (onboard && accounts.has(onboard[1]!)) {
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(`<!doctype html><title>Stripe stand-in onboarding</title><h1>Set up payments</h1><form method="post"><button>Finish onboarding</button></form>`);
      }
      await updateAccount(onboard[1]!);
      res.writeHead(303, { location: url.searchParams.get("return") ?? "/" });
      return res.end();
    }
    const receipt = url.pathname.match(/^\/receipts\/([^/]+)$/);
    if (receipt && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end(`<!doctype html><title>Receipt</title><h1>Receipt ${receipt[1]}</h1>`);
    }
    // The hosted checkout page: a pack, an amount and a Pay button.
    const pay = url.pathname.match(/^\/pay\/([^/]+)$/);
    const session = pay && sessions.get(pay[1]!);
    if (session && req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end(`<!doctype html><title>Stripe stand-in checkout</title><h1>Pay ${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}</h1><form method="post"><button>Pay</button></form>`);
    }
    if (session && req.method === "POST") {
      await complete(session.id);
      res.writeHead(303, { location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id) });
      return res.end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A signed webhook delivery, as Stripe sends it: body and Stripe-Signature header. */
  function signedEvent(type: string, object: unknown, opts: { id?: string; timestamp?: number; secret?: string; created?: number; account?: string } = {}) {
    const created = opts.created ?? Math.floor(Date.now() / 1000);
    // Connect: an event that happened on a connected account names it (`account`), as Stripe's Connect webhooks do.
    const payload = JSON.stringify({ id: opts.id ?? `evt_${crypto.randomBytes(10).toString("hex")}`, object: "event", type, created, ...(opts.account ? { account: opts.account } : {}), data: { object } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? opts_.webhookSecret, timestamp: opts.timestamp });
    return { payload, header };
  }
  const opts_ = opts;

  /** Pays a session (card: paid at once) and delivers checkout.session.completed to the app. */
  async function complete(sessionId: string, paymentStatus: "paid" | "unpaid" = "paid") {
    const session = sessions.get(sessionId)!;
    const pi = `pi_${crypto.randomBytes(8).toString("hex")}`;
    const charge = `ch_${crypto.randomBytes(8).toString("hex")}`;
    // A session that asked to keep the card (setup_future_usage) leaves a payment method on the customer.
    const saves = (session.payment_intent_data as { setup_future_usage?: string } | undefined)?.setup_future_usage === "off_session";
    const paymentMethod = saves ? `pm_${crypto.randomBytes(8).toString("hex")}` : undefined;
    paymentIntents.set(pi, { id: pi, object: "payment_intent", amount: session.amount_total, currency: session.currency, status: "succeeded", payment_method: paymentMethod, latest_charge: { id: charge, object: "charge", amount: session.amount_total, payment_intent: pi, receipt_url: `${base}/receipts/${charge}` } });
    Object.assign(session, { status: "complete", payment_status: paymentStatus, payment_intent: pi });
    const send = async (type: string, object: unknown) => {
      const { stripe_account: account, ...visible } = object as Record<string, unknown>;
      const { payload, header } = signedEvent(type, visible, { account: account as string | undefined });
      await fetch(webhookUrl!, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload });
    };
    if (webhookUrl) {
      await send("checkout.session.completed", session);
      // Premium (mode subscription): Stripe starts the subscription and sends its events.
      if (session.mode === "subscription") {
        const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
        const subscription = {
          id: `sub_${crypto.randomBytes(8).toString("hex")}`,
          object: "subscription",
          customer: session.customer,
          status: "active",
          cancel_at_period_end: false,
          metadata: (session.subscription_data as { metadata?: unknown } | undefined)?.metadata ?? {},
          items: { object: "list", data: [{ id: `si_${crypto.randomBytes(6).toString("hex")}`, object: "subscription_item", current_period_end: periodEnd }] },
        };
        await send("customer.subscription.created", subscription);
      }
    }
    return session;
  }

  /** Finishes a connected account's onboarding (or changes its state) and sends account.updated, as Stripe does. */
  async function updateAccount(id: string, state: Partial<{ charges_enabled: boolean; details_submitted: boolean; payouts_enabled: boolean }> = { charges_enabled: true, details_submitted: true, payouts_enabled: true }) {
    const account = accounts.get(id)!;
    Object.assign(account, state);
    if (webhookUrl) {
      const { payload, header } = signedEvent("account.updated", account, { account: id });
      await fetch(webhookUrl, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload });
    }
    return account;
  }

  return {
    url: base,
    calls,
    accounts,
    refunds,
    updateAccount,
    customers,
    sessions,
    paymentIntents,
    invoices,
    signedEvent,
    complete,
    failNextCall: (status: number, type: string, message: string, more: { code?: string; path?: string } = {}) => (failNext = { status, type, message, ...more }),
    setAutoDeliver: (on: boolean) => (autoDeliver = on),
    setWebhookUrl: (u: string) => (webhookUrl = u),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
