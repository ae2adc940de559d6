import { describe, expect, it } from "vitest";
import * as uploads from "@/app/v1/uploads/route";
import * as files from "@/app/files/[...key]/route";
import { resetConfig } from "@/lib/foundation/config";
import { fetchSource, checkSourceUrl } from "@/lib/domain/sources/fetch-source";
import { ApiError } from "@/lib/foundation/http/api-error";
import { call, testAccount } from "../http";

// A real 1x1 PNG and a minimal PDF header, so type detection sees genuine magic bytes.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

function form(bytes: Buffer, name: string, type: string, field = "file") {
  const f = new FormData();
  f.append(field, new File([new Uint8Array(bytes)], name, { type }));
  return f;
}

async function upload(token: string | undefined, body: FormData | string, headers: Record<string, string> = {}) {
  return call(uploads, "POST", "/v1/uploads", { token, rawBody: body, headers });
}

describe("POST /v1/uploads", () => {
  it("stores an image and returns a signed URL that serves the exact bytes", async () => {
    const { token } = await testAccount();
    const res = await upload(token, form(PNG, "photo.png", "image/png"));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ id: expect.stringMatching(/^upl_/), content_type: "image/png", size: PNG.length, url: expect.stringContaining("/files/uploads/") });
    expect(new Date(res.json.expires_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const url = new URL(res.json.url);
    const key = url.pathname.replace(/^\/files\//, "").split("/");
    const served = await files.GET(new Request(url), { params: Promise.resolve({ key }) });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    // The URL is accepted as a source by every service and read straight from storage.
    await expect(checkSourceUrl(res.json.url, "image_url")).resolves.toBeUndefined();
    const source = await fetchSource(res.json.url);
    expect(source).toMatchObject({ mime: "image/png", fromStorage: true });
  });

  it("decides the type by content: a PDF declared as PNG is stored as a PDF", async () => {
    const { token } = await testAccount();
    const res = await upload(token, form(PDF, "lies.png", "image/png"));
    expect(res.status).toBe(201);
    expect(res.json.content_type).toBe("application/pdf");
  });

  it("refuses files that are not images or PDFs whatever they claim", async () => {
    const { token } = await testAccount();
    const html = await upload(token, form(Buffer.from("<html><script>alert(1)</script></html>"), "x.png", "image/png"));
    expect(html.status).toBe(415);
    expect(html.json).toMatchObject({ error: "UNSUPPORTED_FILE_TYPE", details: { field: "file", declared: "image/png" } });
    const zip = await upload(token, form(Buffer.from("504b0304140000000800", "hex"), "x.jpg", "image/jpeg"));
    expect(zip.status).toBe(415);
    const empty = await upload(token, form(Buffer.alloc(0), "x.png", "image/png"));
    expect(empty.status).toBe(400);
  });

  it("names the missing field, refuses JSON, and refuses oversized uploads with 413", async () => {
    const { token } = await testAccount();
    const wrongField = await upload(token, form(PNG, "a.png", "image/png", "image"));
    expect(wrongField.status).toBe(400);
    expect(wrongField.json.details.fields[0].field).toBe("file");
    const json = await upload(token, JSON.stringify({ file: "x" }), { "content-type": "application/json" });
    expect(json.status).toBe(415);

    process.env.MAX_IMAGE_BYTES = "1000";
    process.env.MAX_PDF_BYTES = "2000";
    resetConfig();
    try {
      const bigPng = Buffer.concat([PNG, Buffer.alloc(1500)]);
      const big = await upload(token, form(bigPng, "big.png", "image/png"));
      expect(big.status).toBe(413);
      expect(big.json.details.field).toBe("file");
      const huge = await upload(token, form(Buffer.concat([PNG, Buffer.alloc(200_000)]), "huge.png", "image/png"));
      expect(huge.status).toBe(413);
    } finally {
      delete process.env.MAX_IMAGE_BYTES;
      delete process.env.MAX_PDF_BYTES;
      resetConfig();
    }
  });

  it("needs credentials", async () => {
    expect((await upload(undefined, form(PNG, "a.png", "image/png"))).status).toBe(401);
  });
});

describe("source URLs", () => {
  it.each([
    "http://127.0.0.1/x.png",
    "http://10.0.0.8/x.png",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/x.png",
    "http://localhost:3000/x.png",
    "file:///etc/passwd",
  ])("refuses %s at request time with 400 URL_NOT_ALLOWED naming the field", async (url) => {
    const err = await checkSourceUrl(url, "image_url").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).code).toBe("URL_NOT_ALLOWED");
    expect((err as ApiError).details).toMatchObject({ field: "image_url" });
  });

  it("refuses a tampered signed URL as a storage read and treats it as an outside URL", async () => {
    const { token } = await testAccount();
    const res = await upload(token, form(PNG, "photo.png", "image/png"));
    const tampered = res.json.url.replace(/sig=[^&]+/, "sig=AAAA");
    // localhost is not a public address, so the tampered URL is refused outright.
    await expect(checkSourceUrl(tampered, "image_url")).rejects.toMatchObject({ code: "URL_NOT_ALLOWED" });
  });
});
