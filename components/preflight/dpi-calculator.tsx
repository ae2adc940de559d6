"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { fieldErrorList } from "@/lib/client/field-errors";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { PRODUCT_TYPES, type ProductType } from "@/lib/services/preflight/product-types";

type Score = ApiResponse<"/v1/services/preflight/dpi-score", "post">["data"];

/** Backed by POST /v1/services/preflight/dpi-score (free): how sharp a pixel size prints at a canvas size. */
export function DpiCalculator({ initial }: { initial?: { widthPx?: number; heightPx?: number; canvasWidthInches?: number; canvasHeightInches?: number; productType?: string } }) {
  const [widthPx, setWidthPx] = useState(String(initial?.widthPx ?? 3000));
  const [heightPx, setHeightPx] = useState(String(initial?.heightPx ?? 2400));
  const [canvasW, setCanvasW] = useState(String(initial?.canvasWidthInches ?? 10));
  const [canvasH, setCanvasH] = useState(String(initial?.canvasHeightInches ?? 8));
  const [productType, setProductType] = useState<string>(initial?.productType ?? "framed_print");
  const [score, setScore] = useState<Score | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const res = unwrap(
        await studioApi.POST("/v1/services/preflight/dpi-score", {
          // The API names a product it does not know; the select offers only known ones.
          body: { widthPx: Number(widthPx), heightPx: Number(heightPx), canvasWidthInches: Number(canvasW), canvasHeightInches: Number(canvasH), productType: productType as ProductType },
        }),
      );
      setScore(res.data);
    } catch (err) {
      setScore(null);
      const fields = fieldErrorList(err);
      setError(fields.length ? fields.map((f) => f.message).join(" ") : err instanceof Error ? err.message : "Could not score.");
    }
  }

  return (
    // noValidate: the API's messages name the field and say what is wrong, better than the browser's.
    <form onSubmit={submit} className="space-y-3" aria-label="DPI calculator" noValidate>
      <div className="grid grid-cols-2 gap-3">
        <Field id="dpi-w" label="Width (px)" type="number" min="1" step="1" value={widthPx} onChange={(e) => setWidthPx(e.target.value)} />
        <Field id="dpi-h" label="Height (px)" type="number" min="1" step="1" value={heightPx} onChange={(e) => setHeightPx(e.target.value)} />
        <Field id="dpi-cw" label="Canvas width (in)" type="number" step="any" min="0" value={canvasW} onChange={(e) => setCanvasW(e.target.value)} />
        <Field id="dpi-ch" label="Canvas height (in)" type="number" step="any" min="0" value={canvasH} onChange={(e) => setCanvasH(e.target.value)} />
      </div>
      <div className="space-y-1">
        <label htmlFor="dpi-product" className="block text-sm font-medium text-slate-700">
          Product
        </label>
        <select id="dpi-product" value={productType} onChange={(e) => setProductType(e.target.value)} className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
          {PRODUCT_TYPES.map((p) => (
            <option key={p} value={p}>
              {p.replace(/_/g, " ")}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary" className="w-full">
        Score resolution
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {score ? (
        <div className="rounded-md bg-slate-50 px-3 py-2 text-sm" data-testid="dpi-score" data-stars={score.stars}>
          <span className="text-lg text-amber-500" aria-label={`${score.stars} of 5 stars`}>
            {"★".repeat(score.stars)}
            <span className="text-slate-300">{"★".repeat(5 - score.stars)}</span>
          </span>{" "}
          <span className="font-medium">{score.label}</span>
          <p className="text-slate-600">
            {score.effectivePpi} ppi effective · {score.minPpi} ppi minimum for {score.productType.replace(/_/g, " ")}
          </p>
        </div>
      ) : null}
    </form>
  );
}
