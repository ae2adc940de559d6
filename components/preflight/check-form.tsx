"use client";

import { useState } from "react";
import { useDropzone } from "react-dropzone";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useProductOptions } from "@/components/core/projects/use-product-options";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { fieldErrorList } from "@/lib/client/field-errors";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import { studioApi, unwrap, type ApiBody } from "@/lib/client/typed-api";
import { uploadFile } from "@/lib/client/upload-file";
import { CheckPlan } from "./check-plan";
import { PRODUCT_TYPES } from "@/lib/services/preflight/product-types";
import { checkPlan, type Report } from "./types";

const ACCEPT = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/tiff": [".tif", ".tiff"], "application/pdf": [".pdf"] };

/** A number typed in a field, or undefined when it is blank (or not a number). */
const typed = (s: string) => (s.trim() === "" || !Number.isFinite(Number(s)) ? undefined : Number(s));

/**
 * Upload a file (POST /v1/uploads), then check it (POST /v1/services/preflight/checks).
 * Nothing is assumed: the fields start empty, or from the product chosen, and
 * the list under them says what will be checked and what is skipped, and why.
 */
export function CheckForm({ onChecked }: { onChecked: (report: Report) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [productId, setProductId] = useState("");
  const [canvasW, setCanvasW] = useState("");
  const [canvasH, setCanvasH] = useState("");
  const [productType, setProductType] = useState("");
  const [requiredDpi, setRequiredDpi] = useState("");
  const [colorMode, setColorMode] = useState("");
  const [bleedMm, setBleedMm] = useState("");
  const [busy, setBusy] = useState<null | "uploading" | "checking">(null);
  const [error, setError] = useState<string | null>(null);
  const products = useProductOptions("active");
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ accept: ACCEPT, multiple: false, onDrop: (files) => setFile(files[0] ?? null) });

  function chooseProduct(id: string) {
    setProductId(id);
    const p = products.data?.data.find((x) => x.id === id);
    if (!p) return;
    setCanvasW(String(p.width_in));
    setCanvasH(String(p.height_in));
    setBleedMm(String(p.bleed_mm));
    setRequiredDpi(String(p.min_ppi));
    setColorMode(p.color_mode);
    setProductType(p.product_type);
  }

  const w = typed(canvasW);
  const h = typed(canvasH);
  const oneSideOnly = (w === undefined) !== (h === undefined);
  const fileType = file ? (/\.pdf$/i.test(file.name) ? "pdf" : "image") : undefined;
  const plan = checkPlan(
    {
      canvasWidthInches: oneSideOnly ? undefined : w,
      canvasHeightInches: oneSideOnly ? undefined : h,
      bleedMm: typed(bleedMm),
      requiredDpi: typed(requiredDpi),
      requiredDpiSource: typed(requiredDpi) !== undefined ? "productProfile" : productType ? "productType" : "default",
      requiredColorMode: colorMode || undefined,
      productType: productType || undefined,
    },
    fileType,
  );

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return setError("Choose a file first.");
    if (oneSideOnly) return setError("Give both the canvas width and height, or leave both empty to skip the page-size check.");
    setError(null);
    try {
      setBusy("uploading");
      const upload = await uploadFile(file);
      setBusy("checking");
      const profile: Record<string, unknown> = {};
      if (typed(requiredDpi) !== undefined) profile.requiredDpi = typed(requiredDpi);
      if (colorMode) profile.requiredColorMode = colorMode;
      if (typed(bleedMm) !== undefined) profile.bleedMm = typed(bleedMm);
      const body: Record<string, unknown> = { designId: file.name.slice(0, 200), fileUrl: upload.url };
      if (w !== undefined && h !== undefined) Object.assign(body, { canvasWidthInches: w, canvasHeightInches: h });
      if (productType) body.productType = productType;
      if (Object.keys(profile).length > 0) body.productProfile = profile;
      const res = unwrap(await studioApi.POST("/v1/services/preflight/checks", { params: { header: { "Idempotency-Key": newIdempotencyKey() } }, body: body as ApiBody<"/v1/services/preflight/checks", "post"> }));
      onChecked(res.data);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(null);
    }
  }

  const productList = products.data?.data ?? [];
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Check a file">
      <div
        {...getRootProps()}
        className={`cursor-pointer rounded-md border-2 border-dashed px-4 py-6 text-center text-sm ${isDragActive ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-slate-50"}`}
      >
        <input {...getInputProps()} data-testid="preflight-file-input" />
        {file ? <span className="font-medium text-slate-800">{file.name}</span> : <span className="text-slate-600">Drop a JPEG, PNG, TIFF or PDF here, or click to choose.</span>}
      </div>
      {productList.length > 0 ? (
        <Select
          id="pf-from-product"
          label="Check for a product"
          value={productId}
          onChange={chooseProduct}
          options={[{ value: "", label: "none: I'll enter the print specs" }, ...productList.map((p) => ({ value: p.id, label: `${p.name} (${p.width_in} x ${p.height_in} in)` }))]}
        />
      ) : null}
      <div className="grid grid-cols-2 gap-3">
        <Field id="pf-canvas-w" label="Canvas width (in)" type="number" step="any" min="0" placeholder="not checked" value={canvasW} onChange={(e) => setCanvasW(e.target.value)} />
        <Field id="pf-canvas-h" label="Canvas height (in)" type="number" step="any" min="0" placeholder="not checked" value={canvasH} onChange={(e) => setCanvasH(e.target.value)} />
        <Field id="pf-bleed" label="Bleed (mm)" type="number" step="any" min="0" placeholder="not checked" value={bleedMm} onChange={(e) => setBleedMm(e.target.value)} />
        <Field id="pf-dpi" label="Required DPI" type="number" min="1" placeholder="300 unless a product type says" value={requiredDpi} onChange={(e) => setRequiredDpi(e.target.value)} />
        <Select id="pf-product" label="Product type" value={productType} onChange={setProductType} options={["", ...PRODUCT_TYPES].map((o) => ({ value: o, label: o === "" ? "any" : o.replace(/_/g, " ") }))} />
        <Select
          id="pf-color"
          label="Colour mode"
          value={colorMode}
          onChange={setColorMode}
          options={[
            { value: "", label: "any (not checked)" },
            { value: "cmyk", label: "CMYK" },
            { value: "rgb", label: "RGB" },
            { value: "grayscale", label: "greys only" },
          ]}
        />
      </div>
      {oneSideOnly ? (
        <p role="alert" data-testid="pf-canvas-half" className="text-sm text-amber-800">
          Give both the canvas width and height, or leave both empty to skip the page-size check.
        </p>
      ) : null}
      <CheckPlan plan={plan} title="What will be checked" testId="pf-plan" />
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={!!busy || !file || oneSideOnly} className="w-full">
        {busy === "uploading" ? "Uploading…" : busy === "checking" ? "Checking…" : "Check file"}
      </Button>
    </form>
  );
}

function Select({ id, label, value, onChange, options }: { id: string; label: string; value: string; onChange: (v: string) => void; options: { value: string; label: string }[] }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function describe(err: unknown): string {
  if (err instanceof ApiRequestError) {
    if (err.body.error === "PLAN_QUOTA_EXCEEDED") return `${err.message}`;
    const fields = fieldErrorList(err);
    if (fields.length) return fields.map((f) => f.message).join(" ");
    return err.message;
  }
  return err instanceof Error ? err.message : "The check failed.";
}
