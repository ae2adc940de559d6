import { z } from "zod";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { requestOrigin } from "@/lib/foundation/http/request-context";
import { countNoun } from "@/lib/foundation/count-noun";
import { decimalInt } from "./decimal-int";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * `limit` 1..100 (default 20) and `page` from 1. Out-of-range values are a 400
 * naming the parameter, never silently clamped: a client asking for 500 learns
 * the maximum instead of quietly receiving 100.
 */
export const pageQuery = z.strictObject({
  limit: decimalInt(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  page: decimalInt(1).default(1),
});
export type PageQuery = z.output<typeof pageQuery>;

export function pageWindow(q: PageQuery) {
  return { limit: q.limit, offset: (q.page - 1) * q.limit };
}

/** The contract's list envelope (2.10): data, links.first/last/prev/next, meta.path/per_page, message. */
export function paginatedBody<T>(req: Request, q: PageQuery, items: T[], total: number, noun = "records") {
  const url = new URL(req.url);
  const lastPage = Math.max(1, Math.ceil(total / q.limit));
  // APP_URL when set: behind a proxy the request origin is an internal address.
  const path = `${appOrigin(requestOrigin(req))}${url.pathname}`;
  const link = (page: number) => {
    const u = new URL(path);
    for (const [k, v] of url.searchParams) if (k !== "page") u.searchParams.set(k, v);
    u.searchParams.set("limit", String(q.limit));
    u.searchParams.set("page", String(page));
    return u.toString();
  };
  return {
    data: items,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: q.page > 1 ? link(Math.min(q.page - 1, lastPage)) : null,
      next: q.page < lastPage ? link(q.page + 1) : null,
    },
    meta: { path, per_page: q.limit, current_page: q.page, last_page: lastPage, total },
    message: `Retrieved ${items.length} of ${countNoun(total, noun)}.`,
  };
}

/** The response shape of paginatedBody, for the API description (lib/http/openapi). */
export function paginatedResponse<T extends z.ZodType>(item: T) {
  const link = z.string().nullable();
  return z.object({
    data: z.array(item),
    links: z.object({ first: z.string(), last: z.string(), prev: link, next: link }),
    meta: z.object({ path: z.string(), per_page: z.number().int(), current_page: z.number().int(), last_page: z.number().int(), total: z.number().int() }),
    message: z.string(),
  });
}
