/** Where uploads and generated outputs live: a local folder or an S3-compatible bucket. */
export interface ObjectStorage {
  driver: "local" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** null when the object does not exist. */
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  /** Idempotent: deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every object of one account: keys are `<area>/<account id>/...` (STORAGE_AREAS),
   * so this removes `<area>/<owner>/` in each. Used when a studio is deleted.
   * Answers how many objects went.
   */
  deleteOwnerFiles(owner: string): Promise<number>;
  /** A URL anyone holding it can GET until it expires; downloadName makes it an attachment. */
  signedUrl(key: string, ttlSeconds: number, opts?: { downloadName?: string }): Promise<string>;
  /**
   * If `url` is a still-valid URL this app signed (signature and expiry checked), its key,
   * so callers read the object straight from storage instead of fetching it over HTTP.
   * Otherwise null (the caller then treats it as any foreign URL).
   */
  keyFromOwnUrl(url: string): string | null;
}

/** Keys are app-generated paths like "uploads/acc_1/img_2.png"; one rule for both drivers. */
const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Suffix of the local driver's content-type sidecar files; reserved so a key can never overwrite one. */
export const META_SUFFIX = ".meta.json";

export function isValidKey(key: string): boolean {
  if (key.length === 0 || key.length > 1024 || !KEY_PATTERN.test(key)) return false;
  // The pattern already forbids a leading slash and empty segments; "." and ".." would
  // still let a key climb out of the storage folder (or alias another key).
  return key.split("/").every((s) => s !== "." && s !== ".." && !s.endsWith(META_SUFFIX));
}

/**
 * The top folders of every key the app writes (`<area>/<account id>/...`). A new
 * area must be listed here, or a deleted studio's files in it stay behind (the
 * cross-account sweep deletes a studio that used every service and checks).
 */
export const STORAGE_AREAS = ["uploads", "bg-remove", "face-crop", "preflight", "ai-fix", "studio", "qr", "galleries", "production"] as const;

/** An account id as one key segment: no slash, no dots, nothing the key rules refuse. */
export function assertOwnerSegment(owner: string): void {
  if (!isValidKey(owner) || owner.includes("/") || owner.startsWith(".")) throw new Error(`Invalid owner segment: ${JSON.stringify(owner)}`);
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/** Seconds must be a positive whole number; fractions are rounded down. */
export function normaliseTtl(ttlSeconds: number): number {
  const ttl = Math.floor(ttlSeconds);
  if (!Number.isFinite(ttl) || ttl < 1) throw new RangeError(`ttlSeconds must be >= 1, got ${ttlSeconds}`);
  return ttl;
}
