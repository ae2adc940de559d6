"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** `window.location.origin` in the browser; a placeholder while rendering on the server. */
export function useOrigin(placeholder = "https://studio.example.com"): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => placeholder,
  );
}
