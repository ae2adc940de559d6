// The /v1 route files as the sweeps see them: read from app/v1, so a new route
// is swept without anyone adding it to a list.
import fs from "node:fs";
import path from "node:path";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
export type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;
export type RouteModule = Partial<Record<Method | "OPTIONS", Handler>>;

export const APP_V1 = path.resolve("app/v1");

/** Every route.ts under app/v1, as absolute paths. */
export function routeFiles(dir = APP_V1): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

/** `app/v1/services/studio/agencies/[agencyId]/jobs/route.ts` -> `services/studio/agencies/[agencyId]/jobs`. */
export function routePath(file: string): string {
  return path.relative(APP_V1, path.dirname(file)).split(path.sep).filter(Boolean).join("/");
}

/** The names of a route's dynamic segments, in path order (`[[...path]]` gives `path`). */
export function dynamicSegments(file: string): string[] {
  return routePath(file)
    .split("/")
    .flatMap((s) => {
      const m = /^\[\[?(?:\.\.\.)?(\w+)\]?\]$/.exec(s);
      return m ? [m[1]!] : [];
    });
}

/**
 * The route's URL and params with a value in every dynamic segment: `value` itself
 * (a catch-all gets `["no-such-thing"]`), or what `value(name, catchAll)` gives.
 */
export function instantiate(file: string, value: string | ((segment: string, catchAll: boolean) => string | string[])) {
  const params: Record<string, string | string[]> = {};
  const parts = routePath(file)
    .split("/")
    .filter(Boolean)
    .map((s) => {
      const catchAll = /^\[\[?\.\.\.(\w+)\]?\]$/.exec(s);
      if (catchAll) {
        const v = typeof value === "string" ? ["no-such-thing"] : value(catchAll[1]!, true);
        const list = Array.isArray(v) ? v : [v];
        params[catchAll[1]!] = list;
        return list.map(encodeURIComponent).join("/");
      }
      const dyn = /^\[(\w+)\]$/.exec(s);
      if (dyn) {
        const v = typeof value === "string" ? value : value(dyn[1]!, false);
        const one = Array.isArray(v) ? v.join("/") : v;
        params[dyn[1]!] = one;
        return encodeURIComponent(one);
      }
      return s;
    });
  return { url: `/v1/${parts.join("/")}`, params };
}
