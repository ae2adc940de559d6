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
/**
 * A price as people type it, in minor units: "49.99", "49,99", "1,234.50",
 * "1.234,50", "1 234,50", "€49,99". The last "." or "," followed by at most the
 * currency's decimals is the decimal mark; other marks group thousands. Null for
 * anything else (letters, a negative price, more decimals than the currency has).
 */
export function toMinorUnits(major: string, currency: string): number | null {
  const digits = currencyDigits(currency);
  const text = major.trim().replace(/[\s\u00a0\u202f']/g, "").replace(/^[^\d.,-]+|[^\d.,]+$/g, "");
  if (!/^\d[\d.,]*$|^[.,]\d+$/.test(text)) return null;
  const lastMark = Math.max(text.lastIndexOf("."), text.lastIndexOf(","));
  let whole = text;
  let fraction = "";
  if (lastMark >= 0) {
    const after = text.slice(lastMark + 1);
    const marks = text.match(/[.,]/g)!;
    const sameMarkOnly = marks.every((m) => m === text[lastMark]);
    // "1,234" or "1.234.567": one kind of mark, groups of three, so thousands (the currency would need 3 decimals).
    const grouping = sameMarkOnly && after.length === 3 && (marks.length > 1 || digits < 3) && /^\d{1,3}([.,]\d{3})+$/.test(text);
    if (!grouping) {
      whole = text.slice(0, lastMark);
      fraction = after;
      // The decimal mark appears once; "49,999,9" is no number.
      if (whole.includes(text[lastMark]!)) return null;
    }
  }
  if (!/^\d{0,3}([.,]\d{3})*$/.test(whole) && !/^\d*$/.test(whole)) return null;
  whole = whole.replace(/[.,]/g, "");
  if (fraction.length > digits || !/^\d*$/.test(fraction)) return null;
  const value = Number(whole || "0") * 10 ** digits + Number((fraction + "0".repeat(digits)).slice(0, digits) || "0");
  return Number.isSafeInteger(value) ? value : null;
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
