// Enumerations of the core resources, shared by the API schemas and the studio
// pages (no server imports here, so client components can use them too).

// The preflight product types (contract 4.2), so a product can drive a DPI score
// or a check, and their minimum resolutions: preflight owns both.
export { PRODUCT_TYPES, minPpiFor, type ProductType } from "@/lib/services/preflight/product-types";

export const COLOR_MODES = ["rgb", "cmyk", "grayscale"] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

export const PRODUCT_STATUSES = ["active", "archived"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** List sorts: every one has an index per filter, and `id` breaks ties. */
export const SORT_KEYS = ["created_at", "updated_at", "name"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
