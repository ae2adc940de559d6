"use client";
// The parent's gallery session in the browser: the token from POST /v1/parent/access,
// kept in this tab's sessionStorage (a shared family tablet forgets it with the tab),
// and a typed client that sends it. No cookie: the studio's session is never involved.
import { useCallback, useSyncExternalStore } from "react";
import { createApiClient } from "@/lib/client/api-client";
import type { ApiResponse } from "./typed-api";

export type ParentSession = ApiResponse<"/v1/parent/access", "post">;

const KEY = "print-studio.gallery-session";
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ParentSession | null } = { raw: null, value: null };

function read(): ParentSession | null {
  if (typeof window === "undefined") return null;
  const raw = window.sessionStorage.getItem(KEY);
  if (raw !== cached.raw) {
    let value: ParentSession | null = null;
    try {
      value = raw ? (JSON.parse(raw) as ParentSession) : null;
    } catch {
      value = null;
    }
    cached = { raw, value };
  }
  const v = cached.value;
  return v && Date.parse(v.expires_at) > Date.now() ? v : null;
}

export function saveParentSession(session: ParentSession | null) {
  if (session) window.sessionStorage.setItem(KEY, JSON.stringify(session));
  else window.sessionStorage.removeItem(KEY);
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The session, or null (none, expired); `ready` is false during server rendering. */
export function useParentSession() {
  const session = useSyncExternalStore(subscribe, read, () => null);
  const ready = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const end = useCallback(() => saveParentSession(null), []);
  return { session, ready, end };
}

export const parentApi = (token?: string) => createApiClient({ token });
