/** Which studio a person acts for: API clients send the header, the studio's pages keep the switcher's choice in a cookie. */
export const STUDIO_HEADER = "x-studio-id";
export const STUDIO_COOKIE = "ps_studio";

export function studioFromCookie(header: string | null): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === STUDIO_COOKIE) return decodeURIComponent(part.slice(i + 1).trim()) || undefined;
  }
  return undefined;
}
