import crypto from "node:crypto";
import { contentDisposition } from "./content-disposition";
import { storage } from "./index";
import { verifyFileSignature } from "./sign-url";

/**
 * Serves GET/HEAD /files/<key>?expires=&sig=[&name=] for the local driver.
 * The signature is the only authorisation: no session is consulted.
 */
export async function serveSignedFile(request: Request, keySegments: string[]): Promise<Response> {
  const key = keySegments.join("/");
  const check = verifyFileSignature(key, new URL(request.url).searchParams);
  if (!check.ok) {
    return check.reason === "expired"
      ? errorResponse(403, "URL_EXPIRED", "This file URL has expired; request a new one.")
      : errorResponse(403, "URL_SIGNATURE_INVALID", "This file URL is not valid (bad or tampered signature).");
  }
  const object = await storage().get(key);
  if (!object) return errorResponse(404, "NOT_FOUND", "File not found.");

  const remaining = Math.max(0, check.expires - Math.floor(Date.now() / 1000));
  const headers = new Headers({
    "Content-Type": object.contentType,
    "Content-Length": String(object.body.byteLength),
    // private: the URL is a bearer credential, so shared caches must not keep the bytes
    // past its expiry or serve them to someone else.
    "Cache-Control": `private, max-age=${remaining}`,
    "Content-Disposition": contentDisposition(check.downloadName),
    "X-Content-Type-Options": "nosniff",
    // Uploads are user-controlled: an SVG or HTML file must never run script on our origin.
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  const { buffer, byteOffset, byteLength } = object.body;
  // A view, not a copy: outputs can be large. Buffers from fs/SDK never sit on a SharedArrayBuffer.
  return new Response(new Uint8Array(buffer as ArrayBuffer, byteOffset, byteLength), { status: 200, headers });
}

function errorResponse(status: number, code: string, message: string): Response {
  const requestId = `req_${crypto.randomBytes(12).toString("hex")}`;
  return Response.json(
    { error: code, message, request_id: requestId },
    { status, headers: { "X-Request-Id": requestId, "Cache-Control": "no-store" } },
  );
}
