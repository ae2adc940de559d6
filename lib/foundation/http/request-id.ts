import crypto from "node:crypto";

// Accept a caller's id only when it is short and plain, so it is safe to echo
// into headers and logs; anything else gets a fresh id.
const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && VALID.test(incoming) ? incoming : `req_${crypto.randomBytes(12).toString("hex")}`;
}
