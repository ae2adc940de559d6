/**
 * Content-Disposition value per RFC 6266: a plain ASCII `filename` for old clients and
 * `filename*` (RFC 5987, UTF-8) for the real name, so "Ünïcode résumé.pdf" survives.
 */
export function contentDisposition(downloadName?: string): string {
  if (!downloadName) return "inline";
  const ascii = downloadName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(downloadName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
