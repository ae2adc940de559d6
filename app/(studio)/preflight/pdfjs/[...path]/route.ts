import fs from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-dynamic";

/**
 * Serves pdf.js's own runtime files to the preflight viewer, straight from the
 * installed pdfjs-dist package so the worker always matches the library
 * version: the worker script, and the standard fonts, CMaps, ICC profiles and
 * wasm decoders it loads for PDFs that need them. Nothing else is reachable.
 */
const ALLOWED = [/^build\/pdf\.worker\.min\.mjs$/, /^standard_fonts\/[A-Za-z0-9_.-]+\.(pfb|ttf)$/, /^cmaps\/[A-Za-z0-9_.-]+\.bcmap$/, /^iccs\/[A-Za-z0-9_.-]+\.icc$/, /^wasm\/[A-Za-z0-9_.-]+\.(wasm|js)$/];
const TYPES: Record<string, string> = { ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm" };

export async function GET(_req: Request, ctx: { params: Promise<{ path: string[] }> }) {
  const rel = (await ctx.params).path.join("/");
  if (!ALLOWED.some((re) => re.test(rel))) return new Response("Not found", { status: 404 });
  const root = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "pdfjs-dist");
  try {
    const body = await fs.readFile(path.join(root, rel));
    return new Response(new Uint8Array(body), {
      headers: { "Content-Type": TYPES[path.extname(rel)] ?? "application/octet-stream", "Cache-Control": "public, max-age=86400" },
    });
  } catch {
    return new Response("Not found", { status: 404 });
  }
}
