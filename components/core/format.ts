import type { ProductType } from "@/lib/services/core/catalog-values";

/** Decimal places of a currency's minor unit (USD 2, JPY 0, BHD 3), from ICU. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** 4999 USD -> "$49.99". */
export function formatPrice(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minor / 10 ** currencyDigits(currency));
  } catch {
    return `${minor} ${currency}`;
  }
}

/** "49.99" USD -> 4999; null when it is not a number. */
export function toMinorUnits(major: string, currency: string): number | null {
  const text = major.trim();
  const value = Number(text);
  if (!text || !Number.isFinite(value)) return null;
  return Math.round(value * 10 ** currencyDigits(currency));
}

export function toMajorUnits(minor: number, currency: string): string {
  return (minor / 10 ** currencyDigits(currency)).toFixed(currencyDigits(currency));
}

export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = {
  photo_on_canvas: "Photo on canvas",
  poster: "Poster",
  wallpaper: "Wallpaper",
  framed_print: "Framed print",
  wrapping_paper: "Wrapping paper",
  stock_canvas: "Stock canvas",
};

export function productTypeLabel(type: string): string {
  return PRODUCT_TYPE_LABELS[type as ProductType] ?? type;
}

/** 16 x 20 -> "16 × 20 in". */
export function formatSize(w: number, h: number): string {
  return `${w} × ${h} in`;
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
}
