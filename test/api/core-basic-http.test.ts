// HTTP Basic over a real socket: clients turn `https://user:pass@host/...` into
// an Authorization header themselves, so this runs the route handlers behind a
// node:http server and calls it the ways real clients do (node:http with URL
// userinfo or the `auth` option, and curl).
import { execFile, spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as productsRoute from "@/app/v1/products/route";
import { testAccount } from "../http";
import { productBody } from "./core-fixtures";

const run = promisify(execFile);
const HAS_CURL = spawnSync("curl", ["--version"], { stdio: "ignore" }).status === 0;
let server: http.Server;
let port: number;
let email: string;
let password: string;
const seenAuthorization: (string | undefined)[] = [];

beforeAll(async () => {
  ({ email, password } = await testAccount());
  server = http.createServer(async (req, res) => {
    seenAuthorization.push(req.headers.authorization);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) for (const value of [v].flat()) if (value !== undefined) headers.append(k, value);
    headers.set("x-forwarded-for", req.socket.remoteAddress ?? "127.0.0.1");
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body, duplex: "half" } as RequestInit);
    const handler = new URL(request.url).pathname === "/v1/products" ? productsRoute[req.method as "GET" | "POST"] : undefined;
    const response = handler ? await handler(request, { params: Promise.resolve({}) }) : new Response("not here", { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function request(target: string | http.RequestOptions, body?: unknown) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; json: any }>((resolve, reject) => {
    const req = typeof target === "string" ? http.request(target, { method: body ? "POST" : "GET" }) : http.request(target);
    req.on("response", async (res) => {
      let text = "";
      for await (const c of res) text += c;
      resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : undefined });
    });
    req.on("error", reject);
    if (body) {
      req.setHeader("content-type", "application/json");
      req.end(JSON.stringify(body));
    } else req.end();
  });
}

const userinfoUrl = (user: string, pass: string, path = "/v1/products") =>
  `http://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}${path}`;

describe("HTTP Basic over a socket", () => {
  it("works with credentials as URL userinfo (node:http sends them as the Basic header)", async () => {
    seenAuthorization.length = 0;
    const created = await request(userinfoUrl(email, password), productBody({ name: "Via userinfo" }));
    expect(created.status).toBe(201);
    const list = await request(userinfoUrl(email, password));
    expect(list.status).toBe(200);
    expect(list.json.data.map((p: { name: string }) => p.name)).toContain("Via userinfo");
    const expected = `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;
    expect(seenAuthorization).toEqual([expected, expected]);
  });

  it("works with request({ auth })", async () => {
    const viaAuth = await request({ host: "127.0.0.1", port, path: "/v1/products", auth: `${email}:${password}` });
    expect(viaAuth.status).toBe(200);
  });

  // curl is on nearly every machine (CI installs it); a bare one skips this case and says so.
  it.skipIf(!HAS_CURL)("works with curl (userinfo and -u)", async () => {
    const code = async (...args: string[]) => (await run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", ...args])).stdout;
    expect(await code(userinfoUrl(email, password))).toBe("200");
    expect(await code("-u", `${email}:${password}`, `http://127.0.0.1:${port}/v1/products`)).toBe("200");
    expect(await code(userinfoUrl(email, "wrong password here"))).toBe("401");
  });

  it("answers wrong and missing credentials with 401 and a WWW-Authenticate Basic challenge", async () => {
    const wrong = await request(userinfoUrl(email, "definitely wrong"));
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe("INVALID_CREDENTIALS");
    expect(wrong.headers["www-authenticate"]).toContain('Basic realm="Print Studio API"');
    const missing = await request(`http://127.0.0.1:${port}/v1/products`);
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toContain("Basic");
  });

  it("is refused by Node's fetch, which will not send URL userinfo (clients must use the header there)", async () => {
    await expect(fetch(userinfoUrl(email, password))).rejects.toThrow(TypeError);
    const header = await fetch(`http://127.0.0.1:${port}/v1/products`, { headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}` } });
    expect(header.status).toBe(200);
  });
});
