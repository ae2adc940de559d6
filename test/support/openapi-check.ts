// Checks real responses of the API tests against what GET /v1/openapi.json says
// about them (the same JSON Schemas, from lib/http/openapi), with ajv. Called by
// call() in test/http.ts for every response of a described route.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import addFormatsModule from "ajv-formats";
import type { z } from "zod";
import { routeMeta } from "@/lib/http/route-meta";
import { errorEnvelope, insufficientTokensBody, rateLimitedBody } from "@/lib/http/openapi/common-schemas";
import { jsonSchemaOf } from "@/lib/http/openapi/json-schema";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const compiled = new WeakMap<z.ZodType, ValidateFunction>();

function validator(schema: z.ZodType): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile(jsonSchemaOf(schema, "output"))));
  return v;
}

/** Counts, for the contract test's report: responses checked against a declared success schema. */
export const checked = { success: 0, errors: 0 };

/**
 * Undefined when the response matches its description (or the route declares no
 * shape for it); otherwise what is wrong, for the failing test to show.
 */
export function responseMismatch(handler: unknown, method: string, path: string, status: number, json: unknown, contentType: string | null): string | undefined {
  const meta = routeMeta(handler);
  if (!meta) return undefined;
  const label = `${method} ${path} -> ${status}`;
  if (status >= 400) {
    if (!contentType?.startsWith("application/json")) return `${label}: an error answered with ${contentType ?? "no content type"}, not the JSON error envelope`;
    const body = json as { error?: string } | undefined;
    const schema = status === 429 ? rateLimitedBody : body?.error === "INSUFFICIENT_TOKENS" ? insufficientTokensBody : errorEnvelope;
    checked.errors++;
    return problems(validator(schema), json, label);
  }
  const doc = meta.spec.doc;
  if (!doc?.response) return undefined;
  const expected = doc.status ?? 200;
  const alt = doc.alsoAnswers?.find((a) => a.status === status);
  if (status !== expected && !alt) return `${label}: the description says ${[expected, ...(doc.alsoAnswers ?? []).map((a) => a.status)].join(" or ")}`;
  checked.success++;
  return problems(validator(alt ? alt.response : doc.response), json, label);
}

function problems(v: ValidateFunction, json: unknown, label: string): string | undefined {
  if (v(json)) return undefined;
  return `${label} does not match its OpenAPI description: ${ajv.errorsText(v.errors, { separator: "; " })}\nbody: ${JSON.stringify(json).slice(0, 600)}`;
}
