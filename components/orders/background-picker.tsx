"use client";

import type { ApiResponse } from "@/lib/client/typed-api";

type Background = ApiResponse<"/v1/parent/price-sheet", "get">["backgrounds"][number];

/**
 * The parent's choice of the studio's backgrounds for a print that allows one: "as
 * photographed", or a colour swatch or picture. The studio's production composites the
 * child onto it; the cart shows the child on the chosen one (background-preview.tsx).
 */
export function BackgroundPicker({ backgrounds, chosen, onChange }: { backgrounds: Background[]; chosen: string | null; onChange: (id: string | null) => void }) {
  const ring = (on: boolean) => `h-10 w-10 rounded border-2 ${on ? "border-brand-600" : "border-slate-200"}`;
  return (
    <fieldset className="text-sm">
      <legend className="text-slate-600">Background</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        <button type="button" aria-pressed={chosen === null} className={`${ring(chosen === null)} bg-white text-[10px] text-slate-600`} onClick={() => onChange(null)}>
          As shot
        </button>
        {backgrounds.map((b) => (
          <button key={b.id} type="button" title={b.name} aria-label={b.name} aria-pressed={chosen === b.id} className={`${ring(chosen === b.id)} overflow-hidden`} style={b.color ? { backgroundColor: b.color } : undefined} onClick={() => onChange(b.id)}>
            {/* eslint-disable-next-line @next/next/no-img-element -- a signed storage URL */}
            {b.thumbnail_url ? <img src={b.thumbnail_url} alt="" className="h-full w-full object-cover" /> : null}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
