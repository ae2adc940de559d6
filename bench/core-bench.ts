// Core API list benchmark (`npx tsx bench/core-bench.ts`), on PostgreSQL:
// 1. 100,000 products in one account (plus 20,000 in another): EXPLAIN ANALYZE
//    of the exact SQL the API runs (built by productPageQuery) for every
//    filter x sort x order, on the first page and deep in the list, showing
//    which index answers it and that nothing is scanned or sorted in full.
// 2. p50/p99 of `GET /v1/products?limit=100` through the real route handlers
//    (auth, rate limit, zod, keyset page, JSON), following links.next through
//    the whole list, against the same page query run directly with the
//    postgres.js driver (the baseline: the ratio is the API's own overhead).
// Env: BENCH_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

const PG_ADMIN = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const PRODUCTS = 100_000;
const OTHER_ACCOUNT_PRODUCTS = 20_000;
const LIMIT = 100;

type Step = { from: { value: string; id: string } | null; forward: boolean; limit: number };
type PlanNode = { "Node Type": string; "Index Name"?: string; "Actual Rows"?: number; Plans?: PlanNode[] };

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
};
const ms = (x: number) => Math.round(x * 100) / 100;

function planSummary(node: PlanNode) {
  const nodes: PlanNode[] = [];
  const walk = (n: PlanNode) => {
    nodes.push(n);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(node);
  const indexes = [...new Set(nodes.map((n) => n["Index Name"]).filter(Boolean))];
  return {
    nodes: nodes.map((n) => n["Node Type"]).join(" > "),
    indexes: indexes.join(", ") || "(none)",
    seqScan: nodes.some((n) => n["Node Type"] === "Seq Scan"),
    sort: nodes.some((n) => n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort"),
  };
}

async function main() {
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const admin = postgres(PG_ADMIN, { max: 1, onnotice: () => {} });
  const dbName = `bench_core_${Date.now()}`;
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-core-"));
  // Before any app module reads its configuration.
  Object.assign(process.env, {
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    APP_URL: "http://localhost:3000",
    DEMO_ACCOUNT: "never",
    // The limiter still counts every request; the budget is raised so it never refuses.
    RATE_LIMIT_PER_MINUTE: "1000000000",
  });
  const driver = postgres(url.toString(), { max: 1, onnotice: () => {} });

  try {
    const { dbHandle, closeDb } = await import("@/lib/foundation/db/client");
    const { createAccount } = await import("@/lib/domain/identity/create-account");
    const { issueAccessToken } = await import("@/lib/domain/identity/access-token");
    const { verifyCredentials } = await import("@/lib/domain/identity/verify-credentials");
    const { productPageQuery } = await import("@/lib/services/core/products");
    const { productListQuery } = await import("@/lib/services/core/product-schemas");
    const { getUnauthToken } = await import("@/lib/services/sign-in/unauth-token");
    const { decodeCursor } = await import("@/lib/services/core/list-query");
    const productsRoute = await import("@/app/v1/products/route");

    const { db } = await dbHandle();
    const password = "bench passphrase 123";
    const email = `bench-core-${Date.now()}@example.com`;
    const account = await createAccount(db, { email, password, name: "Bench", verified: true, signupTokens: 0 });
    const other = await createAccount(db, { email: `other-${email}`, password, name: "Other", verified: true, signupTokens: 0 });

    // The machine is shared: the load average says how much the figures are disturbed.
    console.log(`machine: ${machine}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    console.log(`seeding ${PRODUCTS.toLocaleString()} products (+${OTHER_ACCOUNT_PRODUCTS.toLocaleString()} in another account) on PostgreSQL ...`);
    // Created three per second (ties in created_at), names repeating (ties in name),
    // 10% archived, a third public; updated_at shuffled.
    const seed = (accountId: string, n: number, prefix: string) =>
      driver.unsafe(
        `insert into products (id, account_id, sku, name, product_type, width_in, height_in, bleed_mm, min_ppi, color_mode, price, currency, status, is_public, created_at, updated_at)
         select $2::text || lpad(g::text, 7, '0'), $1::text, 'SKU-' || g,
                (array['Canvas','Poster','Wallpaper','Framed print','Wrapping paper'])[1 + g % 5] || ' ' || (g % 997),
                (array['photo_on_canvas','poster','wallpaper','framed_print','wrapping_paper','stock_canvas'])[1 + g % 6],
                16, 20, 3, 150, 'cmyk', 1000 + g % 5000, 'USD',
                case when g % 10 = 0 then 'archived' else 'active' end, g % 3 = 0,
                timestamptz '2026-01-01 00:00:00Z' + (g / 3) * interval '1 second',
                timestamptz '2026-01-01 00:00:00Z' + ((g::bigint * 7919) % $3::int) * interval '1 second'
         from generate_series(1, $3::int) g`,
        [accountId, prefix, n],
      );
    await seed(account.id, PRODUCTS, "prd_bench");
    await seed(other.id, OTHER_ACCOUNT_PRODUCTS, "prd_other");
    await driver.unsafe("analyze products");

    // ---- 1. Query plans -------------------------------------------------
    const filters = [
      { label: "none", query: {}, publicOnly: false },
      { label: "status=active", query: { status: "active" }, publicOnly: false },
      { label: "status=archived", query: { status: "archived" }, publicOnly: false },
      { label: "public (unauth token)", query: {}, publicOnly: true },
      { label: "public + status=active", query: { status: "active" }, publicOnly: true },
    ];
    const sortColumn = { created_at: "created_at", updated_at: "updated_at", name: "name" } as const;
    const planRows: Record<string, unknown>[] = [];
    let problems = 0;
    for (const f of filters) {
      for (const sortBy of ["created_at", "updated_at", "name"] as const) {
        for (const order of ["asc", "desc"] as const) {
          const q = productListQuery.parse({ limit: String(LIMIT), sortBy, order, ...f.query });
          const scope = { accountId: account.id, publicOnly: f.publicOnly };
          // A real key 90% of the way down the list, for the deep page.
          const col = sortColumn[sortBy];
          const where = [`account_id = $1`, f.publicOnly ? "is_public" : "true", "status" in f.query ? `status = '${f.query.status}'` : "true"].join(" and ");
          const [deep] = await driver.unsafe(
            `select ${col === "name" ? "name" : `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`} as value, id from products where ${where}
             order by ${col} ${order}, id ${order} offset (select count(*) * 9 / 10 from products where ${where}) limit 1`,
            [account.id],
          );
          for (const [position, from] of [
            ["first page", null],
            ["90% deep", deep ? { value: String(deep.value), id: String(deep.id) } : null],
          ] as const) {
            const step: Step = { from, forward: true, limit: LIMIT + 1 };
            const built = productPageQuery(db, scope, q, step).toSQL();
            const [row] = await driver.unsafe(`explain (analyze, format json) ${built.sql}`, built.params as never[]);
            const plan = (row!["QUERY PLAN"] as { Plan: PlanNode; "Execution Time": number }[])[0]!;
            const s = planSummary(plan.Plan);
            if (s.seqScan || s.sort) problems++;
            planRows.push({
              filter: f.label,
              sort: `${sortBy} ${order}`,
              page: position,
              index: s.indexes,
              plan: s.nodes,
              rows: plan.Plan["Actual Rows"],
              "exec ms": ms(plan["Execution Time"]),
              "seq scan/sort": s.seqScan || s.sort ? "YES" : "no",
            });
          }
        }
      }
    }
    console.log(`\nQuery plans: the API's page query (limit ${LIMIT} + 1) for every filter x sort x order, first page and 90% deep`);
    console.table(planRows);
    console.log(problems ? `${problems} plans scan or sort in full` : "every plan is an index range scan: no Seq Scan, no Sort");
    if (problems) process.exitCode = 1;
    const sample = productPageQuery(db, { accountId: account.id, publicOnly: false }, productListQuery.parse({ limit: "100", sortBy: "name", status: "archived" }), {
      from: { value: "Canvas 500", id: "prd_bench0050000" },
      forward: true,
      limit: LIMIT + 1,
    }).toSQL();
    const text = await driver.unsafe(`explain (analyze, costs off, timing off) ${sample.sql}`, sample.params as never[]);
    console.log(`\nOne plan in full (status=archived, sortBy=name, after a cursor):\n${text.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}`);

    // ---- 2. Latency through the route handlers vs the driver -------------
    const { token } = await issueAccessToken(account);
    const unauthToken = await getUnauthToken(db, account.id);
    const basic = `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;

    /** The API's page query (limit + 1) for one step, run with the driver alone. */
    async function driverPage(q: ReturnType<typeof productListQuery.parse>, publicOnly: boolean, from: Step["from"], forward = true, limit = LIMIT + 1, inclusive = false) {
      const built = productPageQuery(db, { accountId: account.id, publicOnly }, q, { from, forward, limit, inclusive }).toSQL();
      return driver.unsafe(built.sql, built.params as never[]);
    }

    /**
     * Follows links.next through the list. For every page, interleaved so that
     * machine noise hits all three alike: the API call (route handler, body read
     * as text); the same page query with the driver (the baseline); and every
     * query the API issues (account lookup, page, neighbour probe) with the driver.
     */
    async function walk(raw: Record<string, string>, headers: Record<string, string>, publicOnly: boolean, maxPages = Infinity) {
      const q = productListQuery.parse(raw);
      const api: number[] = [];
      const page: number[] = [];
      const allQueries: number[] = [];
      let next: string | null = `http://localhost:3000/v1/products?${new URLSearchParams(raw)}`;
      let records = 0;
      while (next && api.length < maxPages) {
        const cursorParam = new URL(next).searchParams.get("cursor");
        const from = cursorParam ? decodeCursor(cursorParam)!.key : null;
        const req: Request = new Request(next, { headers: { ...headers, "x-forwarded-for": "198.51.100.7" } });
        let t0 = performance.now();
        const res = await productsRoute.GET(req, { params: Promise.resolve({}) });
        const text = await res.text();
        api.push(performance.now() - t0);
        const body = JSON.parse(text) as { data: unknown[]; links: { next: string | null } };
        if (res.status !== 200) throw new Error(`GET ${next}: ${res.status} ${text}`);
        records += body.data.length;
        next = body.links.next;

        t0 = performance.now();
        await driverPage(q, publicOnly, from);
        page.push(performance.now() - t0);

        t0 = performance.now();
        await driver.unsafe("select * from accounts where id = $1", [account.id]);
        await Promise.all([driverPage(q, publicOnly, from), from ? driverPage(q, publicOnly, from, false, 1, true) : null]);
        allQueries.push(performance.now() - t0);
      }
      return { api, page, allQueries, records };
    }

    const scenarios: { label: string; raw: Record<string, string>; headers: Record<string, string>; publicOnly: boolean; pages: number }[] = [
      { label: "created_at desc, Bearer JWT", raw: { limit: "100" }, headers: { authorization: `Bearer ${token}` }, publicOnly: false, pages: Infinity },
      { label: "name asc, Bearer JWT", raw: { limit: "100", sortBy: "name" }, headers: { authorization: `Bearer ${token}` }, publicOnly: false, pages: Infinity },
      { label: "status=archived updated_at desc, Bearer", raw: { limit: "100", status: "archived", sortBy: "updated_at" }, headers: { authorization: `Bearer ${token}` }, publicOnly: false, pages: Infinity },
      { label: "public name asc, unauth token", raw: { limit: "100", sortBy: "name" }, headers: { "x-service-unauth-token": unauthToken }, publicOnly: true, pages: Infinity },
      { label: "created_at desc, Basic (cached)", raw: { limit: "100" }, headers: { authorization: basic }, publicOnly: false, pages: 300 },
    ];
    // Warm-up: JIT, connection pools, the Basic cache's first (argon2) verification.
    for (const s of scenarios) await walk(s.raw, s.headers, s.publicOnly, 50);

    const latency: Record<string, unknown>[] = [];
    for (const s of scenarios) {
      const r = await walk(s.raw, s.headers, s.publicOnly, s.pages);
      const p = (xs: number[], q: number) => ms(percentile(xs, q));
      latency.push({
        scenario: s.label,
        calls: r.api.length,
        records: r.records,
        "API p50": p(r.api, 0.5),
        "API p99": p(r.api, 0.99),
        "driver p50": p(r.page, 0.5),
        "driver p99": p(r.page, 0.99),
        "p50 ratio": `${(percentile(r.api, 0.5) / percentile(r.page, 0.5)).toFixed(2)}x`,
        "p99 ratio": `${(percentile(r.api, 0.99) / percentile(r.page, 0.99)).toFixed(2)}x`,
        "all API queries p50": p(r.allQueries, 0.5),
      });
    }
    console.log(`\nGET /v1/products?limit=${LIMIT} through the route handlers (following links.next) vs the same page query with the driver (ms)`);
    console.log("'all API queries' = account lookup + page query + neighbour probe, run with the driver: the rest of the API's time is JavaScript (JWT, zod, JSON).");
    console.table(latency);

    // What the Basic cache saves: one argon2id verification per request otherwise.
    const argon: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await verifyCredentials(db, email, password);
      argon.push(performance.now() - t0);
    }
    console.log(`\nargon2id verification (what an uncached Basic request would add): p50 ${ms(percentile(argon, 0.5))} ms`);

    fs.mkdirSync("bench/results", { recursive: true });
    console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    fs.writeFileSync("bench/results/core.json", JSON.stringify({ machine, loadavg: os.loadavg(), at: new Date().toISOString(), plans: planRows, latency, argon2idP50Ms: percentile(argon, 0.5) }, null, 2));
    await closeDb();
  } finally {
    await driver.end();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
