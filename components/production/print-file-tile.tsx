"use client";

import { EnlargeableImage } from "@/components/ui/enlargeable-image";
import type { ApiResponse } from "@/lib/client/typed-api";
import { FixHeldFile } from "./fix-held-file";

export type PrintFile = ApiResponse<"/v1/production/orders/{id}/print-files", "get">["data"][number];

const STATUS = { pending: "Rendering…", rendered: "Ready for the lab", held: "On hold" } as const;

/** One print file as the lab will get it: its picture, size and pixels, and on hold, why. */
export function PrintFileTile({ file, canFix = false }: { file: PrintFile; canFix?: boolean }) {
  return (
    <li className="rounded border border-slate-200 p-2 text-xs" data-testid="print-file">
      {file.thumb_url ? (
        <EnlargeableImage src={file.thumb_url} alt={`${file.product_code} ${file.size} in of ${file.order_id}`} className="aspect-auto" />
      ) : (
        <div className="flex h-28 items-center justify-center rounded bg-slate-100 text-slate-500">{STATUS[file.status]}</div>
      )}
      <p className="mt-1 font-medium text-slate-800">
        {file.quantity} × {file.size} in · {file.product_code}
      </p>
      <p className={file.status === "held" ? "font-medium text-red-700" : "text-slate-500"}>
        {file.shipped ? "Shipped" : STATUS[file.status]}
        {file.width_px ? ` · ${file.width_px} × ${file.height_px} px` : ""}
      </p>
      {file.hold_reasons.length ? (
        <ul className="mt-1 list-disc pl-4 text-red-700" data-testid="hold-reasons">
          {file.hold_reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      {/* A missing lab profile is fixed in the settings (upload it again), not on the print: it renders again by itself then. */}
      {file.status === "held" && canFix && file.hold_code !== "lab_profile_missing" ? <FixHeldFile file={file} /> : null}
    </li>
  );
}
