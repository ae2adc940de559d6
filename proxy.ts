import { NextResponse, type NextRequest } from "next/server";
import { REQUESTED_PATH_HEADER } from "@/lib/services/sign-in/return-path";

/**
 * Hands a page the path it was asked for: a layout is not told its URL, and the
 * studio layout's redirect to sign-in carries it so signing in returns there.
 * Set here (never taken from the client: any incoming value is replaced).
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

// Pages only: not the API, the auth endpoints, Next's own files or anything with an extension.
export const config = { matcher: ["/((?!v1/|api/|_next/|.*\\.[a-z0-9]+$).*)"] };
