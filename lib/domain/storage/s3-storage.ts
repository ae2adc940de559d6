import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { config } from "@/lib/foundation/config";
import { contentDisposition } from "./content-disposition";
import { MAX_PRESIGN_SECONDS, verifyPresignedGet } from "./s3-presign";
import { assertOwnerSegment, assertValidKey, STORAGE_AREAS, isValidKey, normaliseTtl, type ObjectStorage } from "./types";

export interface S3Options {
  bucket: string;
  region: string;
  /** MinIO, R2, Ceph...; unset means AWS. */
  endpoint?: string;
  /** Both or neither; neither means the SDK's default credential chain (env, profile, IAM role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export function s3OptionsFromConfig(): S3Options {
  const c = config();
  if (!c.S3_BUCKET) throw new Error("S3_BUCKET is not set");
  if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY)) {
    throw new Error("Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither");
  }
  return {
    bucket: c.S3_BUCKET,
    region: c.S3_REGION,
    endpoint: c.S3_ENDPOINT,
    accessKeyId: c.S3_ACCESS_KEY_ID,
    secretAccessKey: c.S3_SECRET_ACCESS_KEY,
    forcePathStyle: c.S3_FORCE_PATH_STYLE === "true",
  };
}

/** How many signing identities keyFromOwnUrl remembers (rotating role credentials). */
const REMEMBERED_CREDENTIALS = 8;

export class S3Storage implements ObjectStorage {
  readonly driver = "s3" as const;
  readonly client: S3Client;
  /** accessKeyId -> secret of every credential we presigned with, to verify our own URLs later. */
  private readonly secrets = new Map<string, string>();

  constructor(private readonly opts: S3Options) {
    const credentials =
      opts.accessKeyId && opts.secretAccessKey
        ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
        : undefined;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      ...(credentials && { credentials }),
      // Many S3-compatible servers reject the newer default checksum headers/params;
      // plain AWS keeps the SDK defaults.
      ...(opts.endpoint && {
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    });
    if (credentials) this.secrets.set(credentials.accessKeyId, credentials.secretAccessKey);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.opts.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async get(key: string): Promise<{ body: Buffer; contentType: string } | null> {
    assertValidKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      const bytes = res.Body ? await res.Body.transformToByteArray() : new Uint8Array();
      return {
        body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        contentType: res.ContentType ?? "application/octet-stream",
      };
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  async deleteOwnerFiles(owner: string): Promise<number> {
    assertOwnerSegment(owner);
    let removed = 0;
    for (const area of STORAGE_AREAS) {
      let token: string | undefined;
      do {
        const page = await this.list({ Prefix: `${area}/${owner}/`, ContinuationToken: token });
        // One DELETE per object: DeleteObjects (batch) needs Content-MD5 that several S3-compatible servers handle differently.
        for (const key of page.keys) await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
        removed += page.keys.length;
        token = page.next;
      } while (token);
    }
    return removed;
  }

  private async list(input: { Prefix: string; ContinuationToken?: string }) {
    const res = await this.client.send(new ListObjectsV2Command({ Bucket: this.opts.bucket, ...input }));
    return { keys: (res.Contents ?? []).map((o) => o.Key!).filter(Boolean), next: res.IsTruncated ? res.NextContinuationToken : undefined };
  }

  async signedUrl(key: string, ttlSeconds: number, opts?: { downloadName?: string }): Promise<string> {
    assertValidKey(key);
    const expiresIn = Math.min(normaliseTtl(ttlSeconds), MAX_PRESIGN_SECONDS);
    this.remember(await this.client.config.credentials());
    const command = new GetObjectCommand({
      Bucket: this.opts.bucket,
      Key: key,
      ...(opts?.downloadName && { ResponseContentDisposition: contentDisposition(opts.downloadName) }),
    });
    return getSignedUrl(this.client, command, { expiresIn });
  }

  keyFromOwnUrl(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const key = this.keyFromLocation(parsed);
    if (key === null) return null;
    return verifyPresignedGet(parsed, (id) => this.secrets.get(id)).ok ? key : null;
  }

  /** The object key if the URL points into our bucket, path-style or virtual-hosted. */
  private keyFromLocation(url: URL): string | null {
    const { bucket, endpoint, region } = this.opts;
    const base = endpoint ? new URL(endpoint) : new URL(`https://s3.${region}.amazonaws.com`);
    const hosts = endpoint ? [base.host] : [base.host, "s3.amazonaws.com"];
    const prefix = base.pathname.replace(/\/$/, "");
    if (url.protocol !== base.protocol) return null;
    let rest: string | null = null;
    // The SDK falls back to path-style by itself for bucket names that are not DNS-safe, so accept both.
    if (hosts.includes(url.host) && url.pathname.startsWith(`${prefix}/${bucket}/`)) {
      rest = url.pathname.slice(`${prefix}/${bucket}/`.length);
    } else if (hosts.some((h) => url.host === `${bucket}.${h}`) && url.pathname.startsWith(`${prefix}/`)) {
      rest = url.pathname.slice(prefix.length + 1);
    }
    if (rest === null) return null;
    try {
      const key = rest.split("/").map(decodeURIComponent).join("/");
      return isValidKey(key) ? key : null;
    } catch {
      return null;
    }
  }

  private remember(creds: { accessKeyId: string; secretAccessKey: string }): void {
    this.secrets.delete(creds.accessKeyId); // re-insert as newest
    this.secrets.set(creds.accessKeyId, creds.secretAccessKey);
    while (this.secrets.size > REMEMBERED_CREDENTIALS) {
      this.secrets.delete(this.secrets.keys().next().value!);
    }
  }
}
