import crypto from "node:crypto";
import type { IsnetModel } from "./isnet-model";

/**
 * Remembers ISNet's last few mattes by their input, so the same photo cut out again with
 * other options (a softer edge, on white, as a product), which studios do while they
 * choose, skips the model's run (2-3 s of a 1 MP job on 2 cores): the matte depends only
 * on the model's input tensor, which the options do not change. Each entry holds one
 * 1024² matte (4 MB); keyed by a SHA-1 of the input tensor (~20 ms), never by file name.
 * `entries` 0 turns it off (BG_REMOVAL_MATTE_CACHE, engine-config.ts).
 */
export function rememberMattes(model: IsnetModel, entries: number): IsnetModel & { lastRunCached: boolean } {
  const kept = new Map<string, Float32Array>();
  const memo = {
    ...model,
    lastRunCached: false,
    async run(input: Float32Array): Promise<Float32Array> {
      memo.lastRunCached = false;
      if (entries <= 0) return model.run(input);
      const key = crypto.createHash("sha1").update(new Uint8Array(input.buffer, input.byteOffset, input.byteLength)).digest("hex");
      const hit = kept.get(key);
      if (hit) {
        // Most recently used last: the oldest is the one to forget.
        kept.delete(key);
        kept.set(key, hit);
        memo.lastRunCached = true;
        return new Float32Array(hit);
      }
      const matte = await model.run(input);
      kept.set(key, new Float32Array(matte));
      while (kept.size > entries) kept.delete(kept.keys().next().value!);
      return matte;
    },
    async release() {
      kept.clear();
      await model.release();
    },
  };
  return memo;
}
