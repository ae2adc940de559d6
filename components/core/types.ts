import type { ApiResponse } from "@/lib/client/typed-api";

/** The core API's shapes as the studio pages read them, derived from the /v1 routes that return them. */
export type Product = ApiResponse<"/v1/products/{id}", "get">;
export type Project = ApiResponse<"/v1/projects/{id}", "get">;

export const productsQueryKey = ["core", "products"] as const;
export const projectsQueryKey = ["core", "projects"] as const;
