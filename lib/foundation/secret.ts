import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "./config";

let cached: string | undefined;

/**
 * The server secret that signs sessions, access tokens and file URLs.
 * AUTH_SECRET wins; otherwise one is generated on first use and kept in the data
 * folder, so the embedded default needs no configuration and survives restarts.
 * Several instances behind a load balancer must share AUTH_SECRET.
 */
export function serverSecret(): string {
  if (cached) return cached;
  const fromEnv = config().AUTH_SECRET ?? process.env.NEXTAUTH_SECRET;
  if (fromEnv) return (cached = fromEnv);
  const file = path.join(config().dataDir, "auth-secret");
  try {
    cached = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(config().dataDir, { recursive: true });
    const fresh = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, fresh, { flag: "wx", mode: 0o600 });
      cached = fresh;
    } catch {
      // Another process won the race: use its secret.
      cached = fs.readFileSync(file, "utf8").trim();
    }
  }
  return cached;
}

/** A sub-key per purpose, so a file-URL signature can never be replayed as a JWT signature. */
export function derivedKey(purpose: string): Buffer {
  return crypto.createHmac("sha256", serverSecret()).update(`print-studio:${purpose}`).digest();
}
