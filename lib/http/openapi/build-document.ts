import type { z } from "zod";
import { isNotAllowed, routeMeta, type AuthKind, type RouteMeta } from "@/lib/http/route-meta";
import { errorEnvelope, insufficientTokensBody, rateLimitedBody } from "./common-schemas";
import { jsonSchemaOf, type JsonSchema } from "./json-schema";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A /v1 route file: its URL template (`/v1/services/bg-remove/{jobId}`) and its exports. */
export type DescribedRoute = { path: string; module: Partial<Record<string, unknown>> };

/** `app/v1/services/bg-remove/[jobId]/route.ts` -> `/v1/services/bg-remove/{jobId}`. */
export function routePathOf(file: string): string {
  const dir = file.replace(/\\/g, "/").replace(/^(\.\/)?app/, "").replace(/\/route\.tsx?$/, "");
  return dir.replace(/\[([^\]]+)\]/g, "{$1}");
}

const SECURITY: Record<AuthKind, Array<Record<string, string[]>>> = {
  account: [{ bearerAuth: [] }, { sessionCookie: [] }],
  core: [{ basicAuth: [] }, { bearerAuth: [] }, { sessionCookie: [] }],
  "core-public": [{ basicAuth: [] }, { bearerAuth: [] }, { unauthToken: [] }, { sessionCookie: [] }],
  operator: [{ operatorToken: [] }],
  public: [],
  parent: [{ galleryToken: [] }],
};

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The OpenAPI 3.1 document of the given routes, built from what each handler was declared with. */
export function buildOpenApiDocument(routes: DescribedRoute[], opts: { serverUrl?: string; version?: string } = {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const item: Record<string, unknown> = {};
    for (const method of HTTP_METHODS) {
      const meta = routeMeta(route.module[method]);
      if (meta) item[method.toLowerCase()] = operation(route.path, method, meta);
    }
    if (Object.keys(item).length > 0) paths[route.path] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Print Studio API",
      version: opts.version ?? "1",
      description:
        "The /v1 REST API of the print and photo studio, billed per token. Generated from the schemas the server checks every request with. " +
        "Every POST of an authenticated caller honours an `Idempotency-Key` header: a retry with the same key and body replays the first answer and charges nothing more.",
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    // Every section in path order, the operator section last with its warning.
    tags: sectionsOf(paths),
    paths,
    components: {
      schemas: {
        Error: jsonSchemaOf(errorEnvelope, "output"),
        InsufficientTokens: jsonSchemaOf(insufficientTokensBody, "output"),
        RateLimited: jsonSchemaOf(rateLimitedBody, "output"),
      },
      responses: {
        Error: { description: "Error envelope.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        BadRequest: { description: "Invalid input: `details.fields` names every failing field.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        Unauthorized: { description: "Missing or invalid credentials.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        NotFound: { description: "No such resource in this account.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        Conflict: {
          description:
            "Conflict. For an Idempotency-Key: IDEMPOTENCY_KEY_REUSED (the key was used with another request), IDEMPOTENCY_REQUEST_IN_PROGRESS (the first request is still running after the wait; Retry-After), IDEMPOTENT_REQUEST_INTERRUPTED (the first request was charged and stopped before answering).",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        InsufficientTokens: { description: "Payment required, nothing was charged: INSUFFICIENT_TOKENS (the wallet is short; body below), or PREMIUM_REQUIRED where a feature needs the Premium plan.", content: { "application/json": { schema: { $ref: "#/components/schemas/InsufficientTokens" } } } },
        RateLimited: {
          description: "Too many requests this minute.",
          headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." } },
          content: { "application/json": { schema: { $ref: "#/components/schemas/RateLimited" } } },
        },
        ServerError: { description: "Something failed on our side; quote the request id.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "1 to 255 printable ASCII characters, unique per operation (a UUID). The same key with the same request within 24 hours replays the first answer (Idempotent-Replayed: true) and charges nothing more.",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      },
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An access token (POST /v1/auth/token) or an API key (POST /v1/api-keys)." },
        basicAuth: { type: "http", scheme: "basic", description: "Core API (products, projects): the account's email and password." },
        unauthToken: { type: "apiKey", in: "header", name: "X-Service-Unauth-Token", description: "Core API public reads only (GET /v1/products...), from any web origin." },
        sessionCookie: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "The studio's own session (same-origin writes only)." },
        operatorToken: { type: "http", scheme: "bearer", description: "OPERATOR_TOKEN: operator endpoints, only when the server sets it." },
        galleryToken: { type: "http", scheme: "bearer", description: "A parent's gallery token (POST /v1/parent/access with the child's access code): /v1/parent routes only." },
      },
    },
  };
}

function operation(path: string, method: HttpMethod, meta: RouteMeta) {
  const { spec, auth } = meta;
  const doc = spec.doc ?? {};
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const parameters: unknown[] = [];
  const paramProps = objectProperties(spec.params);
  for (const name of pathNames) parameters.push({ name, in: "path", required: true, schema: paramProps.properties[name] ?? { type: "string" } });
  const query = objectProperties(spec.query);
  for (const [name, schema] of Object.entries(query.properties)) {
    parameters.push({ name, in: "query", required: query.required.includes(name), schema, ...(typeof schema.description === "string" ? { description: schema.description } : {}) });
  }
  const idempotent = method === "POST" && spec.idempotent !== false && auth !== "public";
  if (idempotent) parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });

  const status = String(doc.status ?? 200);
  const success: Record<string, unknown> = { description: doc.description ?? "Success." };
  if (doc.produces) success.content = { [doc.produces]: { schema: { type: "string", contentEncoding: "binary" } } };
  else if (status !== "204") {
    success.content = {
      "application/json": {
        schema: doc.response ? jsonSchemaOf(doc.response, "output") : { type: "object", description: "Not described yet." },
        ...(doc.examples?.response !== undefined ? { example: doc.examples.response } : {}),
      },
    };
  }
  const responses: Record<string, unknown> = { [status]: success };
  for (const alt of doc.alsoAnswers ?? []) responses[String(alt.status)] = { description: alt.description, content: { "application/json": { schema: jsonSchemaOf(alt.response, "output") } } };
  if (spec.body || spec.query || spec.params || doc.rawBody || idempotent) responses["400"] = ref("BadRequest");
  if (auth !== "public") responses["401"] = ref("Unauthorized");
  if (doc.billed) responses["402"] = ref("InsufficientTokens");
  if (pathNames.length > 0) responses["404"] = ref("NotFound");
  if (idempotent) responses["409"] = ref("Conflict");
  responses["429"] = ref("RateLimited");
  responses["500"] = ref("ServerError");

  let requestBody: unknown;
  if (spec.body) {
    requestBody = {
      required: method !== "DELETE",
      content: { "application/json": { schema: jsonSchemaOf(spec.body, "input"), ...(doc.examples?.request !== undefined ? { example: doc.examples.request } : {}) } },
    };
  } else if (doc.rawBody) {
    requestBody = {
      required: true,
      ...(doc.rawBody.description ? { description: doc.rawBody.description } : {}),
      content: { [doc.rawBody.contentType]: { schema: doc.rawBody.schema ? jsonSchemaOf(doc.rawBody.schema, "input") : { type: "string" } } },
    };
  }

  return {
    operationId: operationId(method, path),
    summary: doc.summary ?? `${method} ${path}`,
    tags: [tagOf(path)],
    ...(SECURITY[auth].length ? { security: SECURITY[auth] } : { security: [] }),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

function objectProperties(schema: z.ZodType | undefined): { properties: Record<string, JsonSchema>; required: string[] } {
  if (!schema) return { properties: {}, required: [] };
  const json = jsonSchemaOf(schema, "input");
  return { properties: (json.properties as Record<string, JsonSchema>) ?? {}, required: (json.required as string[]) ?? [] };
}

/** The section operator routes are listed under, apart from the customer API (see OPERATOR_TAG_DESCRIPTION). */
export const OPERATOR_TAG = "Operator only";
const OPERATOR_TAG_DESCRIPTION =
  "**Operator only: not part of the customer API.** These routes need the server's `OPERATOR_TOKEN` (answer 404 when the server has none) and are for whoever runs this server: granting tokens, setting an account's plan.";

function sectionsOf(paths: Record<string, Record<string, unknown>>): { name: string; description?: string }[] {
  const names = new Set<string>();
  for (const item of Object.values(paths)) for (const op of Object.values(item)) for (const t of (op as { tags?: string[] }).tags ?? []) names.add(t);
  names.delete(OPERATOR_TAG);
  return [...[...names].map((name) => ({ name })), { name: OPERATOR_TAG, description: OPERATOR_TAG_DESCRIPTION }];
}

function tagOf(path: string): string {
  const parts = path.split("/").filter((p) => p && p !== "v1" && !p.startsWith("{"));
  if (parts[0] === "operator") return OPERATOR_TAG;
  if (parts[0] === "services") return parts.slice(1, parts[1] === "studio" || parts[1] === "preflight" ? 3 : 2).join(" ");
  return parts[0] ?? "root";
}

function operationId(method: string, path: string): string {
  const words = path
    .split("/")
    .filter((p) => p && p !== "v1")
    .map((p) => (p.startsWith("{") ? `by-${p.slice(1, -1)}` : p))
    .join("-")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join("");
}

/** The handlers of a route module that are neither described nor methods() 405s: routes the document cannot describe. */
export function undescribedMethods(module: Partial<Record<string, unknown>>): HttpMethod[] {
  return HTTP_METHODS.filter((m) => module[m] !== undefined && !routeMeta(module[m]) && !isNotAllowed(module[m]));
}
