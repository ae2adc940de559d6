import { STUDIO_COOKIE } from "@/lib/domain/identity/studio-choice";

/** Makes the browser act for `studioId` from its next request: the cookie the /v1 wrapper and the studio's pages read (lib/domain/identity/studio-choice.ts). */
export function chooseStudio(studioId: string): void {
  document.cookie = `${STUDIO_COOKIE}=${encodeURIComponent(studioId)}; path=/; samesite=lax; max-age=${60 * 60 * 24 * 365}`;
}
