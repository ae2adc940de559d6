"use client";

import { useState } from "react";
import { EnlargeableImage } from "@/components/ui/enlargeable-image";
import { MAX_PREVIEW_PAGES } from "@/lib/services/fixes/limits";
import type { ApiResponse } from "@/lib/client/typed-api";
import { sameOriginFileUrl } from "./same-origin-url";

type Preview = ApiResponse<"/v1/services/preflight/ai-jobs/{jobId}", "get">["data"]["preview"];

/**
 * Before and after of an AI fix, every page: the chosen page one above the
 * other at the column's full width (judged by detail, each opening large), and
 * for a PDF of several pages Previous/Next and a strip of small pages that load
 * as they scroll into view. Issue 33: page 1 alone hid what a fix did to page 2.
 */
export function FixPreviews({ preview }: { preview: Preview }) {
  const pages = preview.pages.length ? preview.pages : [{ page: 1, beforeUrl: preview.beforeUrl, afterUrl: preview.afterUrl }];
  const [index, setIndex] = useState(0);
  const shown = pages[Math.min(index, pages.length - 1)]!;
  const many = pages.length > 1;
  const go = (i: number) => setIndex(Math.max(0, Math.min(pages.length - 1, i)));
  return (
    <div className="space-y-3" data-testid="fix-previews">
      {many ? (
        <div className="flex flex-wrap items-center justify-between gap-2" data-testid="fix-page-nav">
          <button type="button" onClick={() => go(index - 1)} disabled={index === 0} className="rounded border border-slate-300 px-2 py-1 text-slate-700 hover:bg-slate-50 disabled:opacity-40">
            Previous page
          </button>
          <span className="font-medium text-slate-800" aria-live="polite" data-testid="fix-page-label">
            Page {shown.page} of {pages.length}
          </span>
          <button type="button" onClick={() => go(index + 1)} disabled={index === pages.length - 1} className="rounded border border-slate-300 px-2 py-1 text-slate-700 hover:bg-slate-50 disabled:opacity-40">
            Next page
          </button>
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-4">
        {(["beforeUrl", "afterUrl"] as const).map((k) => {
          const word = k === "beforeUrl" ? "Before" : "After";
          const url = shown[k];
          return (
            <figure key={`${k}-${shown.page}`}>
              {url ? <EnlargeableImage testId={`fix-${word.toLowerCase()}`} src={sameOriginFileUrl(url)} alt={`${word} the fix${many ? `, page ${shown.page}` : ""}`} /> : <p className="rounded border border-dashed border-slate-300 p-4 text-center text-xs text-slate-500">No picture of this page {word.toLowerCase()} the fix.</p>}
              <figcaption className="mt-1 flex justify-between text-xs text-slate-500">
                <span>
                  {word}
                  {many ? `, page ${shown.page}` : ""} (click to enlarge)
                </span>
                {url ? (
                  <a href={sameOriginFileUrl(url)} target="_blank" rel="noreferrer" className="text-brand-700 hover:underline">
                    Open full size
                  </a>
                ) : null}
              </figcaption>
            </figure>
          );
        })}
      </div>
      {many ? (
        <ol className="flex gap-2 overflow-x-auto pb-2" aria-label="Pages after the fix" data-testid="fix-page-strip">
          {pages.map((p, i) => (
            <li key={p.page} className="shrink-0">
              <button type="button" onClick={() => go(i)} aria-current={i === index ? "page" : undefined} aria-label={`Page ${p.page}`} className={`block w-16 rounded border-2 p-0.5 text-xs ${i === index ? "border-brand-600" : "border-transparent hover:border-slate-300"}`}>
                {p.afterUrl ?? p.beforeUrl ? (
                  // eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL; lazy, so a long document loads the pages looked at
                  <img src={sameOriginFileUrl((p.afterUrl ?? p.beforeUrl)!)} alt="" loading="lazy" className="w-full bg-white" />
                ) : null}
                <span className="block text-center text-slate-600">{p.page}</span>
              </button>
            </li>
          ))}
        </ol>
      ) : null}
      {pages.length >= MAX_PREVIEW_PAGES ? <p className="text-xs text-slate-500">The first {MAX_PREVIEW_PAGES} pages are drawn here; download the file to see the rest.</p> : null}
    </div>
  );
}
