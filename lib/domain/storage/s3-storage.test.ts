import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDeleteOwnerFiles } from "@/test/support/storage-contract";
import { resetConfig } from "@/lib/foundation/config";
import { resetStorage, storage } from "./index";
import { MAX_PRESIGN_SECONDS, verifyPresignedGet } from "./s3-presign";
import { S3Storage } from "./s3-storage";

// s3rver is an in-process fake S3 over real HTTP. It does not check SigV4 signatures
// itself, so the signature checks below exercise our own verifier against URLs the
// AWS SDK produced.
const BUCKET = "print-studio-test";
let server: S3rver;
let endpoint: string;
let s3: S3Storage;

beforeAll(async () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Storage({
    bucket: BUCKET,
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  });
});

afterAll(async () => {
  await server?.close();
});

describe("S3Storage against a fake S3 server", () => {
  it("puts, gets (with content type), overwrites and deletes", async () => {
    const bytes = Buffer.from([1, 2, 3, 0, 255]);
    await s3.put("uploads/a/img.png", bytes, "image/png");
    expect(await s3.get("uploads/a/img.png")).toEqual({ body: bytes, contentType: "image/png" });
    await s3.put("uploads/a/img.png", Buffer.from("v2"), "image/webp");
    expect(await s3.get("uploads/a/img.png")).toEqual({ body: Buffer.from("v2"), contentType: "image/webp" });
    await s3.delete("uploads/a/img.png");
    expect(await s3.get("uploads/a/img.png")).toBeNull();
    await expect(s3.delete("uploads/a/img.png")).resolves.toBeUndefined();
  });

  it("deletes one owner's objects in every area, and only theirs", async () => {
    await expectDeleteOwnerFiles(s3);
  });

  it("validates keys like the local driver", async () => {
    await expect(s3.put("../x", Buffer.from("x"), "text/plain")).rejects.toThrow(/Invalid storage key/);
    await expect(s3.get("a//b")).rejects.toThrow(/Invalid storage key/);
    await expect(s3.signedUrl("/etc/passwd", 60)).rejects.toThrow(/Invalid storage key/);
  });

  it("presigns a GET that downloads over HTTP, with the download name", async () => {
    await s3.put("outputs/j/out.pdf", Buffer.from("%PDF-1.7 fake"), "application/pdf");
    const url = await s3.signedUrl("outputs/j/out.pdf", 300, { downloadName: "Résumé.pdf" });
    const parsed = new URL(url);
    expect(parsed.origin + parsed.pathname).toBe(`${endpoint}/${BUCKET}/outputs/j/out.pdf`);
    expect(parsed.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(parsed.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe("%PDF-1.7 fake");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="R_sum_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`,
    );
  });

  it("caps the lifetime at S3's 7 days", async () => {
    const url = new URL(await s3.signedUrl("outputs/j/out.pdf", 30 * 24 * 3600));
    expect(url.searchParams.get("X-Amz-Expires")).toBe(String(MAX_PRESIGN_SECONDS));
  });

  it("keyFromOwnUrl accepts our presigned URLs", async () => {
    expect(s3.keyFromOwnUrl(await s3.signedUrl("outputs/j/out.pdf", 300))).toBe("outputs/j/out.pdf");
    expect(s3.keyFromOwnUrl(await s3.signedUrl("outputs/j/out.pdf", 300, { downloadName: "x (1).pdf" }))).toBe(
      "outputs/j/out.pdf",
    );
  });

  it("keyFromOwnUrl rejects foreign, tampered and forged URLs", async () => {
    const url = await s3.signedUrl("outputs/j/out.pdf", 300);
    const sig = new URL(url).searchParams.get("X-Amz-Signature")!;
    const flipped = (sig[0] === "a" ? "b" : "a") + sig.slice(1);
    const foreign = [
      url.replace(endpoint, "http://127.0.0.2:9"), // other host
      url.replace(`/${BUCKET}/`, "/other-bucket/"), // other bucket
      url.replace("outputs/j/out.pdf", "outputs/k/secret.pdf"), // other key, same signature
      url.replace(sig, flipped), // tampered signature
      url.replace("X-Amz-Expires=300", "X-Amz-Expires=3000"), // stretched lifetime
      url.replace(/X-Amz-Credential=[^&]+/, "X-Amz-Credential=AKIAOTHER%2F20300101%2Fus-east-1%2Fs3%2Faws4_request"),
      url.split("?")[0]!, // no signature at all
      `${url}&response-content-type=text%2Fhtml`, // unsigned extra parameter
      "https://example.com/x.png",
      "::not a url::",
    ];
    for (const u of foreign) expect(s3.keyFromOwnUrl(u), u).toBeNull();
  });

  it("keyFromOwnUrl rejects expired URLs", async () => {
    const url = new URL(await s3.signedUrl("outputs/j/out.pdf", 60));
    const secretFor = () => "S3RVER";
    expect(verifyPresignedGet(url, secretFor)).toEqual({ ok: true });
    expect(verifyPresignedGet(url, secretFor, Date.now() + 61_000)).toEqual({ ok: false, reason: "expired" });
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString().replace(/[-:]|\.\d{3}/g, "");
    const stale = new URL(url);
    stale.searchParams.set("X-Amz-Date", twoMinutesAgo);
    // Backdating breaks the signature; only a URL we really signed can report "expired".
    expect(verifyPresignedGet(stale, secretFor)).toEqual({ ok: false, reason: "bad_signature" });
  });
});

describe("S3Storage URL recognition without a custom endpoint", () => {
  const aws = new S3Storage({
    bucket: "my-bucket",
    region: "eu-west-1",
    forcePathStyle: false,
    accessKeyId: "AKIDEXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  });

  it("presigns virtual-hosted AWS URLs and recognises them (no network needed)", async () => {
    const url = await aws.signedUrl("a/b.png", 3600, { downloadName: "b.png" });
    expect(new URL(url).host).toBe("my-bucket.s3.eu-west-1.amazonaws.com");
    expect(aws.keyFromOwnUrl(url)).toBe("a/b.png");
    const pathStyle = url.replace("https://my-bucket.s3.eu-west-1.amazonaws.com/", "https://s3.eu-west-1.amazonaws.com/my-bucket/");
    expect(aws.keyFromOwnUrl(pathStyle)).toBeNull(); // host is signed, so a rewritten URL no longer verifies
    expect(aws.keyFromOwnUrl(url.replace("https:", "http:"))).toBeNull();
    expect(aws.keyFromOwnUrl(url.replace("my-bucket.", "your-bucket."))).toBeNull();
  });
});

describe("S3Storage with the default credential chain", () => {
  it("recognises only URLs signed with credentials it has used itself", async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = "S3RVER";
    process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
    try {
      const opts = { bucket: BUCKET, region: "us-east-1", endpoint, forcePathStyle: true };
      const signer = new S3Storage(opts);
      const url = await signer.signedUrl("outputs/j/out.pdf", 300);
      expect((await fetch(url)).status).toBe(200);
      expect(signer.keyFromOwnUrl(url)).toBe("outputs/j/out.pdf");
      // Another instance has not resolved these credentials yet: null, and the caller fetches over HTTP.
      expect(new S3Storage(opts).keyFromOwnUrl(url)).toBeNull();
    } finally {
      for (const [k, v] of [["AWS_ACCESS_KEY_ID", saved.id], ["AWS_SECRET_ACCESS_KEY", saved.secret]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe("storage() driver selection", () => {
  it("uses S3 when S3_BUCKET is set, local otherwise", () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, {
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: "true",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      });
      resetConfig();
      resetStorage();
      expect(storage().driver).toBe("s3");
      expect(storage()).toBe(storage());
    } finally {
      for (const k of ["S3_BUCKET", "S3_ENDPOINT", "S3_FORCE_PATH_STYLE", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"]) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
      resetConfig();
      resetStorage();
    }
    expect(storage().driver).toBe("local");
  });
});
