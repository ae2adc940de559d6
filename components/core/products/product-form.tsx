"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { COLOR_MODES, minPpiFor, PRODUCT_TYPES, type ProductType } from "@/lib/services/core/catalog-values";
import { fieldErrors } from "@/lib/client/field-errors";
import { formError } from "../field-errors";
import { PRODUCT_TYPE_LABELS, toMajorUnits, toMinorUnits } from "../format";
import type { Product } from "../types";

/** What the person typed: sent as it is, the API validates it and its messages land on the fields. */
export type ProductInput = {
  sku: string;
  name: string;
  product_type: string;
  width_in?: number;
  height_in?: number;
  bleed_mm?: number;
  min_ppi?: number;
  color_mode: string;
  price?: number;
  currency: string;
  is_public: boolean;
};

const FIELDS = ["sku", "name", "product_type", "width_in", "height_in", "bleed_mm", "min_ppi", "color_mode", "price", "currency", "is_public"] as const;
const num = (s: string) => (s.trim() === "" ? undefined : Number(s));

/** Create and edit form for a product; the API does the validation and its messages land on the fields. */
export function ProductForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial?: Product;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: ProductInput) => void;
}) {
  const [v, setV] = useState({
    sku: initial?.sku ?? "",
    name: initial?.name ?? "",
    product_type: initial?.product_type ?? "photo_on_canvas",
    width_in: initial ? String(initial.width_in) : "",
    height_in: initial ? String(initial.height_in) : "",
    bleed_mm: initial ? String(initial.bleed_mm) : "3",
    min_ppi: initial ? String(initial.min_ppi) : "",
    color_mode: initial?.color_mode ?? "cmyk",
    price: initial ? toMajorUnits(initial.price, initial.currency) : "",
    currency: initial?.currency ?? "USD",
    is_public: initial?.is_public ?? false,
  });
  const [priceError, setPriceError] = useState<string>();
  const apiErrors = fieldErrors(error, { single: true });
  // The API speaks of minor units; a person typing the price reads it in the form's terms.
  if (apiErrors.price && !v.price.trim()) apiErrors.price = "Give the price, e.g. 49.99 or 49,99.";
  const errors: Record<string, string | undefined> = { ...apiErrors, ...(priceError ? { price: priceError } : {}) };
  const topError = formError(error, errors, FIELDS);
  const set = (k: keyof typeof v) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setV({ ...v, [k]: e.target.value });

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const price = toMinorUnits(v.price, v.currency);
    if (v.price.trim() && price === null) return setPriceError("Enter a price such as 49.99 or 49,99.");
    setPriceError(undefined);
    onSubmit({
      sku: v.sku,
      name: v.name,
      product_type: v.product_type,
      width_in: num(v.width_in),
      height_in: num(v.height_in),
      bleed_mm: num(v.bleed_mm),
      min_ppi: num(v.min_ppi),
      color_mode: v.color_mode,
      price: price ?? undefined,
      currency: v.currency,
      is_public: v.is_public,
    });
  }

  const id = (k: string) => `product-${k}`;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={id("name")} label="Name" value={v.name} onChange={set("name")} error={errors.name} maxLength={200} required />
        <Field id={id("sku")} label="SKU" value={v.sku} onChange={set("sku")} error={errors.sku} maxLength={64} autoComplete="off" required />
        <SelectField
          id={id("type")}
          label="Product type"
          value={v.product_type}
          onChange={set("product_type")}
          error={errors.product_type}
          options={PRODUCT_TYPES.map((t) => ({ value: t, label: PRODUCT_TYPE_LABELS[t] }))}
        />
        <SelectField
          id={id("color")}
          label="Colour mode"
          value={v.color_mode}
          onChange={set("color_mode")}
          error={errors.color_mode}
          options={COLOR_MODES.map((c) => ({ value: c, label: c === "grayscale" ? "Grayscale" : c.toUpperCase() }))}
        />
        <div className="grid grid-cols-2 gap-4">
          <Field id={id("width")} label="Width (in)" type="number" step="any" min="0" value={v.width_in} onChange={set("width_in")} error={errors.width_in} required />
          <Field id={id("height")} label="Height (in)" type="number" step="any" min="0" value={v.height_in} onChange={set("height_in")} error={errors.height_in} required />
        </div>
        <div className="grid grid-cols-2 gap-4">
          <Field id={id("bleed")} label="Bleed (mm)" type="number" step="any" min="0" value={v.bleed_mm} onChange={set("bleed_mm")} error={errors.bleed_mm} />
          <Field id={id("ppi")} label="Minimum PPI" type="number" step="1" min="1" placeholder={`${minPpiFor(v.product_type as ProductType)} (type default)`} value={v.min_ppi} onChange={set("min_ppi")} error={errors.min_ppi} />
        </div>
        <div className="grid grid-cols-[2fr_1fr] gap-4">
          <Field id={id("price")} label="Price" inputMode="decimal" placeholder="49.99 or 49,99" value={v.price} onChange={set("price")} error={errors.price} required />
          <Field id={id("currency")} label="Currency" value={v.currency} onChange={set("currency")} error={errors.currency} maxLength={3} className="uppercase" required />
        </div>
        <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-700">
          <input type="checkbox" checked={v.is_public} onChange={(e) => setV({ ...v, is_public: e.target.checked })} className="h-4 w-4 rounded border-slate-300" />
          Public: visible to storefront code through the unauth token
        </label>
      </div>
      {topError ? (
        <p role="alert" className="text-sm text-red-600">
          {topError}
        </p>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : submitLabel}
      </Button>
    </form>
  );
}
