import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as routeGet, HEAD as routeHead } from "@/app/files/[...key]/route";
import { resetConfig } from "@/lib/foundation/config";
import { OUTPUT_URL_TTL_SECONDS, resetStorage, storage } from "./index";
import { serveSignedFile } from "./serve-signed-file";
import { signFileUrlUntil, verifyFileUrl } from "./sign-url";

const KEY = "outputs/job_1/result.svg";
const BYTES = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/** What the route does: Next hands over the decoded path segments after /files/. */
function serve(url: string, method = "GET"): Promise<Response> {
  const segments = new URL(url).pathname.replace(/^\/files\//, "").split("/").map(decodeURIComponent);
  return serveSignedFile(new Request(url, { method }), segments);
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: string; message: string; request_id: string };
  expect(body.error).toBe(code);
  expect(body.message).toEqual(expect.any(String));
  expect(body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  expect(res.headers.get("X-Request-Id")).toBe(body.request_id);
}

beforeAll(async () => {
  resetStorage();
  expect(storage().driver).toBe("local");
  await storage().put(KEY, BYTES, "image/svg+xml");
});

afterEach(() => {
  vi.useRealTimers();
});

describe("signed local URLs", () => {
  it("have the documented shape and a 24h output TTL constant", async () => {
    expect(OUTPUT_URL_TTL_SECONDS).toBe(86_400);
    const before = Math.floor(Date.now() / 1000);
    const url = new URL(await storage().signedUrl(KEY, 600));
    expect(url.origin + url.pathname).toBe(`http://localhost:3000/files/${KEY}`);
    const expires = Number(url.searchParams.get("expires"));
    expect(expires - before).toBeGreaterThanOrEqual(600);
    expect(expires - before).toBeLessThanOrEqual(601);
    expect(url.searchParams.get("sig")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.has("name")).toBe(false);
  });

  it("serve the exact bytes with safe headers", async () => {
    const res = await serve(await storage().signedUrl(KEY, 600));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(BYTES);
    expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(res.headers.get("Content-Length")).toBe(String(BYTES.length));
    expect(res.headers.get("Cache-Control")).toMatch(/^private, max-age=(599|600)$/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Disposition")).toBe("inline");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
  });

  it("send a signed download name as an attachment, and cover it by the signature", async () => {
    const url = await storage().signedUrl(KEY, 600, { downloadName: 'Résumé "final".svg' });
    const res = await serve(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="R_sum_ _final_.svg"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.svg`,
    );
    const renamed = new URL(url);
    renamed.searchParams.set("name", "evil.html");
    await expectError(await serve(renamed.href), 403, "URL_SIGNATURE_INVALID");
    const stripped = new URL(url);
    stripped.searchParams.delete("name");
    await expectError(await serve(stripped.href), 403, "URL_SIGNATURE_INVALID");
    const added = new URL(await storage().signedUrl(KEY, 600));
    added.searchParams.set("name", "x.svg");
    await expectError(await serve(added.href), 403, "URL_SIGNATURE_INVALID");
  });

  it("reject a tampered signature", async () => {
    const url = new URL(await storage().signedUrl(KEY, 600));
    const sig = url.searchParams.get("sig")!;
    url.searchParams.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    await expectError(await serve(url.href), 403, "URL_SIGNATURE_INVALID");
    url.searchParams.delete("sig");
    await expectError(await serve(url.href), 403, "URL_SIGNATURE_INVALID");
  });

  it("reject another key carrying this key's signature", async () => {
    await storage().put("outputs/job_2/result.svg", Buffer.from("other"), "image/svg+xml");
    const url = await storage().signedUrl(KEY, 600);
    await expectError(await serve(url.replace("job_1", "job_2")), 403, "URL_SIGNATURE_INVALID");
  });

  it("reject a tampered expiry (reported as a bad signature, not as expired)", async () => {
    const url = new URL(await storage().signedUrl(KEY, 600));
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    await expectError(await serve(url.href), 403, "URL_SIGNATURE_INVALID");
    url.searchParams.set("expires", "soon");
    await expectError(await serve(url.href), 403, "URL_SIGNATURE_INVALID");
  });

  it("expire: 403 URL_EXPIRED once the clock passes the expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2030-01-01T00:00:00Z");
    vi.setSystemTime(start);
    const url = await storage().signedUrl(KEY, 60);
    vi.setSystemTime(start.getTime() + 59_000);
    const live = await serve(url);
    expect(live.status).toBe(200);
    expect(live.headers.get("Cache-Control")).toBe("private, max-age=1");
    vi.setSystemTime(start.getTime() + 60_000);
    await expectError(await serve(url), 403, "URL_EXPIRED");
    expect(storage().keyFromOwnUrl(url)).toBeNull();
  });

  it("expire: a URL signed with a past expiry is refused", async () => {
    const url = signFileUrlUntil(KEY, Math.floor(Date.now() / 1000) - 1);
    await expectError(await serve(url), 403, "URL_EXPIRED");
    expect(verifyFileUrl(url)).toEqual({ ok: false, reason: "expired" });
  });

  it("404 for a validly signed URL whose object is gone", async () => {
    const url = await storage().signedUrl("outputs/missing.png", 600);
    await expectError(await serve(url), 404, "NOT_FOUND");
  });

  it("answer HEAD with the headers and no body", async () => {
    const res = await serve(await storage().signedUrl(KEY, 600), "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe(String(BYTES.length));
    expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(res.body).toBeNull();
  });

  it("go through the Next route handler", async () => {
    const url = await storage().signedUrl(KEY, 600);
    const params = Promise.resolve({ key: KEY.split("/") });
    const res = await routeGet(new Request(url), { params });
    expect(Buffer.from(await res.arrayBuffer())).toEqual(BYTES);
    const head = await routeHead(new Request(url, { method: "HEAD" }), { params: Promise.resolve({ key: KEY.split("/") }) });
    expect(head.status).toBe(200);
    const bad = await routeGet(new Request(url.replace(/sig=[^&]+/, "sig=AAAA")), {
      params: Promise.resolve({ key: KEY.split("/") }),
    });
    expect(bad.status).toBe(403);
  });
});

describe("LocalStorage.keyFromOwnUrl", () => {
  it("returns the key of our own valid URL, with or without a download name", async () => {
    expect(storage().keyFromOwnUrl(await storage().signedUrl(KEY, 600))).toBe(KEY);
    expect(storage().keyFromOwnUrl(await storage().signedUrl(KEY, 600, { downloadName: "a b.svg" }))).toBe(KEY);
  });

  it("knows its URLs by their signature, whatever host they name (links follow the origin the client called)", async () => {
    const url = await storage().signedUrl(KEY, 600);
    expect(storage().keyFromOwnUrl(url.replace("http://localhost:3000", "http://127.0.0.1:3000"))).toBe(KEY);
    expect(storage().keyFromOwnUrl(url.replace("http://localhost:3000", "https://studio.example.com"))).toBe(KEY);
    expect(storage().keyFromOwnUrl(url.replace("http://localhost:3000", "ftp://localhost:3000"))).toBeNull();
  });

  it("rejects tampered and malformed URLs", async () => {
    const url = await storage().signedUrl(KEY, 600);
    const own = storage();
    expect(own.keyFromOwnUrl(url.replace("/files/", "/other/"))).toBeNull();
    expect(own.keyFromOwnUrl(url.replace("job_1", "job_2"))).toBeNull();
    expect(own.keyFromOwnUrl(url.replace(/sig=[^&]+/, "sig=AAAA"))).toBeNull();
    expect(own.keyFromOwnUrl(url.replace(/expires=\d+/, "expires=9999999999"))).toBeNull();
    expect(own.keyFromOwnUrl(url.split("?")[0]!)).toBeNull();
    expect(own.keyFromOwnUrl("not a url")).toBeNull();
    expect(own.keyFromOwnUrl("http://localhost:3000/files/%E0%A4%A?expires=1&sig=x")).toBeNull();
  });

  it("follows APP_URL for new links; links already handed out stay valid", async () => {
    const old = await storage().signedUrl(KEY, 600);
    const saved = process.env.APP_URL;
    process.env.APP_URL = "https://studio.example.com/";
    resetConfig();
    try {
      const fresh = await storage().signedUrl(KEY, 600);
      expect(fresh.startsWith(`https://studio.example.com/files/${KEY}?`)).toBe(true);
      expect(storage().keyFromOwnUrl(fresh)).toBe(KEY);
      expect(storage().keyFromOwnUrl(old)).toBe(KEY);
    } finally {
      process.env.APP_URL = saved;
      resetConfig();
    }
  });
});
