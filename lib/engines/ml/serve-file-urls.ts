import fs from "node:fs";

/**
 * TensorFlow.js loaders (Human's models, the wasm backend's binaries) call
 * fetch(), and Node's fetch refuses file:// URLs. Called inside an engine's
 * worker thread only: from then on file:// requests in that thread are answered
 * from disk, and every other request goes to the real fetch.
 */
export function serveFileUrls(): void {
  const g = globalThis as unknown as { fetch: typeof fetch; __fileFetchPatched?: boolean };
  if (g.__fileFetchPatched) return;
  const real = g.fetch.bind(globalThis);
  g.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith("file://")) return new Response(new Uint8Array(await fs.promises.readFile(new URL(url))), { status: 200 });
    return real(input, init);
  }) as typeof fetch;
  g.__fileFetchPatched = true;
}
