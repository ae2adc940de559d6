import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const cache = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

/**
 * A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), through
 * zod 4's own z.toJSONSchema. `input` for what a client sends (defaults are
 * optional, coercions accept strings), `output` for what we answer.
 * Transforms and refinements JSON Schema cannot say are left open ({}).
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const hit = cache[io].get(schema);
  if (hit) return hit;
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete out.$schema;
  cache[io].set(schema, out);
  return out;
}
