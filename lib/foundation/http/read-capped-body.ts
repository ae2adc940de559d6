/**
 * Reads a request body into memory, refusing it as soon as it passes `maxBytes`:
 * a declared Content-Length over the cap is refused before reading, and the
 * stream is counted as it arrives, so a lying or missing header cannot get past.
 * No body -> an empty buffer.
 */
export async function readCappedBody(req: Request, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(req.headers.get("content-length") ?? "") > maxBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
