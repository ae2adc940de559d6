import { Zip, ZipPassThrough } from "fflate";

/** Adds one stored (not deflated) entry: the photos are JPEGs already. */
export type AddEntry = (name: string, bytes: Uint8Array) => void;

/**
 * A ZIP streamed as the reader pulls: `next(add)` writes the next entries (any
 * number, none to skip a step) and answers false when there is nothing more, which
 * ends the archive. One step's files are in memory at a time, so a whole picture
 * day streams in flat memory.
 */
export function zipStream(next: (add: AddEntry) => Promise<boolean>): ReadableStream<Uint8Array> {
  let zip: Zip;
  const add: AddEntry = (name, bytes) => {
    const entry = new ZipPassThrough(name);
    zip.add(entry);
    entry.push(bytes, true);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    async pull() {
      if (!(await next(add))) zip.end();
    },
  });
}
