/**
 * The caller's address for per-IP rate limits. `next start` appends the socket
 * address to X-Forwarded-For, and platforms such as Vercel set X-Real-IP, so the
 * last X-Forwarded-For hop (the one our own server added) is the trustworthy one.
 */
export function clientIp(req: Request): string {
  const realIp = req.headers.get("x-real-ip");
  if (realIp) return realIp.trim();
  const forwarded = req.headers.get("x-forwarded-for");
  if (forwarded) {
    const hops = forwarded.split(",").map((h) => h.trim()).filter(Boolean);
    const last = hops[hops.length - 1];
    if (last) return last;
  }
  return "unknown";
}
