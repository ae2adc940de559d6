"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useParentSession } from "@/lib/client/parent-session";
import { ApiRequestError } from "@/lib/client/api-fetch";

/**
 * The session for a gallery page: back to the code page when there is none,
 * or when the API says the token no longer opens anything (closed, expired).
 */
export function useGallerySession(error?: unknown) {
  const router = useRouter();
  const state = useParentSession();
  const unauthorised = error instanceof ApiRequestError && error.status === 401;
  useEffect(() => {
    if (!state.ready) return;
    if (!state.session || unauthorised) {
      state.end();
      router.replace("/g?ended=1");
    }
  }, [state, unauthorised, router]);
  return state;
}
