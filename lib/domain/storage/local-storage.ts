import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { config } from "@/lib/foundation/config";
import { signFileUrl, verifyFileUrl } from "./sign-url";
import { assertOwnerSegment, assertValidKey, META_SUFFIX, STORAGE_AREAS, type ObjectStorage } from "./types";

const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/**
 * Files under <dataDir>/files/<key>, content type in a <key>.meta.json sidecar.
 * Served through app/files/[...key]/route.ts with HMAC-signed, expiring URLs.
 */
export class LocalStorage implements ObjectStorage {
  readonly driver = "local" as const;
  readonly root: string;

  constructor(root: string = path.join(config().dataDir, "files")) {
    this.root = path.resolve(/*turbopackIgnore: true*/ root);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.pathFor(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Body first, then its sidecar: a reader racing an overwrite may briefly see the
    // new bytes with the old type, but never a half-written file.
    await writeAtomic(file, body);
    await writeAtomic(file + META_SUFFIX, JSON.stringify({ contentType }));
  }

  async get(key: string): Promise<{ body: Buffer; contentType: string } | null> {
    const file = this.pathFor(key);
    let body: Buffer;
    try {
      body = await fs.readFile(file);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    return { body, contentType: await readContentType(file + META_SUFFIX) };
  }

  async delete(key: string): Promise<void> {
    const file = this.pathFor(key);
    // Body first, so a concurrent get sees "missing" rather than bytes without a type.
    await fs.rm(file, { force: true });
    await fs.rm(file + META_SUFFIX, { force: true });
  }

  async deleteOwnerFiles(owner: string): Promise<number> {
    assertOwnerSegment(owner);
    let removed = 0;
    for (const area of STORAGE_AREAS) {
      const folder = path.join(this.root, area, owner);
      removed += await countObjects(folder);
      await fs.rm(folder, { recursive: true, force: true });
    }
    return removed;
  }

  async signedUrl(key: string, ttlSeconds: number, opts?: { downloadName?: string }): Promise<string> {
    assertValidKey(key);
    return signFileUrl(key, ttlSeconds, opts?.downloadName);
  }

  keyFromOwnUrl(url: string): string | null {
    const check = verifyFileUrl(url);
    return check?.ok ? check.key : null;
  }

  /** The key rules already forbid traversal; the prefix check is a second lock on the door. */
  private pathFor(key: string): string {
    assertValidKey(key);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    return file;
  }
}

/** Objects (not their content-type sidecars) in a folder and below; 0 when it does not exist. */
async function countObjects(folder: string): Promise<number> {
  try {
    const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile() && !e.name.endsWith(META_SUFFIX)).length;
  } catch (err) {
    if (isMissing(err)) return 0;
    throw err;
  }
}

/** Temp file in the same folder + rename: readers see the old file or the new one, never a partial one. */
async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
  const tmp = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  try {
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

async function readContentType(metaFile: string): Promise<string> {
  try {
    const meta = JSON.parse(await fs.readFile(metaFile, "utf8")) as { contentType?: unknown };
    return typeof meta.contentType === "string" && meta.contentType ? meta.contentType : DEFAULT_CONTENT_TYPE;
  } catch {
    // A missing or damaged sidecar should not make the bytes unreadable.
    return DEFAULT_CONTENT_TYPE;
  }
}

/** ENOENT, or a path through/at a folder ("a" when only "a/b" exists): the object is not there. */
function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}
