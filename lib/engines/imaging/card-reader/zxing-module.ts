import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { prepareZXingModule, type ZXingReaderModule } from "zxing-wasm/reader";

/**
 * The ZXing-C++ reader's WebAssembly file, resolved from the project root:
 * inside a worker thread the bundler's module paths do not apply, and the
 * package's own default would fetch it from a CDN. Listed in
 * lib/engines/workers/engine-files.ts so the standalone build carries it.
 */
export function zxingWasmPath(): string {
  return createRequire(path.join(/* turbopackIgnore: true */ process.cwd(), "package.json")).resolve("zxing-wasm/reader/zxing_reader.wasm");
}

let ready: Promise<ZXingReaderModule> | undefined;

/** Instantiates the reader once per thread from the local wasm bytes (nothing is fetched). */
export function zxingReader(): Promise<ZXingReaderModule> {
  if (!ready) {
    const file = zxingWasmPath();
    const bytes = fs.readFileSync(file);
    ready = prepareZXingModule({
      overrides: {
        wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
        locateFile: (name: string) => path.join(path.dirname(file), name),
      },
      fireImmediately: true,
    });
    ready.catch(() => (ready = undefined));
  }
  return ready;
}
