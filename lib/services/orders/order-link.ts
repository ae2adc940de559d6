import crypto from "node:crypto";
import { derivedKey } from "@/lib/foundation/secret";
import { appOrigin } from "@/lib/foundation/http/app-origin";

// The parent's order status page is reached by a signed link (no account): the
// order id and an HMAC of it. It does not expire, like a paper receipt; it shows
// that order only, and never a photo's original.

const sign = (orderId: string) => crypto.createHmac("sha256", derivedKey("order-status")).update(orderId).digest("base64url").slice(0, 32);

export function orderToken(orderId: string): string {
  return `${orderId}.${sign(orderId)}`;
}

/** The order id a token names, or null when the signature does not match. */
export function orderIdFromToken(token: string): string | null {
  const [id, sig] = token.split(".");
  if (!id || !sig) return null;
  const want = Buffer.from(sign(id));
  const got = Buffer.from(sig);
  return want.length === got.length && crypto.timingSafeEqual(want, got) ? id : null;
}

export const orderStatusUrl = (orderId: string) => `${appOrigin()}/o/${orderToken(orderId)}`;
