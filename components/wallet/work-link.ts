/** The studio page showing the work a ledger row paid for (or refunded), by its operation; null when there is none. */
export function workHref(operation: string | null, reference: string | null): string | null {
  if (!reference || !operation) return null;
  const ref = encodeURIComponent(reference);
  switch (operation) {
    case "bg_remove":
      return `/bg-remove?job=${ref}`;
    case "bulk_qr":
      return `/qr?generation=${ref}`;
    case "face_crop":
      return `/face-crop?task=${ref}`;
    case "ai_fix":
      return `/ai-fixes?job=${ref}`;
    case "face_match":
      return `/matching?task=${ref}`;
    default:
      return null;
  }
}
