/**
 * Minimum effective resolution per product, from how close people look at it.
 *
 * Rule: a printed pixel may subtend at most 2 arcminutes at the product's
 * closest typical viewing distance d (inches): minPpi ≈ 1 / (d · tan(2′)) ≈ 1719 / d,
 * rounded to a round figure. 2′ is half of normal visual acuity (1′): at that
 * size pixels are not seen as pixels but fine detail softens, which is the
 * point below which a print looks unsharp to most people. docs/api.md
 * ("Preflight") carries the same table with its reasoning for customers.
 */
export const PRODUCT_TYPES = ["photo_on_canvas", "poster", "wallpaper", "framed_print", "wrapping_paper", "stock_canvas"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const PRODUCT_RESOLUTION: Record<ProductType, { minPpi: number; viewingDistanceIn: number; why: string }> = {
  // Framed prints are inspected up close behind glass: 12 in gives 143, rounded up to 150.
  framed_print: { minPpi: 150, viewingDistanceIn: 12, why: "inspected up close behind glass (about 30 cm)" },
  // Canvas weave hides fine detail and canvases hang on walls, seen from 18 in or more: 95 -> 100.
  photo_on_canvas: { minPpi: 100, viewingDistanceIn: 18, why: "wall art on textured canvas, seen from about 45 cm or more" },
  // Stock canvas is the same material and viewing situation as a photo canvas.
  stock_canvas: { minPpi: 100, viewingDistanceIn: 18, why: "same material and viewing distance as photo canvas" },
  // Gift wrap is handled at arm's length, about 16 in: 107 -> 100.
  wrapping_paper: { minPpi: 100, viewingDistanceIn: 16, why: "handled at arm's length (about 40 cm)" },
  // Posters are read from about 24 in: 72 -> 75.
  poster: { minPpi: 75, viewingDistanceIn: 24, why: "read from about 60 cm" },
  // Wallpaper covers a wall seen from across a room, 36 in or more: 48 -> 50.
  wallpaper: { minPpi: 50, viewingDistanceIn: 36, why: "covers a wall seen from about 1 m or more" },
};

/** The resolution a full check requires when the caller names neither requiredDpi nor productType. */
export const DEFAULT_REQUIRED_DPI = 300;

export function minPpiFor(productType: ProductType): number {
  return PRODUCT_RESOLUTION[productType].minPpi;
}
