import type { z } from "zod";
import { config } from "@/lib/foundation/config";
import { ApiError } from "../foundation/http/api-error";
import { readJsonBody } from "../foundation/http/read-json-body";
import { validationError } from "../foundation/http/validation-error";

export type Schemas = { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType };
type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
export type ParsedInput<S extends Schemas> = { params: Out<S["params"]>; query: Out<S["query"]>; body: Out<S["body"]> };

export type RouteContext = { params?: Promise<Record<string, string | string[] | undefined>> };

function parseWith<T extends z.ZodType>(schema: T, value: unknown, where: "body" | "query" | "params"): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** Params, query string and JSON body, each parsed with the endpoint's zod schema. */
export async function parseInput<S extends Schemas>(req: Request, ctx: RouteContext | undefined, schemas: S): Promise<ParsedInput<S>> {
  const rawParams = (await ctx?.params) ?? {};
  const params = schemas.params ? parseWith(schemas.params, rawParams, "params") : undefined;
  const url = new URL(req.url);
  const rawQuery: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in rawQuery) throw new ApiError(400, "VALIDATION_ERROR", `Query parameter ${k} was given more than once.`, { in: "query", fields: [{ field: k, message: "Repeated parameter." }] });
    rawQuery[k] = v;
  }
  const query = schemas.query ? parseWith(schemas.query, rawQuery, "query") : undefined;
  let body: unknown;
  if (schemas.body) {
    const json = await readJsonBody(req, config().MAX_JSON_BYTES);
    // Only an absent body counts as `{}`; a JSON `null` is a body of the wrong type.
    body = parseWith(schemas.body, json === undefined ? {} : json, "body");
  }
  return { params, query, body } as ParsedInput<S>;
}
