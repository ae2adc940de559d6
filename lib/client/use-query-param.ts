"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * Sets several search parameters of the page's URL at once (null removes one).
 * `push` makes a new history entry (Back returns to the previous state), `replace` does not.
 */
export function useSetQueryParams() {
  const router = useRouter();
  const pathname = usePathname();
  return useCallback(
    (patch: Record<string, string | null>, mode: "push" | "replace" = "push") => {
      const q = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v === null || v === "") q.delete(k);
        else q.set(k, v);
      }
      const qs = q.toString();
      const url = qs ? `${pathname}?${qs}` : pathname;
      if (mode === "push") router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [pathname, router],
  );
}

/**
 * One search parameter of the page's URL as state: a reload or Back keeps it, a
 * link can set it (the wallet links to `/bg-remove?job=...`).
 * Pages using it render inside <Suspense> (Next.js needs that for useSearchParams).
 */
export function useQueryParam(name: string): [string | null, (value: string | null, mode?: "push" | "replace") => void] {
  const params = useSearchParams();
  const setParams = useSetQueryParams();
  const set = useCallback((value: string | null, mode: "push" | "replace" = "push") => setParams({ [name]: value }, mode), [name, setParams]);
  return [params.get(name), set];
}

/** A positive page number from the URL, 1 when absent or not a number. */
export const pageFromParam = (v: string | null) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};
