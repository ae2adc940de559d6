"use client";

import { useState } from "react";
import { useDropzone } from "react-dropzone";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError, apiFetch } from "@/lib/client/api-fetch";
import { PRODUCT_TYPES, type Report } from "./types";

const ACCEPT = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/tiff": [".tif", ".tiff"], "application/pdf": [".pdf"] };

/** Upload a file (POST /v1/uploads), then check it (POST /v1/services/preflight/checks). */
export function CheckForm({ onChecked }: { onChecked: (report: Report) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [canvasW, setCanvasW] = useState("8");
  const [canvasH, setCanvasH] = useState("10");
  const [productType, setProductType] = useState("");
  const [requiredDpi, setRequiredDpi] = useState("");
  const [colorMode, setColorMode] = useState("");
  const [bleedMm, setBleedMm] = useState("3");
  const [busy, setBusy] = useState<null | "uploading" | "checking">(null);
  const [error, setError] = useState<string | null>(null);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ accept: ACCEPT, multiple: false, onDrop: (files) => setFile(files[0] ?? null) });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return setError("Choose a file first.");
    setError(null);
    try {
      setBusy("uploading");
      const form = new FormData();
      form.append("file", file);
      const upload = await apiFetch<{ url: string }>("/v1/uploads", { method: "POST", body: form });
      setBusy("checking");
      const profile: Record<string, unknown> = {};
      if (requiredDpi) profile.requiredDpi = Number(requiredDpi);
      if (colorMode) profile.requiredColorMode = colorMode;
      if (bleedMm) profile.bleedMm = Number(bleedMm);
      const body: Record<string, unknown> = { designId: file.name.slice(0, 200), fileUrl: upload.url };
      if (canvasW && canvasH) Object.assign(body, { canvasWidthInches: Number(canvasW), canvasHeightInches: Number(canvasH) });
      if (productType) body.productType = productType;
      if (Object.keys(profile).length > 0) body.productProfile = profile;
      const res = await apiFetch<{ data: Report }>("/v1/services/preflight/checks", { method: "POST", json: body });
      onChecked(res.data);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Check a file">
      <div
        {...getRootProps()}
        className={`cursor-pointer rounded-md border-2 border-dashed px-4 py-6 text-center text-sm ${isDragActive ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-slate-50"}`}
      >
        <input {...getInputProps()} data-testid="preflight-file-input" />
        {file ? <span className="font-medium text-slate-800">{file.name}</span> : <span className="text-slate-600">Drop a JPEG, PNG, TIFF or PDF here, or click to choose.</span>}
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field id="pf-canvas-w" label="Canvas width (in)" type="number" step="any" min="0" value={canvasW} onChange={(e) => setCanvasW(e.target.value)} />
        <Field id="pf-canvas-h" label="Canvas height (in)" type="number" step="any" min="0" value={canvasH} onChange={(e) => setCanvasH(e.target.value)} />
        <Field id="pf-bleed" label="Bleed (mm)" type="number" step="any" min="0" value={bleedMm} onChange={(e) => setBleedMm(e.target.value)} />
        <Field id="pf-dpi" label="Required DPI" type="number" min="1" placeholder="from product" value={requiredDpi} onChange={(e) => setRequiredDpi(e.target.value)} />
        <Select id="pf-product" label="Product type" value={productType} onChange={setProductType} options={["", ...PRODUCT_TYPES]} />
        <Select id="pf-color" label="Colour mode" value={colorMode} onChange={setColorMode} options={["", "cmyk", "rgb", "grayscale"]} />
      </div>
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={!!busy || !file} className="w-full">
        {busy === "uploading" ? "Uploading…" : busy === "checking" ? "Checking…" : "Check file"}
      </Button>
    </form>
  );
}

function Select({ id, label, value, onChange, options }: { id: string; label: string; value: string; onChange: (v: string) => void; options: readonly string[] }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
        {options.map((o) => (
          <option key={o} value={o}>
            {o === "" ? "any" : o.replace(/_/g, " ")}
          </option>
        ))}
      </select>
    </div>
  );
}

function describe(err: unknown): string {
  if (err instanceof ApiRequestError) {
    if (err.body.error === "PLAN_QUOTA_EXCEEDED") return `${err.message}`;
    const fields = (err.body.details as { fields?: { field: string; message: string }[] } | undefined)?.fields;
    if (fields?.length) return fields.map((f) => `${f.field}: ${f.message}`).join(" ");
    return err.message;
  }
  return err instanceof Error ? err.message : "The check failed.";
}
