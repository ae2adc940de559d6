"use client";

import { PRINT_PPI_FLOOR, cropPpi, faceStartCrop, type Crop, type CropPhoto, type PrintSize } from "@/lib/services/orders/crop";

export type PackagePrint = { name: string; quantity: number; size: PrintSize };
type Props = { photo: CropPhoto & { preview_url: string }; prints: PackagePrint[]; frame: Crop | null | undefined };

/**
 * A package's prints as they will be framed: the cart draws no crop for a package, and
 * production starts each print where the cart starts a single print's crop, around the face
 * at the print's shape (faceStartCrop; production's print-crop.ts), so the parent sees that
 * box on the photo, print by print, with its ppi. Until the face is known, the centred box.
 */
export function PackagePrints({ photo, prints, frame }: Props) {
  if (!prints.length) return null;
  return (
    <ul aria-label="The package's prints" className="flex flex-wrap gap-3">
      {prints.map((p) => {
        const crop = faceStartCrop(photo, p.size, frame ?? null);
        const ppi = cropPpi(crop, photo, p.size);
        return (
          <li key={p.name} className="flex flex-col items-start gap-1 text-xs text-slate-700" data-testid="package-print">
            <div className="relative h-24 overflow-hidden rounded border border-slate-300" style={{ aspectRatio: (crop.width * photo.width) / (crop.height * photo.height) }}>
              {/* eslint-disable-next-line @next/next/no-img-element -- a signed, watermarked preview, cut to the print's box */}
              <img
                src={photo.preview_url}
                alt={`${p.name} as framed`}
                className="absolute max-w-none"
                style={{ width: `${100 / crop.width}%`, height: `${100 / crop.height}%`, left: `${(-crop.x / crop.width) * 100}%`, top: `${(-crop.y / crop.height) * 100}%` }}
              />
            </div>
            <span>
              {p.quantity} × {p.name}
            </span>
            <span className={ppi < PRINT_PPI_FLOOR ? "text-amber-800" : "text-slate-500"}>{ppi < PRINT_PPI_FLOOR ? `Under ${PRINT_PPI_FLOOR} ppi (${ppi})` : `${ppi} ppi`}</span>
          </li>
        );
      })}
    </ul>
  );
}
