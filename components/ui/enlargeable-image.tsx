"use client";

import { useRef } from "react";

/**
 * A picture that opens large on click (a modal <dialog>: Escape, the close button
 * or a click outside the picture close it). Before/after previews are judged by
 * detail, so the small one is only the way in.
 */
export function EnlargeableImage({ src, alt, testId, className = "" }: { src: string; alt: string; testId?: string; className?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()} className="block w-full cursor-zoom-in" aria-label={`Enlarge: ${alt}`}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL */}
        <img data-testid={testId} src={src} alt={alt} className={`w-full rounded border border-slate-200 bg-white ${className}`} />
      </button>
      <dialog
        ref={dialog}
        aria-label={alt}
        data-testid={testId ? `${testId}-enlarged` : undefined}
        onClick={(e) => {
          if (e.target === e.currentTarget) dialog.current?.close();
        }}
        className="max-h-[95vh] max-w-[95vw] rounded-lg bg-white p-2 shadow-xl backdrop:bg-slate-900/70"
      >
        <div className="mb-2 flex items-center justify-between gap-4 text-sm">
          <span className="font-medium text-slate-800">{alt}</span>
          <button type="button" onClick={() => dialog.current?.close()} className="rounded border border-slate-300 px-2 py-1 text-slate-700 hover:bg-slate-50">
            Close
          </button>
        </div>
        {/* eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL */}
        <img src={src} alt={alt} className="max-h-[85vh] max-w-[92vw] object-contain" />
      </dialog>
    </>
  );
}
