import type { z } from "zod";
import type { Schemas } from "./parse-input";
import type { Role } from "@/lib/domain/identity/roles";

/** Who may call a route, as the API description names it (lib/http/openapi). */
export type AuthKind = "account" | "public" | "operator" | "core" | "core-public" | "parent";

/**
 * What a route says about itself for the OpenAPI document (GET /v1/openapi.json),
 * beyond the schemas it parses with. Everything is optional: a route without a
 * `doc` is still described from its schemas and wrapper.
 */
export type RouteDoc = {
  summary?: string;
  description?: string;
  /** The success status (default 200). */
  status?: number;
  /**
   * The success body's shape. Described in the document, and every real response
   * the API tests produce is checked against it (test/http.ts).
   */
  response?: z.ZodType;
  /** Other success answers (a request answered at once with 200, or accepted as a job with 202). */
  alsoAnswers?: { status: number; response: z.ZodType; description: string }[];
  /** A body the handler reads itself (multipart upload, CSV): its media type and, optionally, its shape. */
  rawBody?: { contentType: string; schema?: z.ZodType; description?: string };
  /** A success body that is not JSON (a PDF): its media type. */
  produces?: string;
  /** Debits the wallet: the document lists the 402 INSUFFICIENT_TOKENS answer. */
  billed?: boolean;
  /** Example request body and success body for the reference page. */
  examples?: { request?: unknown; response?: unknown };
};

/**
 * What a route declares to its wrapper: the zod schemas it parses with,
 * `idempotent: false` to opt a POST out of Idempotency-Key handling (on by
 * default for every POST of an authenticated caller), and its `doc`.
 */
export type RouteSpec = Schemas & {
  idempotent?: boolean;
  doc?: RouteDoc;
  /**
   * The least role a studio member needs (lib/domain/identity/roles.ts): by default `viewer`
   * for GET and `photographer` for changes. Below it: 403 FORBIDDEN_ROLE.
   */
  role?: Role;
  /**
   * Reachable by an owner or admin whom the studio's two-factor requirement shuts
   * out (lib/services/sign-in/two-factor-policy.ts): the routes they need to turn it on.
   */
  allowWithoutTwoFactor?: boolean;
};

export type RouteMeta = { spec: RouteSpec; auth: AuthKind };

const META = Symbol.for("print-studio.route-meta");
const NOT_ALLOWED = Symbol.for("print-studio.method-not-allowed");

type Tagged = { [META]?: RouteMeta; [NOT_ALLOWED]?: true };

/** Every wrapped handler carries what it was declared with; the OpenAPI document is built from that. */
export function withRouteMeta<H extends object>(handler: H, meta: RouteMeta): H {
  (handler as Tagged)[META] = meta;
  return handler;
}

export function routeMeta(handler: unknown): RouteMeta | undefined {
  return handler ? (handler as Tagged)[META] : undefined;
}

/** methods() marks the 405 handlers it fills in, so the description can tell them from undeclared handlers. */
export function markNotAllowed<H extends object>(handler: H): H {
  (handler as Tagged)[NOT_ALLOWED] = true;
  return handler;
}

export function isNotAllowed(handler: unknown): boolean {
  return !!handler && (handler as Tagged)[NOT_ALLOWED] === true;
}
