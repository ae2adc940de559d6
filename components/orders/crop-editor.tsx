"use client";

import { useLayoutEffect, useRef } from "react";
import { MIN_CROP_SCALE, PRINT_PPI_FLOOR, cropPpi, cropScale, largestCrop, moveCrop, zoomCrop, type Crop, type CropPhoto, type PrintSize } from "@/lib/services/orders/crop";

type Props = { photo: CropPhoto & { preview_url: string }; size: PrintSize; crop: Crop; onChange: (crop: Crop) => void; label: string };

/**
 * The print's crop over the photo's preview: drag the box (finger or mouse) to
 * move it, pinch, scroll or use the slider to zoom; it keeps the print's aspect
 * and stays inside the photo. Under the box, the print's ppi from the original's
 * pixels, with a warning below PRINT_PPI_FLOOR.
 */
export function CropEditor({ photo, size, crop: shown, onChange: report, label }: Props) {
  const frame = useRef<HTMLDivElement>(null);
  // Pointer events can come faster than renders: each change builds on the last one made, not the last one shown.
  const live = useRef(shown);
  useLayoutEffect(() => {
    live.current = shown;
  }, [shown]);
  const crop = shown;
  const onChange = (next: Crop) => {
    live.current = next;
    report(next);
  };
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const largest = largestCrop(photo, size);
  const ppi = cropPpi(crop, photo, size);
  const spread = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  const onPointerDown = (e: React.PointerEvent) => {
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const last = pointers.current.get(e.pointerId);
    const box = frame.current?.getBoundingClientRect();
    if (!last || !box) return;
    const before = spread();
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 1) {
      onChange(moveCrop(live.current, (e.clientX - last.x) / box.width, (e.clientY - last.y) / box.height));
    } else if (before > 0) {
      // Pinch: fingers apart zoom in (a smaller box), together zoom out.
      onChange(zoomCrop(live.current, largest, cropScale(live.current, largest) * (before / Math.max(1, spread()))));
    }
  };
  const onPointerUp = (e: React.PointerEvent) => void pointers.current.delete(e.pointerId);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const step = 0.02;
    const d = ({ ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] } as Record<string, [number, number]>)[e.key];
    if (!d) return;
    e.preventDefault();
    onChange(moveCrop(live.current, d[0], d[1]));
  };

  return (
    <div className="space-y-2">
      <div ref={frame} className="relative w-full touch-none select-none overflow-hidden rounded bg-slate-900" style={{ aspectRatio: `${photo.width} / ${photo.height}` }} onWheel={(e) => onChange(zoomCrop(live.current, largest, cropScale(live.current, largest) * (e.deltaY > 0 ? 1.05 : 0.95)))}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a signed, watermarked preview */}
        <img src={photo.preview_url} alt="" draggable={false} className="absolute inset-0 h-full w-full opacity-60" />
        <div
          role="slider"
          tabIndex={0}
          aria-label={label}
          aria-valuenow={ppi}
          aria-valuetext={`${ppi} ppi`}
          data-testid="crop-box"
          className="absolute cursor-move border-2 border-white shadow-[0_0_0_9999px_rgba(0,0,0,0.45)] outline-none focus-visible:border-sky-300"
          style={{ left: `${crop.x * 100}%`, top: `${crop.y * 100}%`, width: `${crop.width * 100}%`, height: `${crop.height * 100}%` }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        />
      </div>
      <label className="flex items-center gap-2 text-sm">
        Zoom
        <input type="range" aria-label="Zoom" className="flex-1" min={1} max={1 / MIN_CROP_SCALE} step={0.05} value={1 / cropScale(crop, largest)} onChange={(e) => onChange(zoomCrop(live.current, largest, 1 / Number(e.target.value)))} />
      </label>
      {ppi < PRINT_PPI_FLOOR ? (
        <p role="alert" data-testid="ppi-warning" className="text-sm text-amber-700">
          Under {PRINT_PPI_FLOOR} ppi at this size ({ppi} ppi): the print may look soft. Zoom out or choose a smaller print.
        </p>
      ) : (
        <p data-testid="ppi" className="text-xs text-slate-500">
          {ppi} ppi at this size
        </p>
      )}
    </div>
  );
}
