import { minPpiFor, type ProductType } from "./product-types";

/**
 * Stars by effectivePpi / minPpi. The bands only ever go up with the ratio
 * (monotonic), and 4 stars starts exactly where the product's minimum is met.
 */
export const STAR_BANDS = [
  { stars: 5, fromRatio: 1.5, label: "Excellent" },
  { stars: 4, fromRatio: 1.0, label: "Good" },
  { stars: 3, fromRatio: 0.75, label: "Fair" },
  { stars: 2, fromRatio: 0.5, label: "Low" },
  { stars: 1, fromRatio: 0, label: "Poor" },
] as const;

export function starsFor(ratio: number): { stars: number; label: string } {
  const band = STAR_BANDS.find((b) => ratio >= b.fromRatio) ?? STAR_BANDS[STAR_BANDS.length - 1]!;
  return { stars: band.stars, label: band.label };
}

/** Pixels per inch along the weaker axis when the image fills the canvas. */
export function effectivePpi(widthPx: number, heightPx: number, canvasWidthInches: number, canvasHeightInches: number): number {
  return Math.min(widthPx / canvasWidthInches, heightPx / canvasHeightInches);
}

export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

export function dpiScore(input: { widthPx: number; heightPx: number; canvasWidthInches: number; canvasHeightInches: number; productType: ProductType }) {
  const ppi = effectivePpi(input.widthPx, input.heightPx, input.canvasWidthInches, input.canvasHeightInches);
  const minPpi = minPpiFor(input.productType);
  const { stars, label } = starsFor(ppi / minPpi);
  return { stars, label, effectivePpi: round1(ppi), minPpi, productType: input.productType };
}
