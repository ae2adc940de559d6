import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import * as uploads from "@/app/v1/uploads/route";
import * as bgRemove from "@/app/v1/services/bg-remove/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { testAccount } from "../http";

// README: without APP_URL, links follow the origin the client called. A studio
// started with `npm run studio` on a LAN host must hand out file URLs that host's
// clients can follow, and must still know those URLs as its own when they come
// back as a job's source (read from storage, never fetched over the network).
const SETUP_APP_URL = process.env.APP_URL;
beforeAll(async () => {
  delete process.env.APP_URL;
  resetConfig();
  await getDb();
});
afterAll(() => {
  process.env.APP_URL = SETUP_APP_URL;
  resetConfig();
});

async function send(route: { POST?: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> }, url: string, token: string, body: BodyInit, type?: string, host?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, "x-forwarded-for": "203.0.113.9", ...(host ? { host } : {}) };
  if (type) headers["content-type"] = type;
  const res = await route.POST!(new Request(url, { method: "POST", headers, body, duplex: "half" } as RequestInit), { params: Promise.resolve({}) });
  return { status: res.status, json: await res.json() };
}

describe("links without APP_URL", () => {
  it("are signed on the origin the client called, and come back as our own source", async () => {
    const { token } = await testAccount({ tokens: 500 });
    const form = new FormData();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#c33" } }).png().toBuffer();
    form.append("file", new File([new Uint8Array(png)], "red.png", { type: "image/png" }));
    const up = await send(uploads, "http://studio.lan:8080/v1/uploads", token, form);
    expect(up.status).toBe(201);
    expect(up.json.url).toMatch(/^http:\/\/studio\.lan:8080\/files\/uploads\//);

    // A private host the safe fetcher would refuse: accepted because the signature is ours.
    const job = await send(bgRemove, "http://studio.lan:8080/v1/services/bg-remove", token, JSON.stringify({ image_url: up.json.url }), "application/json");
    expect(job.status).toBe(202);
    const forged = await send(bgRemove, "http://studio.lan:8080/v1/services/bg-remove", token, JSON.stringify({ image_url: up.json.url.replace("studio.lan", "127.0.0.1").replace(/sig=[^&]+/, "sig=forged") }), "application/json");
    expect(forged.status).toBe(400);
    expect(forged.json).toMatchObject({ error: "URL_NOT_ALLOWED" });
  });

  it("follow the Host the client sent, not the address the server is bound to (0.0.0.0 under the standalone server)", async () => {
    const { token } = await testAccount({ tokens: 500 });
    const form = () => {
      const f = new FormData();
      f.append("file", new File([new Uint8Array(Buffer.from("%PDF-1.4\n%%EOF\n"))], "a.pdf", { type: "application/pdf" }));
      return f;
    };
    for (const host of ["studio.lan:8080", "127.0.0.1:3000", "[::1]:3000", "photo-studio.example"]) {
      const up = await send(uploads, "http://0.0.0.0:3000/v1/uploads", token, form(), undefined, host);
      expect(up.status, JSON.stringify(up.json)).toBe(201);
      expect(new URL(up.json.url).host).toBe(host);
    }
    // A Host that is no host name is not used for links.
    const odd = await send(uploads, "http://0.0.0.0:3000/v1/uploads", token, form(), undefined, "evil.example/path?x=");
    expect(new URL(odd.json.url).host).toBe("0.0.0.0:3000");
  });
});
