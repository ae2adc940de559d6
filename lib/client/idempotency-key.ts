import { useCallback, useMemo, useRef } from "react";

/**
 * A random Idempotency-Key. crypto.randomUUID only exists on secure origins
 * (https, localhost); getRandomValues works on a plain-http LAN address too.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === "function") return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One Idempotency-Key per user action: `run(fn)` hands `fn` the action's key,
 * the same one to every call made until the first of them settles. A double
 * click, or a second submit while the first is on its way, therefore sends the
 * same key: the server runs and charges the action once and both get its answer.
 * The next action (after it settled) gets a fresh key.
 */
export function useActionKey(): { run: <T>(fn: (idempotencyKey: string) => Promise<T>) => Promise<T> } {
  const ref = useRef<string | null>(null);
  return useMemo(
    () => ({
      run: async <T,>(fn: (idempotencyKey: string) => Promise<T>) => {
        const key = (ref.current ??= newIdempotencyKey());
        try {
          return await fn(key);
        } finally {
          if (ref.current === key) ref.current = null;
        }
      },
    }),
    [],
  );
}

/**
 * Lets one press of a control through until its work settles. The guard is set in
 * the click's own event, so a second click of a fast double click (no gap: both
 * arrive before React re-renders the button disabled) is dropped here, before any
 * request leaves. Use it with useActionKey: this stops the second request, the
 * shared key makes the server charge once even if one gets through.
 */
export function useOnePress(): (work: () => Promise<unknown>) => void {
  const busy = useRef(false);
  return useCallback((work: () => Promise<unknown>) => {
    if (busy.current) return;
    busy.current = true;
    void work()
      .catch(() => {}) // the work shows its own error (a mutation's error state)
      .finally(() => {
        busy.current = false;
      });
  }, []);
}
