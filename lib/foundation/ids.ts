import crypto from "node:crypto";

/** Public ids are prefixed so a reader can tell what an id names (acc_, wtx_, key_ ...). */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
}
