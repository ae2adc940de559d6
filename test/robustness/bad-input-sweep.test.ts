import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { call, testAccount } from "../http";
import { instantiate, routeFiles, type Handler, type Method } from "./routes";

// Every /v1 route, every method it has, fed what careless or hostile clients send:
// malformed JSON, the wrong JSON types, absurd query values, ids that do not exist or
// overflow an integer column. The answer must be a 4xx in the error envelope, never
// a 500, and no tokens may move. The route list is read from app/v1, so a new route
// is swept without anyone adding it here.

// Thousands of calls from one account: lift the per-minute limit, or a 429 (also a 4xx)
// would answer for most routes before their handlers ever saw the bad input.
process.env.RATE_LIMIT_PER_MINUTE = "1000000";
resetConfig();
resetRateLimiter();

const BAD_IDS = ["no-such-id", "2147483648", "-1", "1e3", "%00", "' or 1=1 --", "x".repeat(300)];
const BAD_BODIES: Array<{ name: string; raw: string; type?: string }> = [
  { name: "malformed JSON", raw: '{"name": "unterminated' },
  { name: "a JSON array", raw: "[1, 2, 3]" },
  { name: "JSON null", raw: "null" },
  { name: "a JSON string", raw: '"hello"' },
  { name: "wrong types everywhere", raw: JSON.stringify({ name: 42, email: [], tokens: "many", image_url: { url: 1 }, subjects: "all", limit: -5, status: true, fileUrl: 7 }) },
  { name: "deeply nested JSON", raw: "[".repeat(5000) + "]".repeat(5000) },
  { name: "an unknown field only", raw: JSON.stringify({ surprise: true }) },
  { name: "form data declared as JSON", raw: "a=1&b=2" },
  { name: "JSON sent as text/plain", raw: JSON.stringify({ name: "x" }), type: "text/plain" },
];
const BAD_QUERIES = ["?limit=abc", "?limit=0", "?limit=1000000", "?page=-1", "?page=abc", "?cursor=%00garbage", "?sortBy=password&order=sideways", "?status[]=x", "?limit=1&limit=2"];

const routes = routeFiles().map((file) => ({ file, name: path.relative(process.cwd(), file) }));
let token = "";
let accountId = "";

beforeAll(async () => {
  const a = await testAccount({ tokens: 10_000, plan: "premium" });
  token = a.token;
  accountId = a.account.id;
});

function expectClientError(res: { status: number; json: any; text: string }, what: string) {
  expect(res.status, `${what} was rate-limited, so the handler never saw the input`).not.toBe(429);
  expect(res.status, `${what} answered ${res.status}: ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} answered ${res.status}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.json, `${what}: not the error envelope: ${res.text.slice(0, 300)}`).toMatchObject({ error: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
}

describe("bad input on every /v1 route", () => {
  it("finds the routes", () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  it.each(routes)("$name: bad bodies, bad ids and bad queries are 4xx in the envelope, never 500", async ({ file }) => {
    const mod = (await import(file)) as Partial<Record<Method, Handler>>;
    const methods = (["GET", "POST", "PUT", "PATCH", "DELETE"] as const).filter((m) => typeof mod[m] === "function");
    const before = await getBalance(await getDb(), accountId);
    for (const id of BAD_IDS) {
      const { url, params } = instantiate(file, id);
      for (const method of methods) {
        if (method === "GET" || method === "DELETE") {
          const res = await call(mod, method, url, { token, params });
          // A GET of a collection is a 200; anything with an id that does not exist is a 4xx.
          if (!(method === "GET" && Object.keys(params).length === 0 && res.status === 200)) expectClientError(res, `${method} ${url}`);
          continue;
        }
        for (const body of BAD_BODIES) {
          const res = await call(mod, method, url, { token, params, rawBody: body.raw, headers: { "content-type": body.type ?? "application/json" } });
          // A route without body fields may ignore a body that does not claim to be JSON.
          if (body.type && res.status < 300 && Object.keys(params).length === 0) continue;
          expectClientError(res, `${method} ${url} with ${body.name}`);
        }
      }
    }
    if (methods.includes("GET")) {
      for (const q of BAD_QUERIES) {
        const { url, params } = instantiate(file, "no-such-id");
        const res = await call(mod, "GET", `${url}${q}`, { token, params });
        if (res.status !== 200) expectClientError(res, `GET ${url}${q}`);
      }
    }
    expect(await getBalance(await getDb(), accountId)).toBe(before);
  }, 120_000);
});
