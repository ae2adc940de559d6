import type { DescribedRoute } from "./build-document";

export type RouteModuleLoader = { path: string; load: () => Promise<Partial<Record<string, unknown>>> };

/** Imports every route module of the manifest (app/v1/openapi.json/routes.ts). */
export async function loadRoutes(loaders: RouteModuleLoader[]): Promise<DescribedRoute[]> {
  return Promise.all(loaders.map(async (l) => ({ path: l.path, module: await l.load() })));
}
