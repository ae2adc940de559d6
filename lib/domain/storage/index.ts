import { config } from "@/lib/foundation/config";
import { LocalStorage } from "./local-storage";
import { S3Storage, s3OptionsFromConfig } from "./s3-storage";
import type { ObjectStorage } from "./types";

export type { ObjectStorage } from "./types";
export { isValidKey } from "./types";

/** How long the URL of a generated output stays valid once handed out. */
export const OUTPUT_URL_TTL_SECONDS = 24 * 3600;

let instance: ObjectStorage | undefined;

/** The process-wide storage: S3 when S3_BUCKET is set, else files under DATA_DIR. */
export function storage(): ObjectStorage {
  instance ??= config().S3_BUCKET ? new S3Storage(s3OptionsFromConfig()) : new LocalStorage();
  return instance;
}

/** For tests that change env (then resetConfig()) and want the driver chosen again. */
export function resetStorage(): void {
  instance = undefined;
}
